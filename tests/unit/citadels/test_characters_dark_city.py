"""The Dark City characters and rank 9 (seed 001 擴展角色介紹 and 角色FAQ ☆)."""

from .builders import dark, do, kinds, names, offers, table


def witch_table(target, **kw):
    return table(
        options=dark("witch", **kw.pop("opts", {})), characters={0: "witch", 1: target}, **kw
    )


def test_the_witch_bewitches_after_her_action_and_her_turn_ends_at_once():
    s = witch_table("merchant", hands={0: ["temple"]}, gold={0: 3})
    assert s.decision().kind == "action"
    do(s, "take_gold")
    do(s, "bewitch", character="merchant")
    assert s.decision().seat == 1 and s.decision().kind == "action"


def test_the_bewitched_player_takes_only_the_action_then_the_witch_plays_the_character():
    s = witch_table("merchant", cities={0: ["tavern", "market"]}, hands={0: ["temple"]})
    do(s, "take_gold")
    do(s, "bewitch", character="merchant")
    do(s, "take_gold")  # the Merchant's player: action only, no Merchant bonus
    assert s.gold[1] == 2
    decision = s.decision()
    assert decision.seat == 0 and decision.kind == "turn"
    assert s.gold[0] == 3  # the Witch gets the Merchant's +1
    do(s, "collect_income")  # from her own trade districts
    assert s.gold[0] == 5
    do(s, "build", district="temple")


def test_a_witch_who_bewitches_nobody_may_build():
    # seed 001 FAQ 女巫 1
    s = witch_table("king", hands={0: ["temple"]}, gold={0: 1})
    do(s, "take_gold")
    do(s, "build", district="temple")
    assert "bewitch" not in kinds(s)  # once built, no bewitching (her turn would end first)


def test_a_bewitched_character_that_is_not_in_play_gives_the_witch_nothing():
    s = witch_table("king", hands={0: ["temple"]})
    do(s, "take_gold")
    do(s, "bewitch", character="bishop")  # nobody holds the Bishop
    do(s, "take_gold")  # the King's own turn goes on as usual
    do(s, "end_turn")
    assert s.is_over() or s.decision().seat != 0
    assert s.cities[0] == []


def test_the_tax_collector_takes_one_gold_from_each_player_who_built():
    s = table(
        options=dark("tax_collector"),
        characters={0: "tax_collector", 1: "merchant", 2: "king", 3: "bishop"},
        hands={1: ["temple"], 2: ["manor"]},
        gold={1: 1, 2: 2},
    )
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")  # the King (rank 4): 2 + 2 = 4
    do(s, "build", district="manor")
    do(s, "end_turn")
    assert s.gold[0] == 3 and s.gold[2] == 0
    do(s, "take_gold")  # the Bishop builds nothing: no tax
    do(s, "end_turn")
    assert s.gold[0] == 3
    do(s, "take_gold")  # the Merchant: 1 + 2 + 1 = 4
    do(s, "build", district="temple")
    do(s, "end_turn")
    assert s.gold[0] == 4 and s.gold[1] == 2


def palace_after_the_tax_collector(character: str):
    """The Tax Collector's turn, then ``character`` (3 + 2 gold) builds a Palace with all of it."""
    s = table(
        options=dark("tax_collector", *(["alchemist"] if character == "alchemist" else [])),
        characters={0: "tax_collector", 1: character},
        hands={1: ["palace"]},
        gold={1: 3},
    )
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "build", district="palace")
    assert s.gold[1] == 0
    do(s, "end_turn")
    return s


def test_the_tax_is_only_paid_by_a_player_with_gold_left():
    s = palace_after_the_tax_collector("bishop")
    assert s.gold[0] == 2 and s.gold[1] == 0


def test_the_wizard_takes_a_card_from_another_hand_and_may_build_it_at_once():
    s = table(
        options=dark("wizard"),
        characters={0: "wizard"},
        hands={0: ["temple"], 1: ["manor", "palace"]},
        cities={0: ["manor"]},
        gold={0: 4},
    )
    do(s, "take_gold")
    do(s, "wizard", seat=1)
    assert s.observation(0)["pending"]["hand"] == ["manor", "palace"]
    do(s, "take", district="manor")
    do(s, "build_now")  # a duplicate, outside the build limit
    do(s, "build", district="temple")
    assert names(s.cities[0]) == ["manor", "manor", "temple"]
    assert s.gold[0] == 2 and names(s.hands[1]) == ["palace"]


def test_the_wizard_may_keep_the_card_in_hand():
    s = table(options=dark("wizard"), characters={0: "wizard"}, hands={1: ["palace"]})
    do(s, "take_gold")
    do(s, "wizard", seat=1)
    do(s, "take", district="palace")
    assert not offers(s, "build_now")  # 2 gold cannot pay 5
    do(s, "to_hand")
    assert names(s.hands[0]) == ["palace"]


def test_the_emperor_must_give_the_crown_to_another_player_who_pays_a_gold_or_a_card():
    s = table(
        options=dark("emperor"),
        characters={0: "emperor"},
        crown=1,
        gold={2: 3},
        hands={2: ["temple"]},
        cities={0: ["manor"]},
    )
    do(s, "take_gold")
    assert "end_turn" not in kinds(s)
    assert not offers(s, "give_crown", seat=0) and not offers(s, "give_crown", seat=1)
    do(s, "give_crown", seat=2)
    assert s.crown == 2
    decision = s.decision()
    assert decision.seat == 2 and decision.kind == "tribute"  # seed 001 FAQ: recipient decides
    do(s, "tribute_card", district="temple")
    assert names(s.hands[0]) == ["temple"]
    assert "end_turn" in kinds(s)
    do(s, "collect_income")
    assert s.gold[0] == 3


def test_a_crown_recipient_with_nothing_pays_nothing():
    s = table(options=dark("emperor"), characters={0: "emperor"}, crown=0)
    do(s, "take_gold")
    do(s, "give_crown", seat=3)
    assert s.decision().kind == "turn" and s.decision().seat == 0


def test_the_abbot_takes_one_gold_from_the_single_richest_player():
    s = table(
        options=dark("abbot"), characters={0: "abbot"}, gold={1: 5, 2: 3}, cities={0: ["temple"]}
    )
    do(s, "take_gold")
    do(s, "abbot_tax")
    do(s, "collect_income")
    assert s.gold == [4, 4, 3, 0]


def test_the_abbot_gets_nothing_when_the_richest_are_tied():
    s = table(options=dark("abbot"), characters={0: "abbot"}, gold={1: 5, 2: 5})
    do(s, "take_gold")
    assert "abbot_tax" not in kinds(s)


def test_the_abbot_chooses_among_the_tied_richest_with_the_2016_option():
    s = table(
        options=dark("abbot", abbot_tie="abbot_chooses"),
        characters={0: "abbot"},
        gold={1: 5, 2: 5},
    )
    do(s, "take_gold")
    assert offers(s, "abbot_tax", seat=1) and offers(s, "abbot_tax", seat=2)
    do(s, "abbot_tax", seat=2)
    assert s.gold == [3, 5, 4, 0]


def test_the_abbot_gets_nothing_when_he_is_among_the_richest_even_with_the_2016_option():
    s = table(
        options=dark("abbot", abbot_tie="abbot_chooses"),
        characters={0: "abbot"},
        gold={0: 3, 1: 5},
    )
    do(s, "take_gold")
    assert "abbot_tax" not in kinds(s)


def test_the_abbots_city_is_not_protected_from_the_warlord():
    s = table(options=dark("abbot"), characters={0: "abbot", 1: "warlord"}, cities={0: ["temple"]})
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    assert offers(s, "destroy", seat=0, district="temple")


def test_the_alchemist_gets_back_the_gold_spent_on_building_at_the_end_of_the_turn():
    s = table(
        options=dark("alchemist"), characters={0: "alchemist"}, hands={0: ["palace"]}, gold={0: 3}
    )
    do(s, "take_gold")
    do(s, "build", district="palace")
    assert s.gold[0] == 0
    do(s, "end_turn")
    assert s.gold[0] == 5


def test_the_alchemist_cannot_build_beyond_the_gold_he_has():
    s = table(
        options=dark("alchemist"), characters={0: "alchemist"}, hands={0: ["palace"]}, gold={0: 1}
    )
    do(s, "take_gold")
    assert "build" not in kinds(s)


def test_the_navigator_takes_four_gold_or_four_cards_and_then_cannot_build():
    s = table(
        options=dark("navigator"), characters={0: "navigator"}, hands={0: ["temple"]}, gold={0: 1}
    )
    do(s, "take_gold")
    do(s, "navigate", take="gold")
    assert s.gold[0] == 7
    assert "build" not in kinds(s)


def test_the_navigator_may_take_four_cards():
    s = table(options=dark("navigator"), characters={0: "navigator"})
    do(s, "take_gold")
    do(s, "navigate", take="cards")
    assert len(s.hands[0]) == 4


def test_the_diplomat_exchanges_districts_paying_the_difference_to_the_other_player():
    s = table(
        options=dark("diplomat"),
        characters={0: "diplomat"},
        cities={0: ["temple"], 1: ["palace"]},
        gold={0: 2},
    )
    do(s, "take_gold")
    do(s, "exchange", seat=1, district="palace")
    assert s.decision().kind == "exchange_give"
    do(s, "give", district="temple")
    assert names(s.cities[0]) == ["palace"] and names(s.cities[1]) == ["temple"]
    assert s.gold[0] == 0 and s.gold[1] == 4


def test_the_diplomat_collects_for_military_districts():
    s = table(options=dark("diplomat"), characters={0: "diplomat"}, cities={0: ["prison"]})
    do(s, "take_gold")
    do(s, "collect_income")
    assert s.gold[0] == 3


def test_the_queen_takes_three_gold_next_to_the_king():
    s = table(options={"rank9": "queen"}, characters={1: "king", 2: "queen"})
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "queen_gold")
    assert s.gold[2] == 5


def test_the_queen_gets_nothing_away_from_the_king():
    s = table(options={"rank9": "queen"}, characters={0: "king", 2: "queen"})
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    assert "queen_gold" not in kinds(s)


def test_the_artist_beautifies_one_or_two_districts_with_her_gold():
    s = table(
        options={"rank9": "artist"},
        characters={0: "artist"},
        cities={0: ["manor", "temple", "tavern"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "beautify", district="manor")
    assert not offers(s, "beautify", district="manor")  # once per district
    do(s, "beautify", district="temple")
    assert "beautify" not in kinds(s)  # at most two
    assert s.adorned[0] == [1, 1, 0] and s.gold[0] == 1


def test_the_witch_navigator_and_warlord_wait_for_the_action():
    for character, power in (
        ("witch", "bewitch"),
        ("navigator", "navigate"),
        ("warlord", "destroy"),
    ):
        s = table(
            options=dark(*[character] if character != "warlord" else []),
            characters={0: character},
            cities={0: ["temple"], 1: ["church"]},
            gold={0: 5},
        )
        assert power not in kinds(s)
        do(s, "take_gold")
        assert power in kinds(s)


def diplomat_table(**options):
    return table(
        options=dark("diplomat", **options),
        characters={0: "diplomat"},
        cities={0: ["temple"], 1: ["church"]},
        hands={0: ["manor"]},
        gold={0: 5},
    )


def test_the_diplomat_exchanges_any_time_in_his_turn_and_plays_on():
    # seed 001 角色技能: every power any time in the turn; 外交官 names no moment of its own.
    s = diplomat_table()
    do(s, "exchange", seat=1, district="church")
    do(s, "give", district="temple")
    assert names(s.cities[0]) == ["church"] and s.gold[0] == 4
    assert s.decision().kind == "action" and s.decision().seat == 0
    do(s, "take_gold")
    do(s, "build", district="manor")
    assert names(s.cities[0]) == ["church", "manor"]


def test_the_diplomat_end_of_turn_option_keeps_the_english_cards_timing():
    s = diplomat_table(diplomat_timing="end_of_turn")
    assert "exchange" not in kinds(s)
    do(s, "take_gold")
    do(s, "exchange", seat=1, district="church")
    do(s, "give", district="temple")
    assert s.decision().kind == "draft_pick"  # the exchange ended his turn (and the round)


def test_the_alchemist_pays_the_tax_from_his_refund():
    # seed 001 煉金術士 example: he cannot take back the gold paid to the Tax Collector, so he
    # pays it even when building took every gold he had; the refund comes first.
    s = palace_after_the_tax_collector("alchemist")
    assert s.gold[1] == 4 and s.gold[0] == 3


def test_the_wizard_builds_the_card_taken_only_after_the_action():
    s = table(options=dark("wizard"), characters={0: "wizard"}, hands={1: ["temple"]}, gold={0: 3})
    do(s, "wizard", seat=1)
    do(s, "take", district="temple")
    assert {o["kind"] for o in s.decision().options} == {"to_hand"}
