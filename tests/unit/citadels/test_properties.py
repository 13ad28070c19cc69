"""Properties of random games for every player count 2-8 and option set (hypothesis).

Cards and gold are conserved, no city holds a duplicate except through the Quarry or the
Wizard, every decision offers options, none twice, and every option applies, and an observation never
depends on another seat's hand or the deck order, nor contains the seed.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.citadels.components import (
    BANK_GOLD,
    DARK_CITY_CHARACTERS,
    DARK_CITY_DISTRICTS,
    QUARRY,
    WIZARD,
)
from engine.citadels.options import ABBOT_TIES, DIPLOMAT_TIMINGS, EXPANSION_REMOVALS
from engine.citadels.title import CITADELS
from engine.core.rng import Rng
from tests.support.budget import cases

from .builders import total_cards, total_gold

pytestmark = pytest.mark.fuzz

BIG_SEED = 918_273_645_546_372


@st.composite
def game_setups(draw, players=None):
    players = players or draw(st.integers(2, 8))
    rank9 = draw(
        st.sampled_from(("queen", "artist") if players == 8 else ("none", "queen", "artist"))
    )
    options = {
        "dark_city_characters": draw(st.lists(st.sampled_from(DARK_CITY_CHARACTERS), unique=True)),
        "dark_city_districts": draw(st.lists(st.sampled_from(DARK_CITY_DISTRICTS), unique=True)),
        "rank9": rank9,
        "end_districts": draw(st.sampled_from((7, 8, 10))),
        "three_player_rule": draw(st.sampled_from(("seed_no_assassin", "two_characters_each"))),
        "tie_break": draw(st.sampled_from(("shared", "district_value_then_gold"))),
        "diplomat_timing": draw(st.sampled_from(DIPLOMAT_TIMINGS)),
        "abbot_tie": draw(st.sampled_from(ABBOT_TIES)),
        "expansion_removal": draw(st.sampled_from(EXPANSION_REMOVALS)),
    }
    return players, options, draw(st.integers(0, 2**40))


def duplicates(city):
    return len(city) - len(set(city))


def play_checked(players, options, seed, observe_every=0):
    state = CITADELS.new_game(players, options, seed)
    cards = total_cards(state)
    chooser = Rng(seed, stream=11)
    steps = 0
    while not state.is_over():
        decision = state.decision()
        assert decision.options, f"{decision.kind} offers no option"
        distinct = {tuple(sorted(o.items())) for o in decision.options}
        assert len(distinct) == len(decision.options), f"{decision.kind}: an option twice"
        before = [duplicates(c) for c in state.cities]
        quarry = [QUARRY in c for c in state.cities]
        wizard_seat = state.t_seat if state.t_char == WIZARD else -1
        state.apply(chooser.below(len(decision.options)))
        assert total_gold(state) == BANK_GOLD and state.bank >= 0 and min(state.gold) >= 0
        assert total_cards(state) == cards
        for seat, city in enumerate(state.cities):
            if duplicates(city) > before[seat]:
                assert quarry[seat] or seat == wizard_seat, f"duplicate in city {seat}: {city}"
        if observe_every and steps % observe_every == 0:
            check_observations(state)
        steps += 1
    result = state.result()
    assert sorted(result["ranks"])[0] == 1 and len(result["scores"]) == players
    return state


def shuffle(items, rng):
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def check_observations(state):
    """Scrambling the hidden cards (other hands, deck order) leaves each observation unchanged."""
    for seat in range(state.players):
        view = state.observation(seat)
        twin = state.clone()
        hidden = list(twin.deck)
        for other in range(twin.players):
            if other != seat:
                hidden += twin.hands[other]
        shuffle(hidden, Rng(len(hidden) + seat, stream=3))  # same cards, new places
        twin.deck = hidden[: len(twin.deck)]
        rest = hidden[len(twin.deck) :]
        for other in range(twin.players):
            if other != seat:
                size = len(twin.hands[other])
                twin.hands[other], rest = rest[:size], rest[size:]
        assert twin.observation(seat) == view


@settings(max_examples=cases(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_setups())
def test_random_games_conserve_cards_and_gold_and_every_option_applies(setup):
    play_checked(*setup)


@settings(max_examples=cases(15), deadline=None)
@given(game_setups())
def test_observations_do_not_depend_on_hidden_cards(setup):
    play_checked(*setup, observe_every=11)


@pytest.mark.parametrize("players", range(2, 9))
def test_many_random_games_for_every_player_count(players):
    """A sweep with the per-decision checks: 40 games per player count in the full run,
    all Dark City on."""
    options = {
        "dark_city_characters": list(DARK_CITY_CHARACTERS),
        "dark_city_districts": list(DARK_CITY_DISTRICTS),
        "rank9": "artist" if players % 2 else "queen",
    }
    for seed in range(cases(40)):
        play_checked(players, options, seed * 7919 + players)


def sweep_options(players, game):
    """The option set of game number ``game`` of the sweep: cycles through character pairs,
    expansion districts (none, up to 3, beyond 3, all), rank 9, end thresholds and rules."""
    characters = DARK_CITY_CHARACTERS
    districts = DARK_CITY_DISTRICTS
    rank9 = ("none", "queen", "artist")[game % 3]
    if players == 8 and rank9 == "none":
        rank9 = "queen"
    return {
        "dark_city_characters": list(characters[game % 9 :: 1 + game % 3]),
        "dark_city_districts": list(districts[: (0, 2, 3, 7, len(districts))[game % 5]]),
        "rank9": rank9,
        "end_districts": (8, 7, 10, 8)[game % 4],
        "three_player_rule": ("seed_no_assassin", "two_characters_each")[game % 2],
        "tie_break": ("shared", "district_value_then_gold")[game // 2 % 2],
        "diplomat_timing": DIPLOMAT_TIMINGS[game // 3 % 2],
        "abbot_tie": ABBOT_TIES[game // 5 % 2],
        "expansion_removal": EXPANSION_REMOVALS[game // 7 % 2],
    }


def check_round_invariants(state, cards, allowed_duplicates):
    """Cheap checks at each round boundary: gold and cards conserved, no unexplained duplicate."""
    assert total_gold(state) == BANK_GOLD and state.bank >= 0 and min(state.gold) >= 0
    assert total_cards(state) == cards
    for seat, city in enumerate(state.cities):
        if QUARRY in city:
            allowed_duplicates.add(seat)
        if duplicates(city):
            assert seat in allowed_duplicates or wizard_played(state, seat), city


def wizard_played(state, seat):
    """The seat played the Wizard (or, as the Witch, resumed the Wizard's turn) or took part
    in a Quarry exchange: a duplicate may come from there (read from the public event log)."""
    for event in state.events:
        kind = event["event"]
        if kind == "reveal" and event["character"] == "wizard" and event["seat"] == seat:
            return True
        if kind == "witch_resumes" and event["character"] == "wizard" and event["seat"] == seat:
            return True
        quarry = "quarry" in (event.get("district"), event.get("gave"), event.get("took"))
        if quarry and seat in (event.get("seat"), event.get("victim")):
            return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_a_thousand_random_games_for_every_player_count(players):
    """1,000 games per player count across option sets in the full run (``make fuzz``; a
    plain run plays the first fifth). Per decision only what is cheap (an option is offered
    and applies); conservation and duplicates at every round boundary and at the end; every
    100th game replays from its record to the identical result."""
    for game in range(cases(1000)):
        options = sweep_options(players, game)
        seed = game * 104_729 + players
        state = CITADELS.new_game(players, options, seed)
        cards = total_cards(state)
        allowed_duplicates = set()
        chooser = Rng(seed, stream=13)
        below = chooser.below
        current_round = state.round
        while not state.is_over():
            decision = state.decision()
            count = len(decision.options)
            assert count, f"{decision.kind} offers no option"
            state.apply(below(count))
            if state.round != current_round:
                current_round = state.round
                check_round_invariants(state, cards, allowed_duplicates)
        check_round_invariants(state, cards, allowed_duplicates)
        result = state.result()
        assert sorted(result["ranks"])[0] == 1 and len(result["scores"]) == players
        if game % 100 == 0:
            again = CITADELS.replay(json.loads(json.dumps(state.record())))
            assert again.result() == result


def test_the_seed_never_appears_in_an_observation():
    state = CITADELS.new_game(5, {"dark_city_districts": list(DARK_CITY_DISTRICTS)}, BIG_SEED)
    chooser = Rng(1, stream=2)
    while not state.is_over():
        for seat in range(5):
            assert str(BIG_SEED) not in json.dumps(state.observation(seat))
        state.apply(chooser.below(len(state.decision().options)))


def test_a_record_replays_to_the_same_result_with_every_option():
    options = {
        "dark_city_characters": list(DARK_CITY_CHARACTERS),
        "dark_city_districts": list(DARK_CITY_DISTRICTS),
        "rank9": "artist",
    }
    for seed in range(10):
        state = play_checked(6, options, seed)
        again = CITADELS.replay(json.loads(json.dumps(state.record())))
        assert again.result() == state.result()


def scramble_hidden_characters(state, seat, rng):
    """A twin where the characters ``seat`` cannot know are dealt differently: the uncalled
    characters of other seats and the face-down discards, minus any character the seat was
    shown in the draft (it may reason from those). The twin keeps every count the same."""
    twin = state.clone()
    seen = {c for offered in twin.seen[seat] for c in offered}
    mine = set(twin.ranks_of[seat])
    slots = []  # (holder seat or -1 for face down, rank)
    for rank in range(twin.calling + 1, 10):
        character = twin.lineup[rank]
        if character < 0 or character in seen or rank in mine:
            continue
        holder = twin.holder[rank]
        if holder >= 0 or character in twin.aside_down:
            slots.append((holder, rank))
    holders = [holder for holder, _ in slots]
    shuffle(holders, rng)
    aside = [c for c in twin.aside_down if c not in {twin.lineup[r] for _, r in slots}]
    ranks_of = [[r for r in ranks if r not in {r2 for _, r2 in slots}] for ranks in twin.ranks_of]
    for (_, rank), holder in zip(slots, holders, strict=True):
        twin.holder[rank] = holder
        if holder >= 0:
            ranks_of[holder].append(rank)
        else:
            aside.append(twin.lineup[rank])
    twin.aside_down = aside
    twin.ranks_of = [tuple(sorted(ranks)) for ranks in ranks_of]
    return twin


@settings(max_examples=cases(12), deadline=None)
@given(game_setups())
def test_observations_do_not_depend_on_characters_the_seat_has_not_seen(setup):
    """Issue 2 Observations: other seats' characters stay hidden until they are called, and
    face-down discards the seat did not see are never shown."""
    players, options, seed = setup
    state = CITADELS.new_game(players, options, seed)
    chooser = Rng(seed, stream=17)
    step = 0
    while not state.is_over():
        if step % 7 == 0:
            for seat in range(players):
                twin = scramble_hidden_characters(state, seat, Rng(step + seat, stream=5))
                assert twin.observation(seat) == state.observation(seat)
        state.apply(chooser.below(len(state.decision().options)))
        step += 1
