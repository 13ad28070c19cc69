"""Determinized Monte Carlo search at the root: which option of one decision is best?

Title-neutral. The title supplies ``playout(option, sample) -> reward``: it builds determinized
state number ``sample`` (a full state consistent with what the bot has observed, and the
random streams of the playout, all derived from ``sample`` alone), applies the option, plays
the game out with a cheap policy and returns the bot's reward in [0, 1].

The budget is spent by Sequential Halving (Karnin, Koren & Somekh 2013, "Almost Optimal
Exploration in Multi-Armed Bandits"): in each of ceil(log2 n) rounds every option still in
the race is played out on the same fresh samples, and the better half goes on. Playing every
option on the same samples (common random numbers) compares them on the same deals, so a few
playouts tell options apart that independent playouts would drown in the luck of the deal.

The playout budget alone decides the move, so a search is deterministic given its samples;
``deadline`` is only a cap for a slow machine (when it cuts the search short, the move depends
on the machine's speed: :attr:`RootSearch.cut_short` says so).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class RootSearch:
    """One root search over ``n`` options with a budget of ``playouts``."""

    n: int
    playouts: int
    totals: list[float] = field(init=False)
    visits: list[int] = field(init=False)
    spent: int = field(init=False, default=0)
    samples: int = field(init=False, default=0)
    cut_short: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.totals = [0.0] * self.n
        self.visits = [0] * self.n

    def mean(self, option: int) -> float:
        return self.totals[option] / self.visits[option] if self.visits[option] else 0.0

    def run(
        self,
        playout: Callable[[int, int], float],
        deadline: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> int | None:
        """The chosen option index (ties go to the lowest index); None when the budget cannot
        play every option out even once (the caller decides some other way). The budget is
        never exceeded: a round stops at the first pass over its options that would."""
        if self.playouts < self.n:
            return None
        alive = list(range(self.n))
        rounds = max(1, math.ceil(math.log2(self.n)))
        for _ in range(rounds):
            if len(alive) == 1:
                break
            per_option = max(1, self.playouts // (len(alive) * rounds))
            for _ in range(per_option):
                if self.spent + len(alive) > self.playouts:
                    break
                if deadline is not None and clock is not None and clock() >= deadline:
                    self.cut_short = True
                    return self._best(alive)
                for option in alive:
                    self.totals[option] += playout(option, self.samples)
                    self.visits[option] += 1
                    self.spent += 1
                self.samples += 1
            alive = self._ranked(alive)[: math.ceil(len(alive) / 2)]
        return self._best(alive)

    def _ranked(self, alive: list[int]) -> list[int]:
        return sorted(alive, key=lambda i: (-self.mean(i), i))

    def _best(self, alive: list[int]) -> int:
        return self._ranked(alive)[0]
