"""Games per minute through the whole platform path against the match runner alone.

    .venv/bin/python bench/platform_path.py [--title citadels] [--players 4] [--games 128]
                                       [--bots starter|builtin] [--workers 2] [--repeat 8]
                                       [--baseline PATH [--pairs 2]]

Needs PostgreSQL and Redis on 127.0.0.1 (as the tests do). It creates the database
``arena_bench`` (dropped and made again each run; ``ARENA_BENCH_DATABASE`` names another)
and uses Redis database 13 (``ARENA_BENCH_REDIS_DB``), seeds bots, then:

1. runs the tournament's games with ``workers.match.run_match`` in ``--workers`` parallel
   processes (the runner alone: no database, no broker);
2. runs the same games (same seeds, same seating) through the platform: start the tournament,
   ``--workers`` Celery worker processes claim, play in the sandbox, store and rate them.

Both sides are warmed up first (processes forked, sandbox zygotes started, the worker's
connection and prepared statements made), keep their processes across repetitions, and
freeze their start-up heap for the garbage collector the same way. The platform's time runs
from starting the tournament to the ``finished_at`` its last store records, so the bench's
own polling (every 0.25 s) neither rounds the figure nor takes CPU from the workers. The
worker runs with ARENA_DEBUG off, as deployed (with it on, Django records every statement).

It prints both rates and the platform's overhead as a share of game time (target: at most
10 % for 4-player Citadels between sandboxed starter-kit bots): the median of the
repetitions' ratios, each from a pair run back to back, and their range. The side that
goes first alternates (eight repetitions by default: each side first four times), so a
machine that slows down or speeds up over the run favours neither. The default of 128
games amortises the fixed ramp of a run (creating and sending the games, the first
delivery, the last game of the slower process).

The machine may be shared, so beside the wall-clock ratio it prints CPU time per game read
from /proc (Linux): the runner processes on their own, and on the platform Celery's parent
process, its pool processes, the PostgreSQL backends of the bench database and Redis
(which serves the whole machine, so other work's commands count there too). CPU time is
what a platform step takes from the games on a busy machine, and it moves much less than
wall time when other work runs beside the bench. The bots' own processes are in neither
figure. Each repetition's line shows the platform's CPU per game beyond the runner alone's
and the whole machine's for both sides, so a ratio that moved with the machine's speed
can be told from one that moved with the platform's cost.

With ``--baseline PATH`` (another checkout, with its own ``.venv``) it compares the two
trees in one run: ``--pairs`` times, the bench of each tree runs as a child with the same
arguments (baseline first in odd pairs, this tree first in even ones, so a drift of the
machine favours neither), one after the other on the same database, and it prints each
child's figures, their medians and this tree's against the baseline's.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Both may be moved, so that the bench does not share a database or a Redis database with
# another checkout's tests or bench on the same machine (whose workers would take its games).
DATABASE = os.environ.get("ARENA_BENCH_DATABASE", "arena_bench")
REDIS_DB = int(os.environ.get("ARENA_BENCH_REDIS_DB", "13"))
os.environ["ARENA_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
os.environ["ARENA_BROKER_URL"] = f"redis://127.0.0.1:6379/{REDIS_DB}"
os.environ.setdefault("ARENA_MEDIA_ROOT", str(ROOT / "var" / "bench" / "media"))
os.environ.setdefault("ARENA_BOT_CACHE", str(ROOT / "var" / "bench" / "bot-cache"))
os.environ.setdefault("ARENA_LOG_LEVEL", "WARNING")
# As deployed: with ARENA_DEBUG on (the development default) Django records every statement
# a worker runs, which costs it CPU per game that no production worker spends.
os.environ["ARENA_DEBUG"] = "false"
os.environ.setdefault("ARENA_SECRET_KEY", secrets.token_urlsafe(50))
os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings"
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]


def main() -> int:
    args = _parser().parse_args()
    if args.baseline:
        return _compare(args)
    _fresh_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(os.environ["ARENA_BROKER_URL"]).flushdb()
    tournament, jobs = _seed(args)
    print(
        f"{len(jobs)} games of {args.title}, {args.players} seats, {args.bots} bots, "
        f"{args.workers} worker processes, sandbox {os.environ.get('ARENA_SANDBOX', 'bwrap')}, "
        f"{args.repeat} alternating repetitions (the machine's load drifts; medians are shown)"
    )
    alone, platform, cpu_alone, cpu_platform = [], [], [], []
    outside_alone, outside_platform = [], []  # per game and process, beside the match
    busy = []  # per repetition, the machine's busy CPU seconds: runner alone, platform
    with _worker(args.workers) as worker, _runner_pool(args.workers) as pool:
        # Both sides warm before any clock starts: processes forked, sandbox zygotes
        # started, the worker's connection and prepared statements made.
        _runner_alone(pool, jobs[: 4 * args.workers])
        _through_platform(_copy_tournament(tournament, "warm-up", rounds=2), worker)
        for rep in range(args.repeat):
            # Alternating which side goes first cancels a steady drift of the machine's
            # speed over the run, which would otherwise always favour one side.
            if rep % 2 == 0:
                machine_alone, runner_s = _time_alone(pool, jobs, alone)
                machine_platform, copy, cpu = _time_platform(tournament, rep, worker, platform)
            else:
                machine_platform, copy, cpu = _time_platform(tournament, rep, worker, platform)
                machine_alone, runner_s = _time_alone(pool, jobs, alone)
            cpu_alone.append(1000 * runner_s / len(jobs))
            match_alone = statistics.mean(RUNNER_MATCH_MS[-len(jobs) :])
            outside_alone.append(_per_game_ms(alone[-1], args.workers, len(jobs)) - match_alone)
            cpu_platform.append({k: 1000 * v / len(jobs) for k, v in cpu.items()})
            outside_platform.append(
                _per_game_ms(platform[-1], args.workers, len(jobs)) - _match_ms(copy)
            )
            print(
                f"  repetition {rep + 1}: runner alone {alone[-1]:6.2f} s, "
                f"whole platform {platform[-1]:6.2f} s: {_overhead(alone[-1], platform[-1])} "
                f"(match {match_alone:.0f} / {_match_ms(copy):.0f} ms per game; the "
                f"platform's CPU {sum(cpu_platform[-1].values()) - cpu_alone[-1]:+.1f} ms per "
                f"game, the machine's {_busy_ms(machine_alone, len(jobs)):.0f} / "
                f"{_busy_ms(machine_platform, len(jobs)):.0f} ms; "
                f"load {os.getloadavg()[0]:.1f}; CPU stolen by the host "
                f"{machine_alone.stolen:.0%} / {machine_platform.stolen:.0%})"
            )
            busy.append((machine_alone.busy_s, machine_platform.busy_s))
    a, p = statistics.median(alone), statistics.median(platform)
    print(f"runner alone:   {a:7.2f} s  {60 * len(jobs) / a:7.1f} games/min (median)")
    print(f"whole platform: {p:7.2f} s  {60 * len(jobs) / p:7.1f} games/min (median)")
    # Each repetition's pair ran back to back, so its ratio is what the machine's drift
    # (other work, its speed changing over minutes) disturbs least.
    ratios = sorted(100 * (q - r) / r for r, q in zip(alone, platform, strict=True))
    print(
        f"platform overhead: {statistics.median(ratios):+.1f} % of game time, median of the "
        f"repetitions (from {ratios[0]:+.1f} to {ratios[-1]:+.1f} %; target <= 10 %)"
    )
    # Per repetition, so that a slow repetition's games are set against their own match time.
    print(
        f"per game and worker process, outside the match runner (median): "
        f"{statistics.median(outside_platform):.0f} ms on the platform (claim, store, rate, "
        f"broker), {statistics.median(outside_alone):.0f} ms for the runner alone; a game "
        f"spends {statistics.median(RUNNER_MATCH_MS):.0f} ms in the match runner (median)"
    )
    if busy[0][0]:
        # Throughput where every core is kept busy (enough worker processes per core) is set
        # by CPU per game, which the host's steal and idle waits leave out.
        shares = sorted(100 * (q - r) / r for r, q in busy)
        runner_ms = 1000 * statistics.median(r for r, _ in busy) / len(jobs)
        platform_ms = 1000 * statistics.median(q for _, q in busy) / len(jobs)
        print(
            f"whole machine's CPU per game: runner alone {runner_ms:.0f} ms, "
            f"platform {platform_ms:.0f} ms: "
            f"{statistics.median(shares):+.1f} % (median of the repetitions, from "
            f"{shares[0]:+.1f} to {shares[-1]:+.1f} %)"
        )
    if cpu_platform[0]:
        parts = {k: statistics.median(c[k] for c in cpu_platform) for k in cpu_platform[0]}
        runner = statistics.median(cpu_alone)
        print(
            f"CPU per game (median): runner alone {runner:.1f} ms; on the platform "
            + ", ".join(f"{k} {v:.1f} ms" for k, v in parts.items())
            + f": {sum(parts.values()) - runner:.1f} ms more than the runner alone"
        )
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


def _busy_ms(machine, games: int) -> float:
    """The machine's busy CPU per game in one side of a repetition (0 without /proc)."""
    return 1000 * machine.busy_s / games


def _time_alone(pool, jobs, alone: list):
    """One repetition of the runner alone: its seconds go to ``alone``; the machine's CPU,
    and the CPU seconds of the runner's processes (whole processes, as the worker's pool is
    counted: the executor's own work with each game included)."""
    pids = list(pool._processes)  # the executor's processes, forked by the warm-up
    before = sum(_cpu_s(pid) for pid in pids)
    with _machine_cpu() as machine:
        alone.append(_runner_alone(pool, jobs))
    return machine, sum(_cpu_s(pid) for pid in pids) - before


def _time_platform(tournament, rep, worker, platform: list):
    """One repetition through the platform, on a fresh copy of the tournament: its seconds
    go to ``platform``; the machine's CPU, the copy, and the CPU seconds of its parts."""
    copy = _copy_tournament(tournament, rep)
    before = _platform_cpu(worker)
    with _machine_cpu() as machine:
        platform.append(_through_platform(copy, worker))
    after = _platform_cpu(worker)
    return machine, copy, {k: after[k] - before[k] for k in after}


class _MachineCPU:
    stolen = 0.0  # share of the machine's CPU time the hypervisor gave to other guests
    busy_s = 0.0  # CPU seconds spent on this machine's processes, all of them


@contextlib.contextmanager
def _machine_cpu():
    """What the whole machine's CPUs did while the block ran, from /proc/stat (zeros where
    it is not there). ``stolen`` is its ``steal`` column: on a shared virtual machine it
    moves from second to second and takes its share of every process's time. ``busy_s``
    counts user, nice, system, irq and softirq time (not idle, I/O wait or steal): every
    process's, the bots', PostgreSQL's and Redis's included."""
    machine = _MachineCPU()
    before = _cpu_jiffies()
    yield machine
    after = _cpu_jiffies()
    delta = [a - b for a, b in zip(after, before, strict=True)]
    if len(delta) > 7 and sum(delta) > 0:
        machine.stolen = delta[7] / sum(delta)
        machine.busy_s = sum(delta[i] for i in (0, 1, 2, 5, 6)) / os.sysconf("SC_CLK_TCK")


def _cpu_jiffies() -> list[int]:
    try:
        return [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except FileNotFoundError:
        return []


def _overhead(alone: float, platform: float) -> str:
    return f"{100 * (platform - alone) / alone:+.1f} %"


def _parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", default="citadels")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=128)
    parser.add_argument("--bots", choices=["starter", "builtin"], default="starter")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=8)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--pairs", type=int, default=2, help="with --baseline: runs of each")
    return parser


# What a child's summary says (see main): the figures --baseline compares.
FIGURES = {
    "overhead %": re.compile(r"^platform overhead: ([+-][\d.]+) %", re.M),
    "runner alone CPU ms": re.compile(r"^CPU per game \(median\): runner alone ([\d.]+) ms", re.M),
    "PostgreSQL CPU ms": re.compile(r"^CPU per game \(median\):.*PostgreSQL ([\d.]+) ms", re.M),
    "platform CPU beyond the runner ms": re.compile(r"([\d.-]+) ms more than the runner alone"),
}


def _compare(args) -> int:
    """This tree's bench against ``args.baseline``'s, alternating (see the docstring)."""
    trees = {"baseline": args.baseline.resolve(), "this tree": ROOT}
    passed = [
        f"--{name}={getattr(args, name)}"
        for name in ("title", "players", "games", "bots", "workers", "repeat")
    ]
    found: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for pair in range(args.pairs):
        order = list(trees) if pair % 2 == 0 else list(trees)[::-1]
        for name in order:
            tree = trees[name]
            python = tree / ".venv" / "bin" / "python"
            child = subprocess.run(
                [str(python if python.exists() else sys.executable),
                 str(tree / "bench" / "platform_path.py"), *passed],
                cwd=tree, capture_output=True, text=True,
            )  # fmt: skip
            if child.returncode:
                print(child.stdout, child.stderr, sep="\n")
                raise SystemExit(f"the bench of {tree} failed")
            figures = {
                k: float(m.group(1)) for k, r in FIGURES.items() if (m := r.search(child.stdout))
            }
            found[name].append(figures)
            print(f"pair {pair + 1}, {name} ({tree}): " + ", ".join(
                f"{k} {v:+.1f}" if k.endswith("%") else f"{k} {v:.1f}" for k, v in figures.items()
            ))  # fmt: skip
    print(
        f"{'median of ' + str(args.pairs) + ' runs':<36}{'baseline':>10}{'this tree':>11}{'ratio':>8}"
    )
    for figure in FIGURES:
        base = statistics.median(f[figure] for f in found["baseline"])
        this = statistics.median(f[figure] for f in found["this tree"])
        ratio = f"{this / base:.2f}x" if base and not figure.endswith("%") else ""
        print(f"{figure:<36}{base:>10.1f}{this:>11.1f}{ratio:>8}")
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


def _fresh_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {DATABASE}")


def _seed(args):
    """A draft round robin with enough rounds for ``--games``, and each game's match job."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    import engine
    from arena.bots import services as bots
    from arena.bots.models import Bot
    from arena.games.services import MatchJob
    from arena.tournaments import scheduling, services
    from arena.web.kits import find_kit, kit_zip

    owner = get_user_model().objects.create_user("bench")
    versions = []
    for i in range(args.players):
        bot = Bot.objects.create(owner=owner, title=args.title, name=f"bot-{i}")
        if args.bots == "builtin":
            names = engine.bots(args.title, thinking=False)
            versions.append(bots.add_builtin_version(bot=bot, builtin_name=names[i % len(names)]))
            continue
        kit = kit_zip(find_kit(f"{args.title}-python"))
        version = bots.upload_version(
            bot=bot, filename="kit.zip", data=kit if i == 0 else _variant(kit, i)
        )
        version = bots.validate_version(version.pk)
        if version.status != "ready":
            raise SystemExit(
                f"the starter kit was rejected: {version.reason}\n{version.validation_stderr}"
            )
        versions.append(version)
    rounds = max(1, -(-args.games // len(versions)))
    tournament = services.create_tournament(
        organiser=owner, name="bench", title=args.title, seats=args.players, entrants=versions,
        rounds=rounds, seed=11,
    )  # fmt: skip
    plans = [bots.seat_spec(v) for v in versions]
    limits = settings.ARENA_BOT_LIMITS.replace(
        decision_ms=tournament.decision_ms, bank_ms=tournament.bank_ms
    )
    jobs = [
        MatchJob(0, args.title, [plans[e] for e in g.seating], g.seed, tournament.options, limits)
        for g in scheduling.round_robin(len(versions), args.players, rounds, tournament.seed)
    ]
    return tournament, jobs


def _variant(zip_data: bytes, i: int) -> bytes:
    """The same kit with a comment appended, so each seat is its own bot version."""
    import io
    import zipfile

    source = zipfile.ZipFile(io.BytesIO(zip_data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            archive.writestr(info, source.read(info))
        # beside the kit's files, in its one top-level folder (an upload's zip has one)
        top = source.namelist()[0].split("/", 1)[0]
        archive.writestr(f"{top}/VARIANT", f"copy {i}\n")
    return out.getvalue()


def _play(job) -> int:
    from arena.games.tasks import run_job

    played = run_job(job)
    return played.match_ms


@contextlib.contextmanager
def _runner_pool(workers: int):
    """The runner alone's processes, kept for every repetition as the Celery pool keeps its
    own, and set up as a Celery pool process is (see :func:`_runner_process_init`)."""
    with ProcessPoolExecutor(workers, initializer=_runner_process_init) as pool:
        yield pool


def _runner_process_init() -> None:
    """A session of its own, as the Celery worker has (started with ``start_new_session``,
    as a service manager starts one): Linux schedules each session as one group
    (``sched_autogroup``), and runner processes left in the bench's session shared a group
    with the bench's own threads, which slowed their games 5-10 % against the worker's and
    flattered the platform. And the heap frozen as in a pool process (arena/worker.py)."""
    os.setsid()
    gc.freeze()


def _runner_alone(pool, jobs) -> float:
    started = time.perf_counter()
    RUNNER_MATCH_MS.extend(pool.map(_play, jobs))
    return time.perf_counter() - started


RUNNER_MATCH_MS: list[int] = []  # each game's time in run_match when run by the runner alone


def _platform_cpu(worker) -> dict[str, float]:
    """CPU seconds so far of the worker's processes, PostgreSQL and Redis; empty where /proc
    is not there. PostgreSQL's: the bench database's backends but the bench's own, plus every
    backend its postmaster has reaped (a worker drops its connection after
    ARENA_DB_CONN_MAX_AGE and opens another, and the closed one's time would be lost)."""
    from django.db import connection

    if not Path("/proc/self/stat").exists():
        return {}
    pool = subprocess.run(["pgrep", "-P", str(worker.pid)], capture_output=True, text=True)
    redis_pids = subprocess.run(["pgrep", "-x", "redis-server"], capture_output=True, text=True)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        backends = [pid for (pid,) in cursor.fetchall()]
    return {
        "worker parent": _cpu_s(worker.pid),
        "worker pool": sum(_cpu_s(pid) for pid in map(int, pool.stdout.split())),
        "PostgreSQL": sum(_cpu_s(pid) for pid in backends) + _reaped_cpu_s(_parent(backends)),
        "Redis": sum(_cpu_s(int(pid)) for pid in redis_pids.stdout.split()),
    }


def _cpu_s(pid: int) -> float:
    """User and system CPU seconds of one process (0 if it is gone)."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if fields else 0.0


def _reaped_cpu_s(pid: int | None) -> float:
    """User and system CPU seconds of the children a process has waited for."""
    fields = _stat(pid) if pid else None
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK") if fields else 0.0


def _parent(pids: list[int]) -> int | None:
    """The parent of the first of ``pids`` still there (a backend's: the postmaster)."""
    for pid in pids:
        fields = _stat(pid)
        if fields:
            return int(fields[1])
    return None


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (None if it is gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


@contextlib.contextmanager
def _worker(workers: int):
    from arena.processes import celery_env

    log = open(ROOT / "var" / "bench" / "worker.log", "wb")  # noqa: SIM115
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "arena", "worker", "--concurrency",
         str(workers), "--loglevel", "INFO", "--without-gossip", "--without-mingle",
         "--without-heartbeat"],
        cwd=ROOT, env=celery_env(), stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    try:
        time.sleep(5)  # let the worker connect before any clock starts
        yield worker
    finally:
        worker.send_signal(signal.SIGTERM)  # warm shutdown; Celery stops its own pool
        worker.wait(timeout=30)


def _copy_tournament(tournament, rep, *, rounds: int | None = None):
    """A fresh draft with the same entrants, seed and rounds: the same games again."""
    from arena.tournaments import services

    return services.create_tournament(
        organiser=tournament.organiser, name=f"bench {rep}", title=tournament.title,
        seats=tournament.seats, rounds=rounds or tournament.rounds, seed=tournament.seed,
        entrants=[e.bot_version for e in tournament.entries.order_by("id")],
    )  # fmt: skip


def _through_platform(tournament, worker) -> float:
    """Seconds from starting the tournament to its end as the platform recorded it (the
    last store sets ``finished_at``), so the bench's own polling, slow and cheap, neither
    rounds the figure nor takes much CPU from the workers it times."""
    from django.db import connection
    from django.utils import timezone

    from arena.games.models import Game
    from arena.tournaments import services
    from arena.tournaments.models import Tournament

    done_sql = f"SELECT finished_at FROM {Tournament._meta.db_table} WHERE id = %s"
    started = timezone.now()
    services.start_tournament(tournament.pk)
    with connection.cursor() as cursor:
        while True:
            time.sleep(0.25)
            cursor.execute(done_sql, [tournament.pk])
            (finished_at,) = cursor.fetchone()
            if finished_at is not None:
                break
            if worker.poll() is not None:
                raise SystemExit("the worker exited; see var/bench/worker.log")
    failed = Game.objects.filter(tournament=tournament).exclude(status="finished").count()
    if failed:
        print(f"warning: {failed} games did not finish; see var/bench/worker.log")
    return (finished_at - started).total_seconds()


def _per_game_ms(seconds: float, workers: int, games: int) -> float:
    """Wall time per game and process: what each of ``workers`` processes spent per game."""
    return 1000 * seconds * workers / games


def _match_ms(tournament) -> float:
    """Mean time the tournament's games spent in the match runner (measured by the worker)."""
    from django.db.models import Avg

    return tournament.games.aggregate(ms=Avg("match_ms"))["ms"]


if __name__ == "__main__":
    (ROOT / "var" / "bench").mkdir(parents=True, exist_ok=True)
    sys.exit(main())
