"""House bots against their yardsticks: win shares with Wilson 95 % intervals, cost per decision.

    .venv/bin/python bench/bots.py --title citadels|praga|all [--games N] [--iterations N]
        [--seconds S] [--seed N]

Citadels (``citadels_*``), all Dark City characters and districts on, four players, the
measured bot's seat rotating from game to game, a shared win counting 1/k (a fair share is
25 %): ``builder`` and ``aggressor`` against three ``random`` bots (``--heuristic-games``,
500 by default; formerly ``bench/citadels_bots.py``), then ``search`` against three
``builder`` bots (target: >= 45 %), with its CPU time per searched decision.

``--iterations`` is the search budget per decision (playouts), the source of the moves;
``--seconds`` caps a search's wall time (default: no cap, so the figures replay exactly; the
bots' default is 1 s, and searches it cut short are counted). On a shared machine use a
smaller ``--iterations`` and say so: the figure printed names the budget it was measured at.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.core.play import play_out  # noqa: E402
from engine.core.rng import derive_seed  # noqa: E402
from engine.core.stats import wilson_interval  # noqa: E402

# -- the shared harness -------------------------------------------------------------------


def share_line(label: str, wins: float, games: int) -> str:
    """``label  games  share  low–high``: a win share with its Wilson 95 % interval."""
    low, high = wilson_interval(wins, games)
    return f"{label:<22}{games:>7}{wins / games:>10.1%}   {low:.1%}–{high:.1%}"


def share_header() -> str:
    return f"{'bot':<22}{'games':>7}{'win share':>10}   95% interval"


def seat_share(state, seat: int) -> float:
    """The seat's share of the win: 1/k of a win shared by k seats."""
    winners = state.result()["winners"]
    return 1 / len(winners) if seat in winners else 0.0


# -- Citadels -------------------------------------------------------------------------------


def citadels_options() -> dict:
    from engine.citadels.components import DARK_CITY_CHARACTERS, DARK_CITY_DISTRICTS

    return {
        "dark_city_characters": list(DARK_CITY_CHARACTERS),
        "dark_city_districts": list(DARK_CITY_DISTRICTS),
    }


def citadels_heuristics_vs_random(games: int, seed: int) -> None:
    """``builder`` and ``aggressor``, each against three ``random`` bots."""
    options = citadels_options()
    print(share_header() + "   (against three random bots)")
    for bot in ("builder", "aggressor"):
        wins = 0.0
        for game in range(games):
            seat = game % 4
            names = ["random"] * 4
            names[seat] = bot
            state = engine.play_game("citadels", names, seed=seed + game, options=options)
            wins += seat_share(state, seat)
        print(share_line(bot, wins, games))


def citadels_search_vs_builders(games: int, iterations: int, seconds: float | None, seed: int):
    """``search`` against three ``builder`` bots; prints its win share and cost per decision."""
    from engine.citadels.search import DEFAULT_ITERATIONS, SearchBot

    iterations = iterations or DEFAULT_ITERATIONS
    options = citadels_options()
    title = engine.title("citadels")
    cap = f"{seconds} s cap" if seconds is not None else "no time cap"
    print(f"search: {iterations} playouts per searched decision, {cap}")
    wins, searches, playouts, capped, fallbacks, cpu, decisions = 0.0, 0, 0, 0, 0, 0.0, 0
    for game in range(games):
        seat = game % 4
        game_seed = seed + game
        bots = [
            engine.make_bot("citadels", "builder", derive_seed(game_seed, "bot", i))
            for i in range(4)
        ]
        search = SearchBot(
            derive_seed(game_seed, "bot", seat), iterations=iterations, seconds=seconds
        )
        bots[seat] = _Timed(search)
        state = play_out(title.new_game(4, options, game_seed), bots)
        wins += seat_share(state, seat)
        searches += search.searches
        playouts += search.playouts
        capped += search.capped
        fallbacks += search.fallbacks
        cpu += bots[seat].cpu
        decisions += bots[seat].decisions
        print(f"  game {game + 1}/{games}: {wins:.1f} won so far", file=sys.stderr, flush=True)
    print(share_header() + "   (against three builder bots; target >= 45%)")
    print(share_line("search", wins, games))
    print(
        f"cost: {cpu / max(1, searches) * 1000:.0f} ms CPU per searched decision "
        f"({searches / games:.1f} searched of {decisions / games:.1f} decisions a game, "
        f"{playouts / max(1, searches):.0f} playouts each, "
        f"{cpu / max(1, playouts) * 1000:.1f} ms per playout); "
        f"{cpu / games:.1f} s CPU a game; cut short by the clock: {capped}; "
        f"left to builder (state not rebuilt): {fallbacks}"
    )


class _Timed:
    """A bot whose CPU time per decision is summed (process time: fair on a shared machine)."""

    def __init__(self, bot):
        self.bot = bot
        self.cpu = 0.0
        self.decisions = 0

    def choose(self, observation, kind, options):
        start = time.process_time()
        choice = self.bot.choose(observation, kind, options)
        self.cpu += time.process_time() - start
        self.decisions += 1
        return choice


def citadels_bench(args) -> None:
    print("== Citadels, four players, every Dark City character and district")
    if args.heuristic_games:
        citadels_heuristics_vs_random(args.heuristic_games, 10_000)
    if args.games:
        citadels_search_vs_builders(args.games, args.iterations, args.seconds, args.seed)


# -- the command ----------------------------------------------------------------------------

BENCHES = {"citadels": citadels_bench}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", choices=[*BENCHES, "praga", "all"], default="all")
    parser.add_argument("--games", type=int, default=200, help="games of each search bot (0: skip)")
    parser.add_argument(
        "--iterations", type=int, help="search playouts a decision (default: the bot's own)"
    )
    parser.add_argument("--seconds", type=float, help="wall-time cap of one search")
    parser.add_argument("--seed", type=int, default=20_000, help="seed of the first game")
    parser.add_argument(
        "--heuristic-games",
        type=int,
        default=500,
        help="Citadels heuristic bots vs random (0: skip)",
    )
    args = parser.parse_args()
    titles = list(BENCHES) if args.title == "all" else [args.title]
    for title_id in titles:
        if title_id not in BENCHES:
            print(f"{title_id}: no bench in this checkout", file=sys.stderr)
            return 2
        BENCHES[title_id](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
