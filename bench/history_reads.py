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
import statistics
import sys

import history_turns as turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    turns.size_arguments(parser)
    parser.add_argument("--repeat", type=int, default=3, help="timings a read, round and size")
    args = parser.parse_args()
    sizes = (args.small, args.large)
    children = turns.start(__file__, args)
    try:
        names = turns.ask(children[args.small], "names")["names"]
        timings = {games: {name: [] for name in names} for games in sizes}
        turn = 0
        for _ in range(args.rounds):
            for name in names:
                for games in sizes if turn % 2 == 0 else sizes[::-1]:
                    answer = turns.ask(children[games], json.dumps([name, args.repeat]))
                    timings[games][name] += answer["ms"]
                turn += 1
    finally:
        turns.stop(children)
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


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _time(line: str, built: dict, state: dict) -> dict:
    """``names``: the reads' names; ``[name, repeat]``: that many uncached timings of the
    read, after one untimed (what the other size's turn may have left cold)."""
    from arena.processes import freeze_web_heap
    from bench.history import read_calls, time_uncached

    if "calls" not in state:
        state["calls"] = read_calls(built)
        # The heap as a web process has it when it serves (arena/wsgi.py): without it, a
        # full collection walking all of Django now and then took 100 ms of some read.
        freeze_web_heap()
    calls = state["calls"]
    if line == "names":
        return {"names": list(calls)}
    name, repeat = json.loads(line)
    calls[name][0]()
    return {"ms": time_uncached(calls[name][0], repeat)}


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        turns.serve(_time)
    else:
        sys.exit(main())
