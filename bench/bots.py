"""House bots against their yardsticks (issue 15): each title's search bot against its targets,
win shares with Wilson 95 % intervals, and its cost per decision.

    .venv/bin/python bench/bots.py --title citadels|praga|all [--games N] [--iterations N]
        [--seconds S] [--seed N]

The shared part is this harness (arguments, a share with its interval, a score summary, a
cost counter); each title's measurement is its own ``<title>_*`` functions, listed in
``MEASURES``. The search budget is ``--iterations`` playouts per decision (the source of the
moves, so the figures replay exactly); ``--seconds`` (alias ``--time-limit``) caps a search's
wall time (absent or 0: no cap; the bots' own default is 1 s). On a shared machine use a
smaller ``--iterations`` and say so: every figure printed names the budget it was measured at.
``--games``, ``--iterations`` and ``--seed`` default per title.

Citadels (``citadels_*``), every Dark City character and district on, four players, the
measured bot's seat rotating, a shared win counting 1/k (fair share 25 %): ``builder`` and
``aggressor`` against three ``random`` bots (``--heuristic-games``, 500 by default), then
``search`` against three ``builder`` bots (target >= 45 %), with its CPU per searched decision.

Praga (``praga_*``; seed 000 calls a solo score over 140 good):
- ``praga_solo``: the search bot's solo scores (median, percentiles; share of games at or
  over 140 with its interval: the median is at least 140 exactly when that share is at
  least one half) and ``tuned``'s and ``climber``'s on the same seeds;
- ``praga_four``: the search bot against three ``climber`` bots, its seat rotating (fair
  share 25 %, target 45 %);
- the search bot's cost per decision (decisions with more than one option) in both.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.core.play import play_out  # noqa: E402
from engine.core.rng import derive_seed  # noqa: E402
from engine.core.stats import wilson_interval  # noqa: E402

# -- shared harness -------------------------------------------------------------------------


def proportion(label: str, successes: float, n: int) -> str:
    """``label: 46.0 % (95 % interval 38.1–54.2 %, n = 150)``."""
    low, high = wilson_interval(successes, n)
    return f"{label}: {successes / max(n, 1):.1%} (95% interval {low:.1%}–{high:.1%}, n = {n})"


def score_summary(scores: list[int]) -> str:
    """min / 10th percentile / median / 90th percentile / max of a list of scores."""
    ordered = sorted(scores)

    def pct(p):
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return (
        f"min {ordered[0]} / p10 {pct(0.1)} / median {statistics.median(ordered):g} / "
        f"p90 {pct(0.9)} / max {ordered[-1]}"
    )


class Cost:
    """Wall time and playouts of a search bot's decisions with more than one option."""

    def __init__(self):
        self.seconds = 0.0
        self.decisions = 0
        self.playouts = 0

    def timed(self, bot):
        """Wrap ``bot.choose`` so that its non-trivial decisions are timed."""
        choose = bot.choose

        def timed_choose(observation, kind, options):
            if len(options) == 1:
                return choose(observation, kind, options)
            before, started = bot.playouts, time.perf_counter()
            index = choose(observation, kind, options)
            self.seconds += time.perf_counter() - started
            self.decisions += 1
            self.playouts += bot.playouts - before
            return index

        bot.choose = timed_choose
        return bot

    def add(self, other: Cost) -> None:
        self.seconds += other.seconds
        self.decisions += other.decisions
        self.playouts += other.playouts

    def line(self) -> str:
        n = max(self.decisions, 1)
        return (
            f"cost: {1000 * self.seconds / n:.0f} ms and {self.playouts / n:.0f} playouts per "
            f"decision ({self.decisions} decisions with more than one option)"
        )


def run_games(args, play_one, games: range) -> list:
    """``play_one(args, game)`` for every game, on ``--jobs`` processes, in game order."""
    if args.jobs <= 1:
        return [play_one(args, game) for game in games]
    with multiprocessing.Pool(args.jobs) as pool:
        return pool.starmap(play_one, [(args, game) for game in games])


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


def citadels(args) -> None:
    print("== Citadels, four players, every Dark City character and district")
    if args.heuristic_games:
        citadels_heuristics_vs_random(args.heuristic_games, 10_000)
    games = 200 if args.games is None else args.games
    if games:
        seed = 20_000 if args.seed is None else args.seed
        citadels_search_vs_builders(games, args.iterations, args.seconds or None, seed)


# -- Praga ----------------------------------------------------------------------------------

PRAGA_GOOD_SCORE = 140  # seed 000: a score over 140 is a good score
PRAGA_SEED = 1000
PRAGA_HEURISTICS = ("tuned", "climber")  # printed on the same seeds for comparison


def praga_search_bot(args, seed: int):
    from engine.praga.search import SearchBot

    return SearchBot(
        seed,
        iterations=args.iterations,
        time_limit=args.time_limit or None,
        candidates=args.candidates,
    )


def praga_solo_game(args, game: int) -> tuple[int, Cost]:
    """One solo game of the search bot: its score and cost."""
    seed = args.first_seed + game
    cost = Cost()
    bot = cost.timed(praga_search_bot(args, derive_seed(seed, "bot", 0)))
    score = play_out(engine.title("praga").new_game(1, seed=seed), [bot]).score[0]
    if args.progress:
        print(f"  game {game + 1}: search {score}", flush=True)
    return score, cost


def praga_solo(args) -> None:
    """Solo scores of the search bot, and of the heuristic bots on the same game seeds."""
    cost = Cost()
    search = []
    for score, game_cost in run_games(args, praga_solo_game, range(args.games)):
        search.append(score)
        cost.add(game_cost)
    print(f"praga solo, {args.games} games (seeds {args.first_seed}..)")
    print(f"  search : {score_summary(search)}")
    for name in PRAGA_HEURISTICS:
        scores = [
            engine.play_game("praga", [name], seed=args.first_seed + g).score[0]
            for g in range(args.games)
        ]
        print(f"  {name:<7}: {score_summary(scores)}")
    good = sum(s >= PRAGA_GOOD_SCORE for s in search)
    print("  " + proportion(f"search games scoring {PRAGA_GOOD_SCORE} or more", good, args.games))
    print(f"  (target: median >= {PRAGA_GOOD_SCORE}, i.e. that share >= 50%)")
    print("  " + cost.line())


def praga_four_game(args, game: int, bot_name: str | None = None) -> tuple[float, Cost]:
    """One four-player game: the search bot (or built-in ``bot_name``) at seat ``game % 4``
    against three ``climber`` bots; its share of the win (1/k for a k-way tie) and cost."""
    seed = args.first_seed + game
    seat = game % 4
    cost = Cost()
    bots = [engine.make_bot("praga", "climber", derive_seed(seed, "bot", i)) for i in range(4)]
    mine = derive_seed(seed, "bot", seat)
    bots[seat] = (
        engine.make_bot("praga", bot_name, mine)
        if bot_name
        else cost.timed(praga_search_bot(args, mine))
    )
    winners = play_out(engine.title("praga").new_game(4, seed=seed), bots).result()["winners"]
    if args.progress and not bot_name:
        print(f"  game {game + 1}: seat {seat}, winners {winners}", flush=True)
    return (1 / len(winners) if seat in winners else 0.0), cost


def praga_four(args) -> None:
    """The search bot against three ``climber`` bots, seats rotating (and ``tuned`` alone)."""
    cost = Cost()
    wins = 0.0
    for share, game_cost in run_games(args, praga_four_game, range(args.games)):
        wins += share
        cost.add(game_cost)
    print(f"praga four players, vs 3 climber, {args.games} games (seeds {args.first_seed}..)")
    print("  " + proportion("search win share", wins, args.games))
    tuned = sum(praga_four_game(args, g, "tuned")[0] for g in range(args.games))
    print("  " + proportion("tuned win share (no search)", tuned, args.games))
    print("  (fair share 25%, target 45%)")
    print("  " + cost.line())


def praga(args) -> None:
    print("== Praga Caput Regni")
    args = argparse.Namespace(**vars(args))
    args.games = 40 if args.games is None else args.games
    args.iterations = args.iterations or 64
    args.first_seed = PRAGA_SEED if args.seed is None else args.seed
    args.time_limit = args.seconds or 0
    cap = f"capped at {args.time_limit:g} s" if args.time_limit else "no time cap"
    print(
        f"budget: {args.iterations} playouts per decision, {cap}; {args.candidates} candidates; "
        f"{args.jobs} process(es)"
    )
    if not args.games:
        return
    if args.part in ("solo", "all"):
        praga_solo(args)
    if args.part in ("four", "all"):
        praga_four(args)


# -- the command ----------------------------------------------------------------------------

MEASURES = {"citadels": citadels, "praga": praga}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", choices=[*MEASURES, "all"], default="all")
    parser.add_argument(
        "--games", type=int, help="games of each search measurement (Citadels 200, Praga 40)"
    )
    parser.add_argument(
        "--iterations",
        type=int,
        help="search playouts a decision (Citadels: the bot's own, Praga 64)",
    )
    parser.add_argument(
        "--seconds", "--time-limit", dest="seconds", type=float,
        help="wall-time cap of one search (absent or 0: no cap)",
    )  # fmt: skip
    parser.add_argument(
        "--seed", "--first-seed", dest="seed", type=int,
        help="seed of the first game (Citadels 20000, Praga 1000)",
    )  # fmt: skip
    parser.add_argument(
        "--heuristic-games",
        type=int,
        default=500,
        help="Citadels heuristic bots vs random (0: skip)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="Praga: processes playing games")
    parser.add_argument(
        "--candidates", type=int, default=8, help="Praga: options the search compares"
    )
    parser.add_argument(
        "--part", choices=("solo", "four", "all"), default="all", help="Praga: which match"
    )
    parser.add_argument("--progress", action="store_true", help="Praga: a line per game")
    args = parser.parse_args(argv)
    if (args.games is not None and args.games < 0) or (
        args.iterations is not None and args.iterations < 1
    ):
        parser.error("--games must be at least 0 and --iterations at least 1")
    for title, measure in MEASURES.items():
        if args.title in (title, "all"):
            measure(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
