"""Decisions on points the sources leave open ([U] in reference/citadels.md), one test each.
The reasoning is in docs/rules/citadels.md, "Decisions on unconfirmed points"."""

from .builders import dark, do, kinds, names, table


def test_a_bewitched_emperor_lets_the_witch_give_the_crown_and_take_the_tribute():
    s = table(
        options=dark("witch", "emperor"),
        characters={0: "witch", 1: "emperor"},
        crown=2,
        gold={3: 2},
    )
    do(s, "take_gold")
    do(s, "bewitch", character="emperor")
    do(s, "take_gold")  # the Emperor's player: action only
    assert s.decision().seat == 0 and "end_turn" not in kinds(s)
    do(s, "give_crown", seat=3)
    do(s, "tribute_gold")
    assert s.crown == 3 and s.gold[0] == 3


def test_a_killed_tax_collector_collects_nothing():
    s = table(
        options=dark("tax_collector"),
        characters={0: "assassin", 1: "tax_collector", 2: "bishop"},
        hands={2: ["temple"]},
        gold={2: 2},
    )
    do(s, "take_gold")
    do(s, "kill", character="tax_collector")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "build", district="temple")
    do(s, "end_turn")
    assert s.gold[1] == 0 and s.gold[2] == 3


def test_the_graveyard_may_take_a_district_destroyed_in_another_city():
    s = table(characters={0: "warlord"}, cities={1: ["manor"], 2: ["graveyard"]}, gold={0: 2, 2: 1})
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="manor")
    assert s.decision().seat == 2
    do(s, "recover", district="manor")
    assert names(s.hands[2]) == ["manor"]


def test_gold_on_a_destroyed_beautified_district_returns_to_the_bank():
    s = table(characters={0: "warlord"}, cities={1: ["manor"]}, gold={0: 5})
    s.adorned[1] = [1]
    s.bank -= 1
    do(s, "take_gold")
    bank = s.bank
    do(s, "destroy", seat=1, district="manor")  # 3 - 1 + 1 = 3
    assert s.gold[0] == 4 and s.bank == bank + 3 + 1


def test_the_diplomat_may_not_take_from_the_bishop_and_the_abbot_gives_no_protection():
    s = table(
        options=dark("diplomat", "abbot"),
        characters={0: "abbot", 1: "diplomat"},
        cities={0: ["church"], 1: ["temple"]},
        gold={1: 3},
    )
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "exchange", seat=0, district="church")
    do(s, "give", district="temple")
    assert names(s.cities[1]) == ["church"]


def test_the_emperor_never_gives_the_crown_to_its_current_holder_or_himself():
    s = table(options=dark("emperor"), characters={2: "emperor"}, crown=1)
    do(s, "take_gold")
    seats = {o["seat"] for o in s.decision().options if o["kind"] == "give_crown"}
    assert seats == {0, 3}


def test_the_laboratory_is_offered_with_an_empty_bank_and_then_pays_nothing():
    # Engine choice (the seed is silent): the discard stays a legal move; 001 FAQ 銀行: an
    # empty bank pays nothing.
    s = table(
        options=dark(districts=["armory"]),
        characters={0: "king"},
        cities={0: ["laboratory"]},
        hands={0: ["manor"]},
        gold={0: 30},
    )
    assert s.bank == 0
    do(s, "laboratory", district="manor")
    assert s.gold[0] == 30 and s.hands[0] == []


def test_beyond_three_expansion_districts_the_any_base_option_may_remove_normal_cards():
    from engine.citadels.components import BASE_PURPLE_KINDS
    from engine.citadels.title import CITADELS

    added = ["armory", "museum", "park", "quarry", "factory"]
    kept_purples = set()
    for seed in range(10):
        options = {"dark_city_districts": added, "expansion_removal": "any_base"}
        s = CITADELS.new_game(4, options, seed)
        cards = s.deck + [k for h in s.hands for k in h]
        assert len(cards) == 66 + 3
        kept_purples.add(sum(1 for k in cards if k in BASE_PURPLE_KINDS))
    assert 12 in kept_purples  # both cards removed were normal districts in some game
