"""The eight base characters (seed 001 角色介紹 1-8; seed 003 角色卡)."""

from .builders import do, kinds, names, offers, table


def test_the_assassins_victim_misses_its_whole_turn():
    # seed 001 刺客: name a character, not a player; it loses its turn.
    s = table(characters={0: "assassin", 1: "merchant", 2: "king"}, gold={1: 4})
    do(s, "take_gold")
    do(s, "kill", character="merchant")
    do(s, "end_turn")
    assert s.decision().seat == 2  # the King is called next; the Merchant never plays
    assert s.gold[1] == 4
    assert {"event": "killed", "character": "merchant"} in s.events


def test_the_assassin_may_not_name_himself():
    s = table(characters={0: "assassin", 1: "king"})
    do(s, "take_gold")
    assert not offers(s, "kill", character="assassin")
    assert offers(s, "kill", character="king")


def test_the_thief_takes_all_the_gold_of_the_robbed_character_when_it_is_revealed():
    # seed 001 盜賊; FAQ: at the reveal, before the victim does anything.
    s = table(characters={0: "thief", 1: "merchant"}, gold={0: 0, 1: 5})
    do(s, "take_gold")
    do(s, "rob", character="merchant")
    do(s, "end_turn")
    assert s.gold == [7, 0, 0, 0]
    do(s, "take_gold")
    assert s.gold[1] == 3  # 2 gold + the Merchant's 1 after the theft


def test_the_thief_may_not_rob_the_assassin_or_its_victim():
    s = table(characters={0: "assassin", 1: "thief", 2: "king"})
    do(s, "take_gold")
    do(s, "kill", character="king")
    do(s, "end_turn")
    do(s, "take_gold")
    assert not offers(s, "rob", character="assassin")
    assert not offers(s, "rob", character="king")
    assert not offers(s, "rob", character="thief")
    assert offers(s, "rob", character="bishop")


def test_the_magician_swaps_hands_even_with_an_empty_hand():
    s = table(characters={0: "magician"}, hands={0: [], 1: ["manor", "temple"]})
    do(s, "take_gold")
    do(s, "swap_hands", seat=1)
    assert names(s.hands[0]) == ["manor", "temple"] and s.hands[1] == []


def test_the_magician_discards_one_card_at_a_time_then_draws_as_many():
    s = table(
        characters={0: "magician"},
        hands={0: ["manor", "temple", "tavern"]},
        deck_top=["palace", "castle"],
    )
    do(s, "take_gold")
    do(s, "discard_draw")
    assert s.decision().kind == "magician_discard"
    assert not offers(s, "done")  # at least one card first
    do(s, "discard", district="manor")
    do(s, "discard", district="temple")
    do(s, "done")
    assert names(s.hands[0]) == ["castle", "palace", "tavern"]
    assert names(s.deck[:2]) == ["manor", "temple"]  # FAQ 魔法師: to the bottom


def test_the_king_takes_the_crown_and_noble_income():
    s = table(characters={1: "king"}, cities={1: ["manor", "palace", "temple"]}, crown=0)
    assert s.crown == 1  # taken when called
    do(s, "take_gold")
    do(s, "collect_income")
    assert s.gold[1] == 4


def test_the_crown_stays_when_nobody_is_king():
    # seed 001 國王 / FAQ: if the King does not appear, the crown stays.
    s = table(characters={0: "assassin", 1: "bishop"}, crown=3)
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "end_turn")
    assert s.crown == 3


def test_the_bishop_collects_for_religious_districts_and_is_safe_from_the_warlord():
    s = table(
        characters={0: "bishop", 1: "warlord"},
        cities={0: ["temple", "church"], 1: []},
        gold={1: 9},
    )
    do(s, "take_gold")
    do(s, "collect_income")
    assert s.gold[0] == 4
    do(s, "end_turn")
    do(s, "take_gold")
    assert "destroy" not in kinds(s)


def test_the_merchant_gets_one_more_gold_with_the_action_and_trade_income():
    s = table(characters={0: "merchant"}, cities={0: ["tavern", "market"]})
    do(s, "take_gold")
    assert s.gold[0] == 3
    do(s, "collect_income")
    assert s.gold[0] == 5


def test_the_merchant_gets_his_gold_also_when_drawing():
    s = table(characters={0: "merchant"}, deck_top=["manor", "temple"])
    do(s, "draw_cards")
    do(s, "keep", district="manor")
    assert s.gold[0] == 1


def test_the_architect_draws_two_more_cards_and_builds_up_to_three():
    s = table(
        characters={0: "architect"},
        hands={0: ["temple", "tavern", "watchtower", "manor"]},
        gold={0: 1},
        deck_top=["castle", "palace"],
    )
    do(s, "take_gold")
    assert len(s.hands[0]) == 6
    do(s, "build", district="temple")
    do(s, "build", district="tavern")
    do(s, "build", district="watchtower")
    assert "build" not in kinds(s)
    assert names(s.cities[0]) == ["tavern", "temple", "watchtower"]


def test_other_characters_build_one_district():
    s = table(characters={0: "merchant"}, hands={0: ["temple", "tavern"]}, gold={0: 5})
    do(s, "take_gold")
    do(s, "build", district="temple")
    assert "build" not in kinds(s)


def test_the_warlord_pays_cost_minus_one_to_destroy():
    # seed 001 軍閥: a cost-1 district is free, a cost-5 one costs 4.
    s = table(
        characters={0: "warlord"},
        cities={1: ["watchtower", "palace"], 2: ["cathedral"]},
        gold={0: 2},
    )
    do(s, "take_gold")
    assert offers(s, "destroy", seat=1, district="watchtower")
    assert offers(s, "destroy", seat=1, district="palace")
    do(s, "destroy", seat=1, district="palace")
    assert s.gold[0] == 0 and names(s.cities[1]) == ["watchtower"]
    assert names(s.deck[:1]) == ["palace"]  # to the bottom of the deck


def test_the_warlord_collects_for_military_districts():
    s = table(characters={0: "warlord"}, cities={0: ["prison", "fortress", "temple"]})
    do(s, "take_gold")
    do(s, "collect_income")
    assert s.gold[0] == 4


def test_the_warlords_destruction_ends_his_turn():
    # seed 001 軍閥: the destruction happens at the end of the turn.
    s = table(
        characters={0: "warlord", 1: "queen"}, cities={1: ["tavern"]}, options={"rank9": "queen"}
    )
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="tavern")
    assert s.decision().seat == 1


def test_a_power_may_be_used_before_the_action():
    # seed 001 角色技能: any moment of the turn; the Magician swaps before drawing.
    s = table(characters={0: "magician"}, hands={1: ["manor"]})
    do(s, "swap_hands", seat=1)
    assert s.decision().kind == "action" and names(s.hands[0]) == ["manor"]
    assert "swap_hands" not in kinds(s)  # once a turn
