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
import sys

import history_turns as turns

COSTS = ("python_ms", "postgres_ms", "fold_python_ms", "fold_postgres_ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    turns.size_arguments(parser)
    parser.add_argument("--stores", type=int, default=20, help="games stored a round and size")
    args = parser.parse_args()
    sizes = (args.small, args.large)
    children = turns.start(__file__, args)
    spent = {games: dict.fromkeys(COSTS, 0.0) | {"games": 0, "folded": 0} for games in sizes}
    try:
        for round_ in range(args.rounds):
            for games in sizes if round_ % 2 == 0 else sizes[::-1]:
                _add(spent[games], turns.ask(children[games], str(args.stores)))
    finally:
        turns.stop(children)
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


def _store(line: str, built: dict, state: dict) -> dict:
    """Store and fold as many games as ``line`` says."""
    from bench.history import time_store

    return time_store(built["ladders"]["citadels"], int(line))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        turns.serve(_store)
    else:
        sys.exit(main())
