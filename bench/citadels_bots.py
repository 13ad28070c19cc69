"""Citadels built-in bots against three random bots: win share with Wilson 95 % intervals.

    .venv/bin/python bench/citadels_bots.py [--games 500] [--base]

Each heuristic bot plays ``--games`` four-player games against three ``random`` bots, its seat
rotating from game to game; a shared win counts 1/k. A fair share is 25 %. By default every
Dark City character and district is in play; ``--base`` plays the base game.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.citadels.components import DARK_CITY_CHARACTERS, DARK_CITY_DISTRICTS  # noqa: E402
from engine.core.stats import wilson_interval  # noqa: E402


def win_share(bot: str, games: int, options: dict | None) -> float:
    wins = 0.0
    for game in range(games):
        seat = game % 4
        names = ["random"] * 4
        names[seat] = bot
        winners = engine.play_game("citadels", names, seed=10_000 + game, options=options)
        winners = winners.result()["winners"]
        if seat in winners:
            wins += 1 / len(winners)
    return wins


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--base", action="store_true", help="base game only")
    args = parser.parse_args()
    options = None
    if not args.base:
        options = {
            "dark_city_characters": list(DARK_CITY_CHARACTERS),
            "dark_city_districts": list(DARK_CITY_DISTRICTS),
        }
    print(
        f"{'bot':<12}{'games':>7}{'win share':>11}   95% interval   ({'base' if args.base else 'all Dark City'})"
    )
    for bot in ("builder", "aggressor"):
        wins = win_share(bot, args.games, options)
        low, high = wilson_interval(wins, args.games)
        print(f"{bot:<12}{args.games:>7}{wins / args.games:>10.1%}   {low:.1%}–{high:.1%}")
    print("(a fair share against three random bots is 25%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
