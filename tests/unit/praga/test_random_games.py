"""Property tests over random games at 1-4 players and every variant."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import make_bot, play_game
from tests.support.budget import cases

from .helpers import PRAGA, VARIANTS, check_invariants, play_checked, roundtrip

pytestmark = pytest.mark.fuzz

games = st.tuples(st.integers(1, 4), st.integers(0, 2**31), st.integers(0, len(VARIANTS) - 1))


@settings(max_examples=cases(24), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_every_invariant_after_every_decision(game):
    players, seed, variant = game
    state = play_checked(players, seed, VARIANTS[variant])
    assert state.turns_taken == [16] * players
    assert state.turn_no == 16 * max(players, 2)


def advance(state, bots, steps=None):
    """Let random bots make ``steps`` decisions (all, when None), each offering options."""
    while not state.is_over() and (steps is None or steps > 0):
        d = state.decision()
        assert d.options
        state.apply(bots[d.seat].choose(None, d.kind, d.options))
        steps = None if steps is None else steps - 1


def _play_many(first, count):
    for n in range(first, first + count):
        players = 1 + n % 4
        state = PRAGA.new_game(players, VARIANTS[n % len(VARIANTS)], n)
        bots = [make_bot("praga", "random", n + i) for i in range(players)]
        advance(state, bots)
        assert state.turns_taken == [16] * players
        check_invariants(state)
        result = state.result()
        assert len(result["scores"]) == players
        assert sorted(result["ranks"]) == list(range(1, players + 1))


def test_many_random_games_end_after_exactly_sixteen_turns_each():
    _play_many(0, cases(100))


@pytest.mark.slow
@pytest.mark.parametrize("first", [1000, 1400, 1800, 2200, 2600])
def test_two_thousand_more_random_games_end_cleanly(first):
    _play_many(first, cases(400))


@settings(max_examples=cases(12), deadline=None)
@given(games)
def test_records_replay_to_the_same_result_and_observations(game):
    players, seed, variant = game
    state = play_game("praga", ["random"] * players, seed, VARIANTS[variant])
    record = roundtrip(state.record())
    again = PRAGA.replay(record)
    assert again.result() == state.result()
    for seat in range(players):
        assert again.observation(seat) == state.observation(seat)


@settings(max_examples=cases(10), deadline=None)
@given(games)
def test_a_clone_is_independent_and_plays_the_same(game):
    players, seed, variant = game
    state = PRAGA.new_game(players, VARIANTS[variant], seed)
    bots = [make_bot("praga", "random", i) for i in range(players)]
    advance(state, bots, seed % 150)
    twin = state.clone()
    before = state.observation(0)
    twin_bots = [make_bot("praga", "random", 7 + i) for i in range(players)]
    advance(twin, twin_bots)
    assert state.observation(0) == before
    assert roundtrip(before) == before


@settings(max_examples=cases(10), deadline=None)
@given(games)
def test_observations_do_not_depend_on_the_order_of_face_down_stacks(game):
    players, seed, variant = game
    state = PRAGA.new_game(players, VARIANTS[variant], seed)
    bots = [make_bot("praga", "random", i) for i in range(players)]
    advance(state, bots, seed % 200)
    twin = state.clone()
    for pile in list(twin.stacks.values()) + list(twin.tech_stacks.values()):
        pile.reverse()
    for pile in (twin.iv_stack, twin.v_bridge, twin.v_cathedral):
        pile.reverse()
    for seat in range(players):
        assert twin.observation(seat) == state.observation(seat)
        text = str(state.observation(seat))
        assert "seed" not in text


@settings(max_examples=cases(6), deadline=None)
@given(games)
def test_every_offered_option_applies_and_keeps_the_invariants(game):
    players, seed, variant = game
    state = PRAGA.new_game(players, VARIANTS[variant], seed)
    bots = [make_bot("praga", "random", seed + i) for i in range(players)]
    step = 0
    while not state.is_over():
        d = state.decision()
        if step % 9 == 0:
            for option in d.options:
                twin = state.clone()
                twin.apply(option)
                check_invariants(twin)
                assert twin.is_over() or twin.decision().options
        state.apply(bots[d.seat].choose(None, d.kind, d.options))
        step += 1
