"""The ``search`` bot: determinized Monte Carlo search with ``builder`` playouts.

At each draft pick, action and turn decision with more than one option, the bot spends its
iteration budget on playouts: each samples a full state consistent with its observation
(``determinize``: the other hands, the deck and the characters it has not seen are dealt at
random, consistently with what it saw), applies one root option, lets ``builder`` policies
play every seat to the game's end, and scores the result for its seat. Sequential Halving
spreads the playouts over the root options, every option of a round played out on the same
deals (``engine.core.rootsearch``); the last option standing is played. Other
decisions (which card to keep, whom to pay, ...) and moments it cannot rebuild are left to the
``builder`` policy.

The iteration budget makes the moves: given its seed the bot always plays the same game. The
time budget (``seconds``, 1 s by default) only caps a search on a slow machine; when it cuts a
search short, :attr:`SearchBot.capped` counts it, and the move then depends on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cached_property

from engine.core.bots import Bot
from engine.core.rng import Rng, derive_seed
from engine.core.rootsearch import RootSearch

from .bots import BuilderBot, _View
from .components import DISTRICT_IDS, POINTS
from .determinize import SUPPORTED_KINDS, Determinizer, Unsupported
from .scoring import score_seat
from .title import CITADELS

# Playouts per searched decision: about 0.4-0.5 s of CPU on one core of the reference machine
# (2-3 ms a playout), so the 1 s cap cuts it short only on a loaded machine.
DEFAULT_ITERATIONS = 160
DEFAULT_SECONDS = 1.0
# A playout that has not ended after this many decisions is scored as it stands (the stalemate
# rule ends every game, so this only guards against a bug).
PLAYOUT_LIMIT = 5000
# Reward = WIN_WEIGHT * share of the win + the rest * lead over the best other score, so that
# playouts the bot loses still say which option lost by less.
WIN_WEIGHT = 0.8
LEAD_SCALE = 20


class SearchBot(Bot):
    """Determinized flat Monte Carlo search (see the module docstring)."""

    name = "search"
    thinks = True

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = DEFAULT_SECONDS,
        clock: Callable[[], float] = time.perf_counter,
    ):
        super().__init__(seed)
        if iterations < 1:
            raise ValueError("a search needs at least one iteration")
        self.iterations = iterations
        self.seconds = seconds
        self.clock = clock
        self.policy = BuilderBot(derive_seed(seed, "policy"))
        self.playout_seed = derive_seed(seed, "playouts")
        # What the searches did, for tests and benches: searches run, playouts spent, searches
        # cut short by the clock, decisions left to the policy because no state could be rebuilt.
        self.searches = 0
        self.playouts = 0
        self.capped = 0
        self.fallbacks = 0
        self.last_iterations = 0

    def choose(self, observation, kind, options):
        self.last_iterations = 0
        if len(options) == 1:
            return 0
        if len(options) > self.iterations:
            # a budget too small to play each option out once: the policy knows better
            return self.policy.choose(observation, kind, options)
        if kind in SUPPORTED_KINDS:
            try:
                determinizer = Determinizer(CITADELS, observation, kind)
            except Unsupported:
                determinizer = None
            if determinizer is not None:
                choice = self._search(determinizer, observation["seat"], kind, options)
                if choice is not None:
                    return choice
            self.fallbacks += 1
        return self.policy.choose(observation, kind, options)

    def _search(self, determinizer: Determinizer, seat: int, kind: str, options: list[dict]):
        # Each search has its own seed, from the bot's seed and the search's number; sample k
        # of a search (its deal and its playouts' random streams) depends on that seed and k.
        search_seed = derive_seed(self.playout_seed, self.searches)
        deals: dict[int, object] = {}

        def deal(sample: int):
            if sample not in deals:
                deals.clear()  # the options of a sample are played out one after the other
                deals[sample] = determinizer.sample(Rng(derive_seed(search_seed, sample), 7))
            return deals[sample].clone()

        first = deal(0).decision()
        if first.seat != seat or first.kind != kind or first.options != options:
            return None  # the rebuilt state disagrees with the game: trust the policy instead
        self.searches += 1

        def playout(option: int, sample: int) -> float:
            state = deal(sample)
            state.apply(option)
            policies = [
                PlayoutPolicy(derive_seed(search_seed, sample, v)) for v in range(state.players)
            ]
            return _reward(_play_out(state, policies), seat)

        search = RootSearch(len(options), self.iterations)
        deadline = self.clock() + self.seconds if self.seconds is not None else None
        choice = search.run(playout, deadline, self.clock)
        self.last_iterations = search.spent
        self.playouts += search.spent
        self.capped += search.cut_short
        return choice


class _StateView(_View):
    """What ``builder`` reads of an observation, read straight off a (determinized) state:
    the same ratings at a fraction of the cost of building the observation."""

    def __init__(self, state, seat: int):
        self.state = state
        self.seat = seat
        self.city = [DISTRICT_IDS[k] for k in state.cities[seat]]
        self.gold = state.gold[seat]
        self.hand = [DISTRICT_IDS[k] for k in state.hands[seat]]

    @property
    def obs(self) -> dict:
        return {"hand_sizes": [len(h) for h in self.state.hands]}

    @cached_property
    def points(self) -> list[int]:
        return [sum(POINTS[k] for k in city) + len(city) for city in self.state.cities]

    @cached_property
    def leader(self) -> int:
        points, cities = self.points, self.state.cities
        others = [v for v in range(self.state.players) if v != self.seat]
        return max(others, key=lambda v: (points[v], len(cities[v]), -v))


class PlayoutPolicy(BuilderBot):
    """``builder``'s ratings, for playouts inside the search's own sampled states."""

    def choose_in(self, state, seat: int, options: list[dict]) -> int:
        return self.choose_with(_StateView(state, seat), options)


def _play_out(state, policies: list[PlayoutPolicy]):
    for _ in range(PLAYOUT_LIMIT):
        if state.is_over():
            break
        decision = state.decision()
        if len(decision.options) == 1:
            state.apply(0)
            continue
        seat = decision.seat
        state.apply(policies[seat].choose_in(state, seat, decision.options))
    return state


def _reward(state, seat: int) -> float:
    """The seat's share of the win, and its lead over the best other score, in [0, 1]."""
    if state.is_over():
        result = state.result()
        scores = result["scores"]
        winners = result["winners"]
        share = 1 / len(winners) if seat in winners else 0.0
    else:  # only after PLAYOUT_LIMIT: score the game as it stands
        scores = [score_seat(state, v)["score"] for v in range(state.players)]
        share = 0.0
    best_other = max(score for v, score in enumerate(scores) if v != seat)
    lead = max(-1.0, min(1.0, (scores[seat] - best_other) / LEAD_SCALE))
    return WIN_WEIGHT * share + (1 - WIN_WEIGHT) * (lead + 1) / 2
