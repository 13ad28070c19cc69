"""CPU of ``store_game_result`` alone, in-process: the worker's Python and its PostgreSQL
backend, per stored game, for one checkout (run it from each tree to compare, alternating).

    .venv/bin/python bench/store_path.py [--title citadels] [--games 60] [--tree PATH]

Needs PostgreSQL on 127.0.0.1: it drops and makes again ``ARENA_BENCH_DATABASE`` (default
``arena_bench_store``), plays ``--games`` 4-player games between built-in bots in-process
(claim, the match runner with its analytics hook) and times only each store: Python with
``time.process_time``, PostgreSQL from the connection's backend in /proc (Linux: its time on
a CPU in ns where the kernel keeps schedstat, else 10 ms ticks, then use 40 games or more). ``--tree`` times another checkout's code (its platform and engine)
with this script, so two trees are measured the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--title", default="citadels")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    root = args.tree.resolve()
    sys.path[:0] = [str(root), str(root / "platform")]
    database = os.environ.get("ARENA_BENCH_DATABASE", "arena_bench_store")
    os.environ["ARENA_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{database}"
    os.environ["ARENA_DEBUG"] = "false"  # as deployed: no statement log
    os.environ.setdefault("ARENA_LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    import psycopg

    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {database}")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    python_s, backend_s, stored = _store_games(args.title, args.games)
    print(
        f"{root}: {args.title}, {stored} games stored: worker Python {1000 * python_s / stored:.2f}"
        f" ms, PostgreSQL backend {1000 * backend_s / stored:.2f} ms per store"
    )


def _store_games(title: str, games: int) -> tuple[float, float, int]:
    from django.contrib.auth import get_user_model

    import engine
    from arena.bots import services as bots
    from arena.bots.models import Bot
    from arena.games.models import Game
    from arena.tournaments import services as tournaments

    owner = get_user_model().objects.create_user("bench")
    try:
        names = engine.bots(title, thinking=False)
    except TypeError:  # a tree from before the search bots: all its bots are quick
        names = engine.bots(title)
    versions = [
        bots.add_builtin_version(
            bot=Bot.objects.create(owner=owner, title=title, name=f"bot-{i}"),
            builtin_name=names[i % len(names)],
        )
        for i in range(4)
    ]
    tournament = tournaments.create_tournament(
        organiser=owner, name="bench", title=title, seats=4, entrants=versions, rounds=games,
        seed=3,
    )  # fmt: skip
    tournaments.start_tournament(tournament.pk)
    queued = Game.objects.filter(tournament=tournament, status="queued").order_by("number")
    return store_timed(queued, games)


def backend_cpu_s() -> float:
    """CPU seconds of this process's PostgreSQL backend so far: the scheduler's time on a
    CPU in ns (/proc/<pid>/schedstat), else user + system in 10 ms ticks. A store costs the
    backend a few ms: counted in ticks, 40 stores' sum moved by a tenth from run to run."""
    from django.db import connection

    connection.ensure_connection()
    process = Path(f"/proc/{connection.connection.info.backend_pid}")
    with contextlib.suppress(OSError):
        return int((process / "schedstat").read_text().split()[0]) / 1e9
    fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def store_timed(queued, most: int) -> tuple[float, float, int]:
    """Claim, play and store up to ``most`` of the ``queued`` games (a queryset, re-read after
    each store: a store may queue the next), in this process; the worker's Python and its
    PostgreSQL backend's CPU spent in the stores, and how many were stored."""

    from arena.games import services

    try:
        from arena.games.tasks import run_job
    except ImportError:  # a tree from before the tasks moved into the Django apps
        from workers.tasks import run_job as run_fields

        def run_job(job):
            return run_fields(
                job.title, job.seats, seed=job.seed, options=job.options, limits=job.limits
            )

    python_s = postgres_s = 0.0
    stored = 0
    while stored < most and (game := queued.first()):
        job = services.claim_game(game.pk, worker="bench")
        played = run_job(job)
        before_backend, before = backend_cpu_s(), time.process_time()
        services.store_game_result(job, played)
        python_s += time.process_time() - before
        postgres_s += backend_cpu_s() - before_backend
        stored += 1
    return python_s, postgres_s, stored


if __name__ == "__main__":
    main()
