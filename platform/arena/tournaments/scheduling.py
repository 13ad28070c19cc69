"""Who sits where in which game: pure functions over entrant positions and seeds.

Round robin: each round shuffles the entrants (with the engine's own PRNG, from the
tournament's seed) and plays ``n`` tables over a cycle: table ``j`` seats entrant
``order[(j + s) % n]`` at seat ``s``. Over a round every entrant plays exactly ``seats`` games,
once in each seat. Duplicate: the same tables, each played in every seat rotation with one
shared seed, so seat and card luck cancel. Ladder: one game at a time for the entrants with the
fewest games, among ratings close to theirs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from engine.core.rng import Rng, derive_seed

SEED_MASK = (1 << 63) - 1  # seeds are stored in a signed 64-bit column


@dataclass(frozen=True)
class PlannedGame:
    table: int
    seed: int
    seating: tuple[int, ...]  # entrant index at each seat


def draw_seed() -> int:
    """A tournament's seed when its organiser sets none: drawn at random, so tournaments with
    the same entrants play different deals, and nobody can work the deals out beforehand."""
    return secrets.randbits(63)


def game_seed(base: int, *labels: int | str) -> int:
    return derive_seed(base, *labels) & SEED_MASK


def _shuffled(n: int, seed: int) -> list[int]:
    order = list(range(n))
    rng = Rng(seed, stream=77)
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def _round_tables(n: int, seats: int, seed: int, rnd: int) -> list[tuple[int, ...]]:
    order = _shuffled(n, derive_seed(seed, "round", rnd))
    return [tuple(order[(j + s) % n] for s in range(seats)) for j in range(n)]


def round_robin(n: int, seats: int, rounds: int, seed: int) -> list[PlannedGame]:
    """``rounds * n`` games; each entrant plays ``rounds * seats`` games, ``rounds`` per seat."""
    _check(n, seats)
    games = []
    for rnd in range(rounds):
        for seating in _round_tables(n, seats, seed, rnd):
            table = len(games)
            games.append(PlannedGame(table, game_seed(seed, "game", table), seating))
    return games


def duplicate(n: int, seats: int, rounds: int, seed: int) -> list[PlannedGame]:
    """Every table of each round played in all ``seats`` rotations with one shared seed."""
    _check(n, seats)
    games = []
    table = 0
    for rnd in range(rounds):
        tables = _round_tables(n, seats, seed, rnd)
        if n == seats:
            tables = tables[:1]  # the other cycle positions are this table's rotations
        for seating in tables:
            shared = game_seed(seed, "table", table)
            for shift in range(seats):
                rotated = tuple(seating[(s - shift) % seats] for s in range(seats))
                games.append(PlannedGame(table, shared, rotated))
            table += 1
    return games


def ladder_pick(
    games_played: list[int], ordinals: list[float], seats: int, seed: int, number: int
) -> PlannedGame:
    """The next ladder game: the entrant with the fewest games, and the ``seats - 1`` others
    closest to it in rating (fewest games first among equally close), seated by a shuffle."""
    n = len(games_played)
    _check(n, seats)
    first = min(range(n), key=lambda i: (games_played[i], i))

    def distance(i: int) -> float:
        return abs(ordinals[i] - ordinals[first])

    others = sorted((i for i in range(n) if i != first), key=lambda i: (distance(i), i))
    # Among the 2(seats-1) closest, prefer those who played least, so nobody starves.
    pool = sorted(others[: 2 * (seats - 1)], key=lambda i: (games_played[i], distance(i), i))
    chosen = [first, *pool[: seats - 1]]
    order = _shuffled(seats, derive_seed(seed, "ladder", number))
    return PlannedGame(number, game_seed(seed, "game", number), tuple(chosen[i] for i in order))


def _check(n: int, seats: int) -> None:
    if n < seats:
        raise ValueError(f"{seats}-seat games need at least {seats} entrants, not {n}")
