"""A Celery pool process SIGKILLed mid-game takes its bots' sandboxes with it: a real worker,
Redis, PostgreSQL and a bot that leaves a daemon in its sandbox."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import pytest

from arena.games.models import Game
from arena.tournaments import services as tournaments
from tests.factories import make_builtin, make_ready_upload, make_tournament, make_user
from tests.support.platform import celery_process, wait_for, worker_command
from tests.support.processes import running
from workers import cgroups

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sandbox]

# A bot that leaves a daemon behind (in its own session where it may) and then thinks for
# ever: its game is still running when its pool process is killed.
DAEMON_BOT = """import json, os, sys, time
if os.fork() == 0:
    try:
        os.setsid()
    except OSError:
        pass
    while True:
        time.sleep(0.1)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif message["type"] == "decide":
        time.sleep(3600)
"""


def sandbox_groups(pool_pid: int) -> list[Path]:
    found = cgroups.support()
    return [
        path
        for parent in set(found.parents.values())
        for path in Path(parent).glob(f"arena-sandbox-{pool_pid}-*")
    ]


def members(groups: list[Path]) -> set[int]:
    pids = set()
    for group in groups:
        with contextlib.suppress(OSError):
            pids.update(int(p) for p in (group / "cgroup.procs").read_text().split())
    return pids


@pytest.mark.skipif(cgroups.support().mode == "none", reason="needs a cgroup for sandboxes")
def test_a_killed_pool_process_leaves_no_sandbox_behind(django_db_setup, arena_files, toy_title):
    with celery_process(arena_files, worker_command("pool-kill@%h", 1), "pool-kill"):
        alice = make_user("alice")
        daemon = make_ready_upload(alice, name="daemon", source=DAEMON_BOT)
        tournament = make_tournament(alice, [daemon, make_builtin(alice)], seats=2, rounds=1)
        tournaments.start_tournament(tournament.pk)
        game = wait_for(
            lambda: Game.objects.filter(tournament=tournament, status="running").first(),
            timeout=60,
            what="the game to start",
        )
        pool = int(game.worker.split(":")[-2])
        # the bot and its daemon are in the sandbox's groups
        wait_for(lambda: len(members(sandbox_groups(pool))) >= 3, timeout=60, what="the bot")
        inside = members(sandbox_groups(pool))
        os.kill(pool, signal.SIGKILL)  # the pool process only: its worker lives on
        wait_for(lambda: sandbox_groups(pool) == [], timeout=30, what="the groups to go")
        assert [pid for pid in inside if running(pid)] == []
