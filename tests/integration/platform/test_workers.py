"""Tournaments played to the end by real Celery worker processes (Redis broker, PostgreSQL)."""

import base64
import json
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.bots.services import upload_version
from arena.games import services as games
from arena.games.models import Game, GameSeat
from arena.tournaments.models import Tournament
from arena.tournaments.services import TournamentError
from tests.factories import make_builtin, make_tournament, make_user
from tests.integration.platform.tournaments import (
    assert_standings_match_stored_games,
    run_to_the_end,
)
from tests.support.platform import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def entrants(toy_title):
    alice = make_user("alice")
    return alice, [make_builtin(alice, builtin="random") for _ in range(3)]


def test_a_round_robin_runs_to_the_end_on_real_workers(celery_workers, entrants):
    alice, versions = entrants
    tournament = run_to_the_end(make_tournament(alice, versions, seats=2, rounds=2))
    games = Game.objects.filter(tournament=tournament)
    assert games.count() == 6 and not games.exclude(status="finished").exists()
    assert all(g.record and g.record["title"] == "toy" for g in games)
    per_seat = Counter(
        GameSeat.objects.filter(game__tournament=tournament).values_list("bot_version", "seat")
    )
    assert set(per_seat.values()) == {2}  # every entrant twice in each seat
    assert_standings_match_stored_games(tournament)


def test_a_duplicate_tournament_replays_each_table_with_one_seed(celery_workers, entrants):
    alice, versions = entrants
    tournament = run_to_the_end(
        make_tournament(alice, versions, seats=3, format=Tournament.Format.DUPLICATE)
    )
    games = list(Game.objects.filter(tournament=tournament))
    assert len(games) == 3 and len({g.seed for g in games}) == 1
    decks = {g.record["chance"]["code"] for g in games}
    assert len(decks) == 1  # the same cards in every rotation
    assert_standings_match_stored_games(tournament)


def test_a_ladder_plays_its_games_and_closes(celery_workers, entrants):
    alice, versions = entrants
    tournament = run_to_the_end(
        make_tournament(alice, versions, seats=2, format=Tournament.Format.LADDER, ladder_games=7)
    )
    games = Game.objects.filter(tournament=tournament)
    assert games.count() == 7 and not games.exclude(status="finished").exists()
    counts = Counter(
        GameSeat.objects.filter(game__tournament=tournament).values_list("bot_version", flat=True)
    )
    assert max(counts.values()) - min(counts.values()) <= 2  # nobody starves
    assert_standings_match_stored_games(tournament)


def test_a_second_delivery_of_a_played_game_finds_nothing_to_do(celery_workers, entrants):
    """The task a redelivered message runs (here in this process, so that the test knows
    when it ended) claims nothing and changes nothing."""
    alice, versions = entrants
    tournament = run_to_the_end(make_tournament(alice, versions[:2], seats=2))
    game = Game.objects.filter(tournament=tournament).first()
    stored = (game.status, game.attempts, game.worker, game.finished_at, game.record)
    from arena.games.tasks import play_queued_game

    play_queued_game.apply(args=[game.pk]).get()
    game.refresh_from_db()
    assert (game.status, game.attempts, game.worker, game.finished_at, game.record) == stored
    assert_standings_match_stored_games(tournament)  # nothing rated twice


def test_a_long_run_of_messages_goes_out_in_batches_and_every_one_arrives(redis_server):
    """A tournament's start sends dozens of messages in runs of BATCH_MESSAGES (so the
    first games start before the last message is built); none is lost between runs: every
    one is in the broker's queue (a Redis of the test's own, which no worker reads)."""
    from arena.outbox.services import BATCH_MESSAGES, publish

    ids = list(range(10**9, 10**9 + 3 * BATCH_MESSAGES + 3))
    publish("workers.play_game", [[pk] for pk in ids])
    queued = [json.loads(m) for m in redis_server.client().lrange("arena", 0, -1)]
    assert {m["headers"]["task"] for m in queued} == {"workers.play_game"}
    args = [json.loads(base64.b64decode(m["body"]))[0] for m in queued]
    assert sorted(args) == [[pk] for pk in ids]


def test_a_game_held_by_a_lost_worker_is_swept_and_played_again(celery_workers, entrants):
    alice, versions = entrants
    tournament = run_to_the_end(make_tournament(alice, versions[:2], seats=2))
    game = Game.objects.filter(tournament=tournament).last()
    # Pretend a worker claimed it again and died: running, lease expired, result lost.
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.RUNNING, lease_until=timezone.now() - timedelta(seconds=1), rated=True
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    assert games.sweep_games()["requeued"] == 1
    wait_for(lambda: Game.objects.get(pk=game.pk).status == "finished", what="the replay")
    game.refresh_from_db()
    assert game.attempts == 2


def test_workers_whose_database_connections_broke_play_the_next_games_at_once(
    celery_workers, entrants
):
    """Workers skip Django's health check before each task; a connection that broke between
    games (PostgreSQL restarted) must cost a retry on a new one, not a game left queued
    until the sweeper resends it (ARENA_QUEUED_RESEND_SECONDS, 10 minutes)."""
    alice, versions = entrants
    run_to_the_end(make_tournament(alice, versions, seats=2, name="before"))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert cursor.fetchall()  # the workers' kept connections
    # Without the retry each claim on a broken connection would fail and leave its game
    # queued (no sweeper runs here): the tournament would never finish.
    tournament = run_to_the_end(make_tournament(alice, versions, seats=2, name="after"))
    games = Game.objects.filter(tournament=tournament)
    assert set(games.values_list("status", "attempts")) == {("finished", 1)}


CRASHING_BOT = """import sys
sys.stdin.readline()
print("I cannot find my weights file", file=sys.stderr)
raise SystemExit(3)
"""


def test_a_worker_rejects_a_bot_that_crashes_and_tells_its_owner_why(
    celery_workers, toy_title, settings, arena_files
):
    alice = make_user("alice")
    bot = Bot.objects.create(owner=alice, title="toy", name="crasher")
    version = upload_version(bot=bot, filename="bot.py", data=CRASHING_BOT.encode())
    version = wait_for(
        lambda: BotVersion.objects.filter(pk=version.pk, status__in=["ready", "rejected"]).first(),
        what="the worker to validate the upload",
    )
    assert version.status == BotVersion.Status.REJECTED
    assert "crash" in version.reason
    assert "I cannot find my weights file" in version.validation_stderr
    with pytest.raises(TournamentError, match="only ready versions"):
        make_tournament(alice, [version, make_builtin(alice)], seats=2)


def test_a_worker_whose_database_connection_broke_validates_the_next_upload(
    celery_workers, toy_title, entrants
):
    alice, versions = entrants
    run_to_the_end(make_tournament(alice, versions[:2], seats=2, name="before"))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert cursor.fetchall()  # the workers' kept connections
    bot = Bot.objects.create(owner=alice, title="toy", name="after-the-cut")
    version = upload_version(bot=bot, filename="bot.py", data=CRASHING_BOT.encode())
    version = wait_for(
        lambda: BotVersion.objects.filter(pk=version.pk, status__in=["ready", "rejected"]).first(),
        what="the worker to validate the upload",
        timeout=60,
    )
    assert version.status == BotVersion.Status.REJECTED and "crash" in version.reason


def test_a_worker_writes_each_event_once(celery_workers, entrants):
    alice, versions = entrants
    tournament = run_to_the_end(make_tournament(alice, versions[:2], seats=2, name="Log cup"))
    log = celery_workers.log().splitlines()
    for pk in Game.objects.filter(tournament=tournament).values_list("pk", flat=True):
        lines = [line for line in log if "game.stored" in line and f"'game_id': {pk}" in line]
        assert len(lines) == 1, lines
