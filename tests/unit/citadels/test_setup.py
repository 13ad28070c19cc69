"""Setting up: the deck, the characters in play, hands, gold, the crown; options."""

import pytest

from engine.citadels.components import BANK_GOLD, COPIES, DARK_CITY_DISTRICTS
from engine.citadels.title import CITADELS
from engine.core.errors import ConfigError


def test_the_base_deck_has_66_district_cards_54_normal_and_12_purple():
    assert sum(COPIES) == 80  # with the 14 Dark City purples
    s = CITADELS.new_game(4, seed=1)
    assert len(s.deck) + sum(map(len, s.hands)) == 66


def test_each_player_starts_with_four_cards_and_two_gold_from_a_bank_of_thirty():
    s = CITADELS.new_game(6, seed=1)
    assert [len(h) for h in s.hands] == [4] * 6 and s.gold == [2] * 6
    assert s.bank == BANK_GOLD - 12


def test_the_first_crown_goes_to_a_random_player():
    crowns = {CITADELS.new_game(4, seed=seed).crown for seed in range(40)}
    assert crowns == {0, 1, 2, 3}


def test_all_fourteen_dark_city_districts_replace_eleven_base_purples():
    s = CITADELS.new_game(4, {"dark_city_districts": list(DARK_CITY_DISTRICTS)}, seed=1)
    assert len(s.deck) + sum(map(len, s.hands)) == 66 + 3


def test_dark_city_characters_replace_the_base_character_of_their_rank():
    options = {"dark_city_characters": ["witch", "navigator"]}
    s = CITADELS.new_game(4, options, seed=1)
    names = s.observation(0)["characters_in_game"]
    assert names == [
        "witch",
        "thief",
        "magician",
        "king",
        "bishop",
        "merchant",
        "navigator",
        "warlord",
    ]


def test_bad_options_are_refused_with_the_allowed_values():
    with pytest.raises(ConfigError, match="end_districts"):
        CITADELS.options(4, end_districts=9)
    with pytest.raises(ConfigError, match="not allowed"):
        CITADELS.options(4, dark_city_characters=["queen"])
    with pytest.raises(ConfigError):
        CITADELS.options(9)


def test_default_options_follow_the_seeds_for_each_player_count():
    assert CITADELS.options(2)["end_districts"] == 10
    assert CITADELS.options(3)["end_districts"] == 10
    assert CITADELS.options(4)["end_districts"] == 8
    assert CITADELS.options(8)["rank9"] == "queen"
    assert CITADELS.options(5)["tie_break"] == "shared"
