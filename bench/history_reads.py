"""Every read of bench/history.py at two history sizes, taking turns in one run: "every read
within 2x of the same read at 10 k" of issue 25, measured so that the machine's drift
weighs on both sizes alike.

    .venv/bin/python bench/history_reads.py [--small 10000] [--large 1000000] [--rounds 10]
                                            [--repeat 3] [--database NAME]

Needs the two databases a ``bench/history.py --keep`` run of each size built (the same
``--database``; their ladders are kept in ``var/bench/``). bench/history.py times every
read at one size and compares it with a 10 k run kept from before: on this shared machine
the same read's p95 moved by half between two such runs minutes apart. Here one process per
database waits for its turn; each round, for each read, each times it ``--repeat`` times
uncached (the site's cache cleared before each: ``bench.history.time_uncached``) after one
untimed read (the two databases share PostgreSQL's buffers: the other's turn may have left
this one's pages cold, which bench/history.py's timings one after another do not see), the
order of the two sizes alternating from read to read and round to round. It prints each read's
p95 and median at both sizes over all rounds and their ratios. Its last line:

    reads: <large> games, slowest p95 <ms> ms (<read>), most <ratio>x of <small> by p95 (<read>)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgres://postgres@127.0.0.1:5432"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="timings a read, round and size")
    parser.add_argument("--database", help="as bench/history.py's --database")
    args = parser.parse_args()
    own = os.environ.get("ARENA_DATABASE_URL", "").rsplit("/", 1)[-1] or "arena"
    prefix = args.database or own + "_history_bench"
    sizes = (args.small, args.large)
    children = {games: _start(f"{prefix}_{games}") for games in sizes}
    try:
        names = _ask(children[args.small], "names")["names"]
        timings = {games: {name: [] for name in names} for games in sizes}
        turn = 0
        for _ in range(args.rounds):
            for name in names:
                for games in sizes if turn % 2 == 0 else sizes[::-1]:
                    answer = _ask(children[games], json.dumps([name, args.repeat]))
                    timings[games][name] += answer["ms"]
                turn += 1
    finally:
        for child in children.values():
            child.stdin.close()
            child.wait()
    small, large = args.small, args.large
    print(f"{'read':<44} {'p95 ' + _short(small):>10} {_short(large):>9} {'ratio':>6}"
          f" {'median ' + _short(small):>12} {_short(large):>9} {'ratio':>6}")  # fmt: skip
    ratios, slowest = {}, {}
    for name in names:
        a, b = timings[small][name], timings[large][name]
        p95 = (_p95(a), _p95(b))
        median = (statistics.median(a), statistics.median(b))
        ratios[name], slowest[name] = p95[1] / p95[0], p95[1]
        print(f"{name:<44} {p95[0]:8.1f} ms {p95[1]:6.1f} ms {ratios[name]:5.2f}x"
              f" {median[0]:9.1f} ms {median[1]:6.1f} ms {median[1] / median[0]:5.2f}x")  # fmt: skip
    timed = len(timings[small][names[0]])
    print(f"({args.rounds} rounds, {timed} uncached timings of each read at each size)")
    worst, most = max(slowest, key=slowest.get), max(ratios, key=ratios.get)
    print(f"reads: {large} games, slowest p95 {slowest[worst]:.1f} ms ({worst}), "
          f"most {ratios[most]:.2f}x of {small} by p95 ({most})")  # fmt: skip
    return 0


def _short(games: int) -> str:
    return f"{games // 1_000_000} M" if games % 1_000_000 == 0 else f"{games // 1000} k"


def _ask(child: subprocess.Popen, line: str) -> dict:
    child.stdin.write(line + "\n")
    child.stdin.flush()
    answer = child.stdout.readline()
    if not answer:
        raise SystemExit("a database's process ended (see its error above)")
    return json.loads(answer)


def _start(database: str) -> subprocess.Popen:
    built = ROOT / "var" / "bench" / f"history-built-{database}.json"
    if not built.exists():
        raise SystemExit(f"no kept build of {database} ({built}): bench/history.py --keep first")
    env = {
        **os.environ, "ARENA_DATABASE_URL": f"{SERVER}/{database}", "ARENA_DEBUG": "false",
        "ARENA_LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "arena.settings",
    }  # fmt: skip
    return subprocess.Popen(
        [sys.executable, __file__, "--child", str(built)],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _child(built: Path) -> None:
    """Answer ``names`` with the reads' names, and each ``[name, repeat]`` with that many
    uncached timings of the read, a line of JSON each."""
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    import django

    django.setup()
    from bench.history import read_calls, time_uncached

    calls = read_calls(json.loads(built.read_text()))
    for line in sys.stdin:
        if line.strip() == "names":
            print(json.dumps({"names": list(calls)}), flush=True)
            continue
        name, repeat = json.loads(line)
        calls[name][0]()  # a first read, untimed: what the other size's turn left cold
        print(json.dumps({"ms": time_uncached(calls[name][0], repeat)}), flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(Path(sys.argv[2]))
    else:
        sys.exit(main())
