"""Fixtures of the platform tests that run their own broker, worker and beat."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.utils import timezone

from arena.games import services, totals
from arena.games.models import AnalyticsFact, Game, GameSeat
from arena.games.tasks import run_job
from arena.processes import stop_process_group
from arena.ratings.services import ensure_ratings
from arena.tournaments.models import Tournament
from tests.factories import make_builtin, make_tournament, make_user
from tests.support.broker import RedisServer, celery_app_on
from tests.support.migrations import migrate_to_latest
from tests.support.platform import ROOT, process_env, start_worker, wait_for


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    try:
        with celery_app_on(server.url):
            yield server
    finally:
        server.stop()


class FarSide:
    """The worker and the beat of one test, on its own Redis."""

    def __init__(self, folder, arena_files, broker_url):
        self.folder = folder
        self.env = process_env(arena_files, broker_url)
        self.worker = None
        self.beat = None

    def start_worker(self):
        self.worker = start_worker(self.env, self.folder / "worker.log", "outbox-test")

    def start_beat(self):
        command = [sys.executable, "-m", "celery", "-A", "arena", "beat",
                   "--loglevel", "INFO", "--schedule", str(self.folder / "beat-schedule")]  # fmt: skip
        log = open(self.folder / "beat.log", "wb")  # noqa: SIM115 (kept open by the beat)
        self.beat = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        wait_for(
            lambda: b"beat: Starting" in (self.folder / "beat.log").read_bytes(),
            timeout=60,
            what="the beat to start",
        )

    def logs(self) -> str:
        return "\n".join(
            f"--- {name}\n" + (self.folder / name).read_text(errors="replace")[-3000:]
            for name in ("worker.log", "beat.log")
            if (self.folder / name).exists()
        )

    def stop(self):
        # Thrown away after its test: a warm shutdown (seconds on a loaded machine) is not
        # waited for, as the recovery tests' fleet.
        if self.worker is not None:
            stop_process_group(self.worker.process, grace_seconds=2)
        if self.beat is not None:
            stop_process_group(self.beat, grace_seconds=2)


@pytest.fixture
def far_side(tmp_path, arena_files, redis_server, toy_title):
    side = FarSide(tmp_path, arena_files, redis_server.url)
    try:
        yield side
    finally:
        side.stop()


@pytest.fixture
def folded_citadels():
    """A Citadels tournament of three stored, rated games (three seats), folded into the
    totals (their fact and analytics seat rows deleted), for the tests of migrations on
    stored games; the database is migrated to the latest state afterwards."""
    alice = make_user("alice")
    versions = [make_builtin(alice, title="citadels", builtin="builder") for _ in range(3)]
    tournament = make_tournament(alice, versions, title="citadels", seats=3, rounds=1)
    # Running, with queued games whose messages are never sent: a Celery worker started for
    # other tests in this process cannot take them (as test_viewer does).
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    ensure_ratings(tournament)
    for number in (1, 2, 3):
        game = Game.objects.create(
            tournament=tournament, number=number, seed=number, status="queued",
            queued_at=timezone.now(),
        )  # fmt: skip
        for seat, version in enumerate(versions):
            GameSeat.objects.create(game=game, seat=seat, bot_version=version)
        job = services.claim_game(game.pk, worker="w")
        services.store_game_result(job, run_job(job))
    assert Game.objects.filter(status="finished").count() == 3
    assert AnalyticsFact.objects.exists()
    totals.fold_pending()
    yield tournament
    migrate_to_latest()
