"""Determinized Monte Carlo search at the root: which option of one decision is best?

Title-neutral. The title supplies ``playout(option_index) -> reward``: it samples one state
consistent with what the bot has observed (a determinization), applies the option, plays the
game out with a cheap policy and returns the bot's reward in [0, 1]. This helper only spends
the budget: UCB1 (Auer, Cesa-Bianchi & Fischer 2002, "Finite-time Analysis of the Multiarmed
Bandit Problem") spreads the playouts over the options, and the most visited option wins.

The iteration budget alone decides the move, so a search is deterministic given its random
streams; ``seconds`` is only a cap for a slow machine (when it cuts the search short, the
move depends on the machine's speed: callers can read :attr:`RootSearch.iterations` to see it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class RootSearch:
    """One root search over ``n`` options; ``run`` returns the chosen index."""

    n: int
    exploration: float = 0.5
    visits: list[int] = field(init=False)
    totals: list[float] = field(init=False)
    iterations: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.visits = [0] * self.n
        self.totals = [0.0] * self.n

    def next_option(self) -> int:
        """The option the next playout tries: each once in order, then the best UCB1 bound
        (ties to the lowest index, so the choice never depends on anything but the rewards)."""
        if self.iterations < self.n:
            return self.iterations
        log_n = math.log(self.iterations)
        best, best_bound = 0, -1.0
        for i in range(self.n):
            bound = self.totals[i] / self.visits[i] + self.exploration * math.sqrt(
                log_n / self.visits[i]
            )
            if bound > best_bound:
                best, best_bound = i, bound
        return best

    def record(self, option: int, reward: float) -> None:
        self.visits[option] += 1
        self.totals[option] += reward
        self.iterations += 1

    def best(self) -> int:
        """The most visited option (the robust child); equal visits: the better mean."""
        return max(
            range(self.n),
            key=lambda i: (self.visits[i], self.totals[i] / max(1, self.visits[i]), -i),
        )

    def run(
        self,
        playout: Callable[[int], float],
        iterations: int,
        deadline: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> int:
        """Spend up to ``iterations`` playouts (at least one per option when the deadline
        allows), stopping early once ``clock()`` passes ``deadline``."""
        for _ in range(iterations):
            if deadline is not None and clock is not None and clock() >= deadline:
                break
            option = self.next_option()
            self.record(option, playout(option))
        return self.best()
