"""The standing ladder's matchmaking policy (arena.tournaments.matchmaking): pure functions,
run here over thousands of simulated tables."""

import random
from dataclasses import replace

import pytest

from arena.tournaments.matchmaking import (
    SEAT_TOLERANCE,
    Contender,
    Policy,
    balance_seats,
    pick_table,
)

PRIOR_SIGMA = 25 / 3


def settled(mu: float, games: int = 40, seats: int = 2) -> Contender:
    return Contender(mu=mu, sigma=2.0, planned_games=games, seat_games=(games // seats,) * seats)


def play(contenders: list[Contender], seating) -> list[Contender]:
    out = list(contenders)
    for seat, i in enumerate(seating):
        counts = list(out[i].seat_games)
        counts[seat] += 1
        out[i] = replace(out[i], planned_games=out[i].planned_games + 1, seat_games=tuple(counts))
    return out


def test_a_new_version_sits_at_every_table_until_its_sigma_has_settled():
    rng = random.Random(1)
    field = [settled(20 + i, games=20) for i in range(10)]
    new = Contender(mu=25, sigma=PRIOR_SIGMA, planned_games=0, seat_games=(0, 0))
    contenders = [*field, new]
    for _ in range(20):
        seating = pick_table(contenders, 2, rng)
        assert 10 in seating
        contenders = play(contenders, seating)
    contenders[10] = replace(contenders[10], sigma=2.5)
    tables = []
    for _ in range(50):
        tables.append(pick_table(contenders, 2, rng))
        contenders = play(contenders, tables[-1])
    assert sum(10 in t for t in tables) < 25  # now one of eleven


def test_opponents_are_mostly_close_in_rating_with_some_exploration():
    rng = random.Random(2)
    contenders = [settled(float(mu), games=0 if mu == 30 else 50) for mu in range(50)]
    far = 0
    for _ in range(1000):
        seating = pick_table(contenders, 2, rng, Policy(exploration=0.15, neighbours=3))
        assert 30 in seating  # the one with the fewest games
        other = next(i for i in seating if i != 30)
        far += abs(other - 30) > 3
    assert 80 < far < 250  # about 15 % drawn from everybody, nearly all of those far


def test_every_settled_bot_plays_about_as_often_as_the_others():
    rng = random.Random(3)
    contenders = [settled(float(mu), games=0, seats=4) for mu in range(12)]
    for _ in range(600):
        contenders = play(contenders, pick_table(contenders, 4, rng))
    games = [c.planned_games for c in contenders]
    assert max(games) - min(games) <= 2


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 7])
def test_seats_stay_balanced_within_the_tolerance(seats):
    rng = random.Random(seats)
    contenders = [
        Contender(mu=rng.uniform(10, 40), sigma=PRIOR_SIGMA if i < 2 else 2.0, planned_games=0,
                  seat_games=(0,) * seats)
        for i in range(seats + 5)
    ]  # fmt: skip
    for _ in range(2000 // seats):
        contenders = play(contenders, pick_table(contenders, seats, rng))
        for c in contenders:
            assert max(c.seat_games) - min(c.seat_games) <= SEAT_TOLERANCE


def test_balance_seats_gives_each_bot_the_seat_it_played_least():
    rng = random.Random(4)
    seating = balance_seats([(5, 3, 4), (2, 2, 0), (0, 9, 9)], ["a", "b", "c"], rng)
    assert seating == ("c", "a", "b")


def test_too_few_contenders_is_refused():
    with pytest.raises(ValueError, match="at least 3"):
        pick_table([settled(1.0), settled(2.0)], 3, random.Random(0))
