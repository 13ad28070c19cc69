"""Seat-balanced round robin, duplicate rotations with shared seeds, and the ladder's picks."""

from collections import Counter

import pytest

from arena.tournaments import scheduling


@pytest.mark.parametrize("n,seats", [(2, 2), (3, 2), (4, 4), (5, 3), (7, 4), (8, 6)])
def test_round_robin_gives_every_entrant_the_same_games_and_each_seat_equally(n, seats):
    games = scheduling.round_robin(n, seats, rounds=2, seed=9)
    assert len(games) == 2 * n
    per_seat = Counter((entrant, seat) for g in games for seat, entrant in enumerate(g.seating))
    assert set(per_seat.values()) == {2}
    assert len(per_seat) == n * seats
    assert all(len(set(g.seating)) == seats for g in games)


@pytest.mark.parametrize("n,seats", [(3, 3), (4, 2), (5, 4)])
def test_duplicate_plays_each_table_in_every_rotation_with_one_seed(n, seats):
    games = scheduling.duplicate(n, seats, rounds=1, seed=4)
    tables = {}
    for g in games:
        tables.setdefault(g.table, []).append(g)
    for rotations in tables.values():
        assert len(rotations) == seats and len({g.seed for g in rotations}) == 1
        assert {frozenset(g.seating) for g in rotations} == {frozenset(rotations[0].seating)}
        for seat in range(seats):  # every entrant of the table sits in every seat once
            assert len({g.seating[seat] for g in rotations}) == seats
    assert len({g.seed for g in games}) == len(tables)


def test_the_ladder_picks_the_entrant_with_fewest_games_and_close_ratings():
    pick = scheduling.ladder_pick([5, 0, 5, 5, 5], [10.0, 1.0, 1.5, 30.0, 0.5], 3, seed=1, number=7)
    assert 1 in pick.seating
    assert set(pick.seating) == {1, 2, 4}


def test_schedules_are_the_same_for_the_same_seed():
    assert scheduling.round_robin(6, 4, 3, seed=5) == scheduling.round_robin(6, 4, 3, seed=5)
    assert scheduling.round_robin(6, 4, 3, seed=5) != scheduling.round_robin(6, 4, 3, seed=6)
