"""``search``: determinized Monte Carlo rollouts over a heuristic playout policy (``tuned``).

At each decision with more than one option the bot

1. keeps the few most promising options by its playout policy's own valuation
   (``candidates``),
2. samples worlds consistent with its observation (``engine.praga.worlds``: the public state
   rebuilt from the observation at the start of its turn, the face-down piles dealt from the
   tiles it has not seen, its own choices since the turn began replayed, the display aligned
   with what it sees now),
3. plays every candidate out to the end of the game in the same sampled worlds (common random
   numbers: the candidates differ only by the option) with the playout policy for every seat,
   and scores the end: its final score (solo), or its margin over the best other seat,
4. halves the candidates by mean value, round after round (sequential halving), until one is
   left or the budget is spent.

The budget is ``iterations`` playouts per decision (the source of determinism: the same seed
and observations give the same choices) with ``time_limit`` seconds as a cap; a decision that
reaches the cap stops early and is then no longer reproducible, so benches set the iteration
budget low enough never to reach it. Decisions taken outside its own turn (a square's reward
in another seat's turn) and decisions whose sampled worlds never agree with the observation
fall back to the playout policy.
"""

from __future__ import annotations

import time

from engine.core.bots import Bot
from engine.core.rng import Rng, derive_seed

from .bots import TunedBot
from .components import Components, default_components
from .worlds import HiddenPiles, align_display, is_turn_start, public_world, sample_hidden

DEFAULT_ITERATIONS = 100
DEFAULT_TIME_LIMIT = 1.0
DEFAULT_CANDIDATES = 8
DEFAULT_MARGIN = 2.0  # points of mean playout value needed to overrule the policy
SAMPLE_TRIES = 4


class SearchBot(Bot):
    """Determinized rollouts with sequential halving; see the module docstring."""

    name = "search"
    thinks = True  # spends a budget on every decision: quick games (tests, demo) leave it out
    policy_class = TunedBot

    def __init__(
        self,
        seed: int = 0,
        components: Components | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        candidates: int = DEFAULT_CANDIDATES,
        margin: float = DEFAULT_MARGIN,
        rule_options: dict | None = None,
        title=None,
    ):
        super().__init__(seed)
        self.components = components or default_components()
        self.iterations = iterations
        self.time_limit = time_limit
        self.candidates = candidates
        self.margin = margin
        self.rule_options = rule_options
        self.title = title or _title_for(self.components)
        self.policy = self.policy_class(derive_seed(seed, "policy"), self.components)
        self.seed = seed
        self.decisions = 0
        self.playouts = 0  # playouts run over the bot's life (for the cost per decision)
        self._anchor = None  # (turn, world, hidden piles) at the start of the current turn
        self._since: list[dict] = []  # own choices since then

    def start(self, message: dict) -> None:
        """Take the rule options of the protocol's ``start`` message (public facts)."""
        self.rule_options = message.get("options")

    def choose(self, observation, kind, options):
        self.decisions += 1
        obs = observation
        if obs["active"] != obs["seat"]:
            self._anchor = None
        elif kind == "turn" and is_turn_start(obs):
            world = public_world(self.title, obs, self.rule_options)
            self._anchor = (obs["turn"], world, HiddenPiles(world, obs))
            self._since = []
        index = 0 if len(options) == 1 else self._search(obs, kind, options)
        if self._anchor is not None:
            self._since.append(options[index])
        return index

    # -- search ------------------------------------------------------------------------

    def _search(self, obs, kind, options) -> int:
        me = obs["you"]
        values = [self.policy.value(obs, me, kind, o) for o in options]
        order = sorted(range(len(options)), key=lambda i: (-values[i], i))
        fallback = self.policy.choose(obs, kind, options)
        if self._anchor is None or self._anchor[0] != obs["turn"]:
            return fallback
        alive = order[: self.candidates]
        if fallback not in alive:
            alive[-1] = fallback
        if len(alive) == 1:
            return alive[0]
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        rng = Rng(derive_seed(self.seed, "worlds", self.decisions))
        rounds = max(1, (len(alive) - 1).bit_length())
        totals = {i: 0.0 for i in alive}
        counts = {i: 0 for i in alive}
        budget = self.iterations
        world_no = 0
        for r in range(rounds):
            per = max(1, budget // (len(alive) * (rounds - r)))
            for _ in range(per):
                world = self._world(obs, options, rng)
                world_no += 1
                if world is None:
                    continue
                for i in alive:
                    totals[i] += self._playout(world, options[i], obs["seat"], world_no)
                    counts[i] += 1
                    budget -= 1
                if deadline is not None and time.monotonic() > deadline:
                    budget = 0
                    break
            if not any(counts.values()):
                return fallback
            alive.sort(key=lambda i: (-(totals[i] / max(counts[i], 1)), order.index(i)))
            if budget <= 0:
                break
            # the policy's own choice stays in every round: the yardstick of the others
            kept = alive[: max(1, len(alive) // 2)]
            alive = kept if fallback in kept else [*kept, fallback]
            if len(alive) == 1:
                break
        best = max(alive, key=lambda i: (totals[i] / max(counts[i], 1), -order.index(i)))
        mean = totals[best] / max(counts[best], 1)
        policy_mean = totals[fallback] / max(counts[fallback], 1)
        # a playout's score is noisy: leave the policy only for a clear gain
        return best if mean >= policy_mean + self.margin else fallback

    def _world(self, obs, options, rng):
        """A sampled world at this decision whose options are the real ones, or None."""
        _turn, base, hidden = self._anchor
        for _attempt in range(SAMPLE_TRIES):
            world = sample_hidden(base, hidden, rng, rng.below(1 << 30))
            if self._replay(world, obs) and world.decision().options == options:
                return world
        return None

    def _replay(self, world, obs) -> bool:
        """Apply the bot's own choices since the turn began; other seats' sub-decisions in
        between (a square's reward) are made by the playout policy."""
        seat = obs["seat"]
        for option in self._since:
            while not world.is_over() and world.decision().seat != seat:
                self._policy_move(world)
            if world.is_over() or option not in world.decision().options:
                return False
            world.apply(option)
        while not world.is_over() and world.decision().seat != seat:
            self._policy_move(world)
        if world.is_over():
            return False
        align_display(world, obs)
        return True

    def _policy_move(self, world) -> None:
        d = world.decision()
        world.apply(self.policy.choose(world.observation(d.seat), d.kind, d.options))

    def _playout(self, world, option, seat: int, world_no: int) -> float:
        self.playouts += 1
        state = world.clone()
        state.apply(option)
        # the same policy stream for every candidate in one world (common random numbers)
        self.policy.rng = Rng(derive_seed(self.seed, "playout", self.decisions, world_no))
        while not state.is_over():
            d = state.decision()
            if len(d.options) == 1:
                state.apply(0)
            else:
                obs = state.observation(d.seat)
                state.apply(self.policy.choose(obs, d.kind, d.options))
        scores = state.score
        if len(scores) == 1:
            return float(scores[0])
        return float(scores[seat] - max(s for i, s in enumerate(scores) if i != seat))


def _title_for(components: Components):
    """A title that loads ``components`` (the bot's worlds are games of the same set)."""
    from . import PRAGA, PragaTitle

    if components is PRAGA.components:
        return PRAGA
    title = PragaTitle.__new__(PragaTitle)
    title.components = components
    return title
