"""Games per minute with 1 and 2 worker processes on the same tournament, and the platform's
cost per game at p95.

    .venv/bin/python bench/scale.py [--title citadels] [--players 4] [--games N]
                                    [--bots builtin|starter] [--repeat 4]

``--bots builtin`` (the default; 512 games) plays the title's quick built-in bots in the
worker's process: a worker process is then about one core, and the speed-up says how the
platform scales. ``--bots starter`` (64 games) plays the Python starter kit in the sandbox:
its bots run beside the worker process, which then keeps more than one core busy by itself.

Needs PostgreSQL and Redis on 127.0.0.1. It makes (and drops first) the database
``arena_scale`` and uses Redis database 12, so it can run beside bench/platform_path.py,
whose seeding, worker and timing it reuses: the same round robin is played again as a fresh
tournament (same entrants, seed and rounds, so the same games) through a real Celery worker
with ``--concurrency`` 1, then 2, in alternating order over the repetitions (a machine whose
speed drifts favours neither). Each run's worker is started, warmed up on a short tournament,
and timed from starting the tournament to the ``finished_at`` of its last store.

It prints games per minute for each repetition and their medians, the speed-up of two
processes over one (target on this 2-core machine: at least 1.8), and per game, from the
stored rows: the time a worker held the game outside the match runner (claim to store, minus
``match_ms``: loading the game, starting the sandboxes, the claim's and the store's round
trips) at the median and p95, and the wait between queued and claimed. On a shared machine
the speed-up is bounded by what the other work leaves free; the load average is printed.
It also prints how many cores the whole machine kept busy during each run: one worker process
keeps more than one core busy (its bots and their sandboxes run beside it), which bounds the
speed-up two processes can show on two cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import platform_path as shared  # noqa: E402  (sets the settings' environment first)

shared.DATABASE = "arena_scale"
os.environ["ARENA_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{shared.DATABASE}"
os.environ["ARENA_BROKER_URL"] = "redis://127.0.0.1:6379/12"
PROCESSES = (1, 2)


def main() -> int:
    args = _parser().parse_args()
    args.games = args.games or (512 if args.bots == "builtin" else 64)
    shared._fresh_database()
    import django

    django.setup()
    import redis
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(os.environ["ARENA_BROKER_URL"]).flushdb()
    tournament, jobs = shared._seed(args)
    print(
        f"{len(jobs)} games of {args.title}, {args.players} seats, {args.bots} bots; worker "
        f"processes {' and '.join(map(str, PROCESSES))}, {args.repeat} alternating repetitions"
    )
    rates: dict[int, list[float]] = {n: [] for n in PROCESSES}
    outside: dict[int, list[float]] = {n: [] for n in PROCESSES}
    waits: dict[int, list[float]] = {n: [] for n in PROCESSES}
    cores: dict[int, list[float]] = {n: [] for n in PROCESSES}
    for rep in range(args.repeat):
        for processes in PROCESSES if rep % 2 == 0 else reversed(PROCESSES):
            copy, seconds, busy = _timed_run(tournament, processes, f"{processes}p-{rep}")
            rates[processes].append(60 * len(jobs) / seconds)
            cores[processes].append(busy)
            held, waited = _per_game_ms(copy)
            outside[processes] += held
            waits[processes] += waited
            print(
                f"  repetition {rep + 1}, {processes} process(es): {seconds:6.2f} s, "
                f"{rates[processes][-1]:6.1f} games/min, {busy:.2f} cores busy "
                f"(load {os.getloadavg()[0]:.1f})"
            )
    one, two = (statistics.median(rates[n]) for n in PROCESSES)
    pairs = sorted(b / a for a, b in zip(rates[1], rates[2], strict=True))
    print(f"1 worker process:  {one:7.1f} games/min (median)")
    print(f"2 worker processes: {two:7.1f} games/min (median)")
    print(
        f"speed-up: {two / one:.2f}x (repetitions from {pairs[0]:.2f} to {pairs[-1]:.2f}; "
        "target >= 1.8x)"
    )
    # One worker process is not one core: its bots run beside it, four sandboxes start at once,
    # PostgreSQL stores. What one process keeps busy bounds what two can add on this machine.
    single = statistics.median(cores[1])
    print(
        f"cores busy machine-wide: {single:.2f} with 1 process, "
        f"{statistics.median(cores[2]):.2f} with 2 (of {os.cpu_count()}), so 2 processes can "
        f"reach at most {os.cpu_count() / single:.2f}x here"
    )
    for n in PROCESSES:
        print(
            f"per game with {n} process(es): held outside the match runner "
            f"{statistics.median(outside[n]):.0f} ms median, {_p95(outside[n]):.0f} ms p95; "
            f"queued to claimed {statistics.median(waits[n]):.0f} ms median, "
            f"{_p95(waits[n]):.0f} ms p95"
        )
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared?)")
    return 0


def _timed_run(tournament, processes: int, label: str):
    with shared._worker(processes) as worker:
        warm_up = shared._copy_tournament(tournament, f"warm {label}", rounds=1)
        shared._through_platform(warm_up, worker)
        copy = shared._copy_tournament(tournament, label)
        before = _cpu_jiffies()
        seconds = shared._through_platform(copy, worker)
        after = _cpu_jiffies()
        busy, total = (a - b for a, b in zip(after, before, strict=True))
        return copy, seconds, os.cpu_count() * busy / total


def _cpu_jiffies() -> tuple[int, int]:
    """Busy and total CPU time of the whole machine so far, from /proc/stat (all processes,
    the bots', the sandboxes' and PostgreSQL's included)."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields[:8]) - idle, sum(fields[:8])


def _per_game_ms(tournament) -> tuple[list[float], list[float]]:
    """Per finished game: ms held by a worker outside the match runner, ms queued."""
    held, waited = [], []
    for game in tournament.games.filter(status="finished"):
        held.append((game.finished_at - game.started_at).total_seconds() * 1000 - game.match_ms)
        if game.queued_at:
            waited.append((game.started_at - game.queued_at).total_seconds() * 1000)
    return held, waited


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def _parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", default="citadels")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, help="default: 512 builtin, 64 starter")
    parser.add_argument("--bots", choices=["builtin", "starter"], default="builtin")
    parser.add_argument("--repeat", type=int, default=4)
    return parser


if __name__ == "__main__":
    (shared.ROOT / "var" / "bench").mkdir(parents=True, exist_ok=True)
    sys.exit(main())
