"""The ``search`` bot: worlds rebuilt from an observation, determinism given its seed, its
budget, legal play, and no use of hidden information."""

import pytest

from engine import make_bot
from engine.core.play import play_out
from engine.core.rng import Rng
from engine.praga.search import SearchBot
from engine.praga.worlds import HiddenPiles, is_turn_start, public_world, sample_hidden

from .helpers import PRAGA

pytestmark = pytest.mark.slow


def small(seed=0, **budget):
    return SearchBot(seed, **{"iterations": 6, "candidates": 3, "time_limit": None, **budget})


def turn_starts(players, seed, limit=None):
    """(state, seat) at the start of every turn of a climber game."""
    state = PRAGA.new_game(players, seed=seed)
    bots = [make_bot("praga", "climber", seed + i) for i in range(players)]
    found = 0
    while not state.is_over() and (limit is None or found < limit):
        d = state.decision()
        obs = state.observation(d.seat)
        if d.kind == "turn" and is_turn_start(obs):
            found += 1
            yield state.clone(), d.seat
        state.apply(bots[d.seat].choose(obs, d.kind, d.options))


def test_a_world_rebuilt_from_an_observation_shows_every_seat_what_the_game_shows():
    for players in (1, 2, 4):
        for state, seat in turn_starts(players, seed=players):
            obs = state.observation(seat)
            world = public_world(PRAGA, obs)
            world = sample_hidden(world, HiddenPiles(world, obs), Rng(1), 2)
            assert world.decision() == state.decision()
            for other in range(players):
                assert world.observation(other) == state.observation(other)


def test_sampled_piles_hold_only_tiles_the_seat_has_not_seen():
    state, seat = list(turn_starts(2, seed=5, limit=12))[-1]
    obs = state.observation(seat)
    world = public_world(PRAGA, obs)
    hidden = HiddenPiles(world, obs)
    shown = {x["id"] for row in obs["rows"]["display"].values() for x in row if x}
    shown |= {b["tile"] for b in obs["city"]["buildings"]}
    for seed in range(5):
        sampled = sample_hidden(world, hidden, Rng(seed), seed)
        dealt = {PRAGA.components.tiles[t].id for pile in sampled.stacks.values() for t in pile}
        assert not dealt & shown
        assert sampled.observation(seat) == obs


def play(bot, state, decisions):
    """Let ``bot`` make the first ``decisions`` decisions of a solo game."""
    for _ in range(decisions):
        d = state.decision()
        state.apply(bot.choose(state.observation(d.seat), d.kind, d.options))
    return state


def test_the_same_seed_makes_the_same_choices():
    def game(seed):
        bot = small(seed)
        return play(bot, PRAGA.new_game(1, seed=11), 50).actions(), bot.playouts

    first, again = game(3), game(3)
    assert first == again and first[1] > 0


def test_choices_do_not_depend_on_what_is_hidden_from_the_bot():
    for state, seat in turn_starts(2, seed=7, limit=6):
        twin = state.clone()
        # every face-down order differs; everything the seat sees is the same
        for pile in [*twin.stacks.values(), *twin.tech_stacks.values(), twin.iv_stack]:
            pile.reverse()
        twin.v_bridge, twin.v_cathedral = twin.v_cathedral[::-1], twin.v_bridge[::-1]
        position = twin.position()  # and the generator draws another future
        position["chance"]["rng"] = list(Rng(999).getstate())
        twin = PRAGA.load_position(position)
        obs, twin_obs = state.observation(seat), twin.observation(seat)
        assert obs == twin_obs
        options = state.decision().options
        assert small(4).choose(obs, "turn", options) == small(4).choose(twin_obs, "turn", options)


def test_every_decision_stays_within_the_playout_budget():
    bot = small(1, iterations=5, candidates=4)
    state = PRAGA.new_game(1, seed=2)
    most = 0
    for _ in range(50):
        d = state.decision()
        before = bot.playouts
        state.apply(bot.choose(state.observation(d.seat), d.kind, d.options))
        most = max(most, bot.playouts - before)
    # sequential halving spends at most the budget, and at least one world per candidate
    assert 0 < most <= 5 + 4


def test_a_spent_time_cap_still_answers_with_a_legal_option_after_one_world():
    bot = small(1, iterations=1000, candidates=4, time_limit=0.0)
    state = PRAGA.new_game(1, seed=2)
    d = state.decision()
    before = bot.playouts
    index = bot.choose(state.observation(0), d.kind, d.options)
    assert 0 <= index < len(d.options)
    assert bot.playouts - before <= 4  # one sampled world for each candidate, then the cap


def test_it_plays_legal_four_player_games_to_the_end_against_climbers():
    bots = [make_bot("praga", "climber", i) for i in range(4)]
    bots[2] = small(5, iterations=2, candidates=2)
    state = play_out(PRAGA.new_game(4, seed=21), bots)
    assert state.is_over() and PRAGA.replay(state.record()).is_over()
    assert bots[2].playouts > 0


def test_it_is_a_registered_built_in_bot():
    bot = make_bot("praga", "search", 3)
    assert isinstance(bot, SearchBot) and bot.components is PRAGA.components


def test_the_tuned_heuristic_is_a_built_in_bot_that_plays_legal_games():
    for players in (1, 4):
        names = ["tuned"] + ["climber"] * (players - 1)
        bots = [make_bot("praga", name, i) for i, name in enumerate(names)]
        state = play_out(PRAGA.new_game(players, seed=8), bots)
        assert PRAGA.replay(state.record()).is_over()
