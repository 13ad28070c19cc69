"""Standing-ladder matchmaking: who plays the next table, and in which seats. Pure functions
over plain values (no database), so the policy is tested fast and the bench runs it in-process.

The policy (docs/ladders.md has the reasoning and the parameters' defaults):

1. **Provisional first.** A contender whose σ is above ``settled_sigma`` (a new version: the
   prior's σ is 8.33) is the table's focus, the one with the fewest planned games first, so a
   new version plays in every table until its rating has settled.
2. **Then evenly.** Otherwise the focus is the contender with the fewest planned games.
3. **Similar ratings, with exploration.** The other seats go to contenders close in μ to the
   focus: the least played of the ``neighbours * (seats - 1)`` closest; with probability
   ``exploration`` the least played of everybody instead, so the ranking also compares bots
   far apart (and a misrated bot is found out). Ties are drawn at random.
4. **Seats balanced.** The chosen bots are seated so that each takes a seat it has played least
   (:func:`balance_seats`): every bot's games per seat stay within ``SEAT_TOLERANCE`` of each
   other.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

# Most games a bot may have played in one seat beyond its least-played seat (what the policy
# keeps to, measured by the unit tests over long runs).
SEAT_TOLERANCE = 2
# Above this many seats, seats are balanced greedily instead of over every permutation.
EXHAUSTIVE_SEATS = 6


@dataclass(frozen=True)
class Policy:
    """The matchmaking's parameters (settings ARENA_LADDER_*)."""

    settled_sigma: float = 3.0
    neighbours: int = 3
    exploration: float = 0.15


@dataclass(frozen=True)
class Contender:
    """An active entrant as matchmaking sees it."""

    mu: float
    sigma: float
    planned_games: int
    seat_games: tuple[int, ...]  # planned games in each seat


def pick_table(
    contenders: Sequence[Contender], seats: int, rng: random.Random, policy: Policy = Policy()
) -> tuple[int, ...]:
    """The next table: the contender index at each seat (see the module's policy)."""
    n = len(contenders)
    if n < seats:
        raise ValueError(f"{seats}-seat games need at least {seats} contenders, not {n}")
    focus = _focus(contenders, rng, policy)
    others = [i for i in range(n) if i != focus]
    if rng.random() >= policy.exploration:
        centre = contenders[focus].mu
        others.sort(key=lambda i: (abs(contenders[i].mu - centre), rng.random()))
        others = others[: max(seats - 1, policy.neighbours * (seats - 1))]
    # Among those, the least played first (ties at random), so nobody's games fall behind.
    others.sort(key=lambda i: (contenders[i].planned_games, rng.random()))
    chosen = [focus, *others[: seats - 1]]
    return balance_seats([_seat_counts(contenders[i], seats) for i in chosen], chosen, rng)


def _focus(contenders: Sequence[Contender], rng: random.Random, policy: Policy) -> int:
    provisional = [i for i, c in enumerate(contenders) if c.sigma > policy.settled_sigma]
    pool = provisional or range(len(contenders))
    fewest = min(contenders[i].planned_games for i in pool)
    return rng.choice([i for i in pool if contenders[i].planned_games == fewest])


def _seat_counts(contender: Contender, seats: int) -> tuple[int, ...]:
    counts = tuple(contender.seat_games[:seats])
    return counts + (0,) * (seats - len(counts))


def balance_seats(
    counts: Sequence[Sequence[int]], keys: Sequence[int], rng: random.Random
) -> tuple[int, ...]:
    """Seat the bots ``keys`` (with their games per seat ``counts``) so that each takes a seat
    it has played little: the seating that minimises the largest, then the total, excess of
    a bot's games in its new seat over its least-played seat (ties drawn at random). Returns
    the key at each seat."""
    seats = len(keys)
    excess = [[c[s] - min(c) for s in range(seats)] for c in counts]
    if seats <= EXHAUSTIVE_SEATS:
        orders = list(itertools.permutations(range(seats)))  # orders[k][bot] = its seat
        rng.shuffle(orders)
        best = min(
            orders,
            key=lambda o: (
                max(excess[b][o[b]] for b in range(seats)),
                sum(excess[b][o[b]] for b in range(seats)),
            ),
        )
    else:
        best = _greedy(excess, rng)
    seating = [0] * seats
    for bot, seat in enumerate(best):
        seating[seat] = keys[bot]
    return tuple(seating)


def _greedy(excess: list[list[int]], rng: random.Random) -> list[int]:
    """Bots with the most uneven seats choose first, each its least-played free seat."""
    seats = len(excess)
    free = set(range(seats))
    order = sorted(range(seats), key=lambda b: (-max(excess[b]), rng.random()))
    assignment = [0] * seats
    for bot in order:
        seat = min(free, key=lambda s: (excess[bot][s], rng.random()))
        assignment[bot] = seat
        free.remove(seat)
    return assignment
