"""The store's and the beat's fold's cost per game at two history sizes, taking turns in one
run: the "store within 10 %" of issue 25, measured so that the machine's drift weighs on
both sizes alike.

    .venv/bin/python bench/history_store.py [--small 10000] [--large 1000000] [--rounds 10]
                                            [--stores 20] [--database NAME]

Needs the two databases a ``bench/history.py --keep`` run of each size built (the same
``--database``; their ladders are kept in ``var/bench/``). bench/history.py times the
store at one size and compares it with a 10 k run kept from before, minutes or hours
earlier: on a shared machine the worker's own Python, which reads nothing of the history,
moved by a fifth between two such runs. Here one process per database waits for its turn;
each round, each stores ``--stores`` games of its Citadels ladder and folds them as the beat
does (``bench.history.time_store``), the order of the two alternating from round to round.
It prints each size's worker Python and PostgreSQL backend CPU per game over all rounds,
the same for the fold, and the ratios. Its last line:

    store: <large> games <ratio>x of <small>, fold <ratio>x (<rounds> rounds of <stores> games)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgres://postgres@127.0.0.1:5432"
COSTS = ("python_ms", "postgres_ms", "fold_python_ms", "fold_postgres_ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--stores", type=int, default=20, help="games stored a round and size")
    parser.add_argument("--database", help="as bench/history.py's --database")
    args = parser.parse_args()
    own = os.environ.get("ARENA_DATABASE_URL", "").rsplit("/", 1)[-1] or "arena"
    prefix = args.database or own + "_history_bench"
    sizes = (args.small, args.large)
    children = {games: _start(f"{prefix}_{games}") for games in sizes}
    spent = {games: dict.fromkeys(COSTS, 0.0) | {"games": 0, "folded": 0} for games in sizes}
    try:
        for round_ in range(args.rounds):
            for games in sizes if round_ % 2 == 0 else sizes[::-1]:
                child = children[games]
                child.stdin.write(f"{args.stores}\n")
                child.stdin.flush()
                line = child.stdout.readline()
                if not line:
                    raise SystemExit(f"the {games} games' process ended (see its error above)")
                _add(spent[games], json.loads(line))
    finally:
        for child in children.values():
            child.stdin.close()
            child.wait()
    per_game = {games: _per_game(spent[games]) for games in sizes}
    for games in sizes:
        cost = per_game[games]
        print(f"{games:>9} games: store {cost['python_ms']:.2f} + {cost['postgres_ms']:.2f} ms, "
              f"fold {cost['fold_python_ms']:.2f} + {cost['fold_postgres_ms']:.2f} ms a game "
              f"({spent[games]['games']} stored, {spent[games]['folded']} folded)")  # fmt: skip
    small, large = per_game[args.small], per_game[args.large]
    store = (large["python_ms"] + large["postgres_ms"]) / (
        small["python_ms"] + small["postgres_ms"]
    )
    fold = (large["fold_python_ms"] + large["fold_postgres_ms"]) / (
        small["fold_python_ms"] + small["fold_postgres_ms"]
    )
    print(f"store: {args.large} games {store:.2f}x of {args.small}, fold {fold:.2f}x "
          f"({args.rounds} rounds of {args.stores} games)")  # fmt: skip
    return 0


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


def _add(total: dict, round_: dict) -> None:
    """Add one round's costs (per game) to the sums of all rounds (per all games)."""
    total["games"] += round_["games"]
    total["folded"] += round_["folded"]
    for cost in COSTS:
        count = round_["folded" if cost.startswith("fold") else "games"]
        total[cost] += round_[cost] * count


def _per_game(total: dict) -> dict:
    return {
        cost: total[cost] / max(1, total["folded" if cost.startswith("fold") else "games"])
        for cost in COSTS
    }


def _child(built: Path) -> None:
    """Store and fold as many games as each line of stdin says; a line of JSON for each."""
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    import django

    django.setup()
    from bench.history import time_store

    ladder = json.loads(built.read_text())["ladders"]["citadels"]
    for line in sys.stdin:
        print(json.dumps(time_store(ladder, int(line))), flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(Path(sys.argv[2]))
    else:
        sys.exit(main())
