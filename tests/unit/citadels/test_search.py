"""The ``search`` bot: legal, deterministic given its seed, within its playout budget, and
blind to what its observation hides; its determinizations agree with the game it sees."""

import pytest

import engine
from engine.citadels.components import (
    CHARACTER_INDEX,
    CHARACTER_RANK,
    DARK_CITY_CHARACTERS,
    DARK_CITY_DISTRICTS,
)
from engine.citadels.determinize import SUPPORTED_KINDS, Determinizer
from engine.citadels.search import SearchBot
from engine.core import positions
from engine.core.play import play_out
from engine.core.rng import Rng
from engine.core.rootsearch import RootSearch

FULL = {
    "dark_city_characters": list(DARK_CITY_CHARACTERS),
    "dark_city_districts": list(DARK_CITY_DISTRICTS),
}
CITADELS = engine.title("citadels")


def builders(players: int, seed: int) -> list:
    return [engine.make_bot("citadels", "builder", seed * 10 + v) for v in range(players)]


def test_search_is_a_registered_built_in_bot_that_thinks():
    assert "search" in engine.bots("citadels")
    assert "search" not in engine.bots("citadels", thinking=False)
    bot = engine.make_bot("citadels", "search", 1)
    assert isinstance(bot, SearchBot) and bot.seconds == 1.0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7, 8])
def test_it_plays_legal_games_to_the_end_at_every_table_size(players):
    options = {**FULL, "rank9": "queen" if players == 8 else "artist"}
    bots = builders(players, players)
    search = SearchBot(players, iterations=3, seconds=None)
    bots[players // 2] = search
    state = play_out(CITADELS.new_game(players, options, players), bots)
    assert state.is_over()
    # Every choice was one of the legal options: the record replays to the same result.
    assert CITADELS.replay(state.record()).result() == state.result()
    assert search.searches > 0 and search.fallbacks == 0


def play_one(seed: int, iterations: int = 8):
    bots = builders(4, 1)
    search = SearchBot(seed, iterations=iterations, seconds=None)
    bots[2] = search
    state = play_out(CITADELS.new_game(4, FULL, 11), bots)
    return state.actions(), search


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    first, _ = play_one(seed=5)
    again, _ = play_one(seed=5)
    other, _ = play_one(seed=6)
    assert first == again
    assert first != other


def first_decision(state, kind: str, seat: int | None = None, at_least: int = 3):
    """Builders play until ``seat`` (any seat) faces a ``kind`` decision with options."""
    bots = builders(state.players, 3)
    while True:
        decision = state.decision()
        if (
            decision.kind == kind
            and len(decision.options) >= at_least
            and seat in (None, decision.seat)
        ):
            return decision
        observation = state.observation(decision.seat)
        state.apply(bots[decision.seat].choose(observation, decision.kind, decision.options))


def test_a_search_spends_exactly_its_playout_budget_at_most():
    state = CITADELS.new_game(4, FULL, 2)
    decision = first_decision(state, "draft_pick")
    bot = SearchBot(1, iterations=24, seconds=None)
    choice = bot.choose(state.observation(decision.seat), decision.kind, decision.options)
    assert 0 <= choice < len(decision.options)
    assert 0 < bot.last_iterations <= 24 and bot.playouts == bot.last_iterations
    assert bot.capped == 0
    # Sequential Halving's rounds use the whole budget but for the rounding down.
    assert bot.last_iterations > 24 // 2
    # Fewer playouts than options: no search at all, the builder policy decides.
    small = SearchBot(1, iterations=len(decision.options) - 1, seconds=None)
    small.choose(state.observation(decision.seat), decision.kind, decision.options)
    assert small.searches == 0 and small.playouts == 0


@pytest.mark.parametrize("budget", [5, 7, 16, 33])
def test_sequential_halving_never_spends_more_than_its_budget(budget):
    search = RootSearch(5, budget)
    choice = search.run(lambda option, sample: (option * 7 + sample) % 5 / 4)
    assert 0 <= choice < 5 and 5 <= search.spent <= budget


def test_the_clock_only_caps_a_search():
    # A clock that moves one second per reading: the 2-second cap stops the search early.
    ticks = iter(range(10_000))
    state = CITADELS.new_game(4, FULL, 2)
    decision = first_decision(state, "draft_pick")
    bot = SearchBot(1, iterations=1000, seconds=2, clock=lambda: next(ticks))
    choice = bot.choose(state.observation(decision.seat), decision.kind, decision.options)
    assert 0 <= choice < len(decision.options)
    assert bot.capped == 1 and bot.last_iterations < 1000


def test_a_single_option_is_played_without_search():
    bot = SearchBot(1, iterations=50, seconds=None)
    state = CITADELS.new_game(4, FULL, 2)
    observation = state.observation(0)
    assert bot.choose(observation, "turn", [{"kind": "end_turn"}]) == 0
    assert bot.searches == 0


def hide_differently(state, seat: int):
    """A twin of ``state`` that differs only in what ``seat`` cannot see: the other hands are
    dealt afresh from the deck and the deck is reordered; the characters the other seats
    picked are swapped with the face-down one."""
    twin = state.clone()
    others = [v for v in range(twin.players) if v != seat]
    pool = twin.deck + [k for v in others for k in twin.hands[v]]
    pool.reverse()
    for v in others:
        size = len(twin.hands[v])
        twin.hands[v], pool = pool[:size], pool[size:]
    twin.deck = pool
    down = twin.aside_down[0]
    picker = next(v for v in others if twin.ranks_of[v])
    (rank,) = twin.ranks_of[picker]
    picked = twin.lineup[rank]
    twin.aside_down[0] = picked
    new_rank = CHARACTER_RANK[down]
    twin.holder[rank], twin.holder[new_rank] = -1, picker
    twin.ranks_of[picker] = (new_rank,)
    positions.reload(twin)
    return twin


def test_its_choices_depend_only_on_its_observation_never_on_hidden_cards_or_characters():
    state = CITADELS.new_game(4, FULL, 9)
    # a draft pick late enough that other seats already hold hidden characters
    decision = first_decision(state, "draft_pick")
    while not any(state.ranks_of[v] for v in range(4) if v != decision.seat):
        state.apply(0)
        decision = first_decision(state, "draft_pick")
    twin = hide_differently(state, decision.seat)
    assert twin.hands != state.hands and twin.holder != state.holder
    assert twin.decision() == decision
    seen = state.observation(decision.seat)
    assert twin.observation(decision.seat) == seen
    picks = []
    for game in (state, twin):
        bot = SearchBot(4, iterations=30, seconds=None)
        picks.append(bot.choose(game.observation(decision.seat), decision.kind, decision.options))
        game.apply(picks[-1])
    assert picks[0] == picks[1]


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (2, 2), (3, 3), (7, 4)])
def test_every_determinization_shows_the_seat_exactly_what_it_observed(players, seed):
    # Whatever hidden parts a sample deals, the seat's view of it is the observation it was
    # built from (the log aside, which samples do not copy), and the same options are open.
    options = {**FULL, "rank9": "artist"}
    state = CITADELS.new_game(players, options, seed)
    bots = builders(players, seed)
    rng = Rng(seed)
    checked = 0
    while not state.is_over():
        decision = state.decision()
        observation = state.observation(decision.seat)
        if decision.kind in SUPPORTED_KINDS and len(decision.options) > 1:
            sample = Determinizer(CITADELS, observation, decision.kind).sample(rng)
            seen = sample.observation(decision.seat)
            assert {**seen, "events": []} == {**observation, "events": []}
            assert sample.decision() == decision
            checked += 1
        state.apply(bots[decision.seat].choose(observation, decision.kind, decision.options))
    assert checked > 20


def test_characters_revealed_this_round_sit_where_they_were_revealed():
    state = CITADELS.new_game(5, FULL, 6)
    bots = builders(5, 6)
    while not (state.decision().kind == "turn" and state.calling >= 5):
        decision = state.decision()
        observation = state.observation(decision.seat)
        state.apply(bots[decision.seat].choose(observation, decision.kind, decision.options))
    decision = state.decision()
    observation = state.observation(decision.seat)
    revealed = {
        CHARACTER_RANK[CHARACTER_INDEX[e["character"]]]: e["seat"]
        for e in observation["events"][
            max(i for i, e in enumerate(observation["events"]) if e["event"] == "round") :
        ]
        if e["event"] == "reveal"
    }
    assert revealed
    determinizer = Determinizer(CITADELS, observation, decision.kind)
    for k in range(20):
        sample = determinizer.sample(Rng(k))
        for rank, seat in revealed.items():
            assert sample.holder[rank] == seat
        # one character each, none of them a rank already called without an answer
        assert all(len(ranks) == 1 for ranks in sample.ranks_of)
