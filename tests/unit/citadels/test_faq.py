"""Every ruling of seed 001's FAQ (一般規則FAQ, 角色FAQ, 地區FAQ), one scenario each."""

from engine.citadels.components import DISTRICT_INDEX
from engine.citadels.phases import DRAFT, OVER
from engine.citadels.scoring import score_seat
from engine.citadels.table import place_district

from .builders import EIGHT, dark, do, finish_round, kinds, names, offers, table

DC = "dark_city_districts"


# -- 一般規則FAQ -------------------------------------------------------------------------------


def test_faq_powers_are_not_compulsory():
    s = table(characters={0: "assassin"})
    do(s, "take_gold")
    do(s, "end_turn")  # without killing anyone
    assert s.killed == 0


def test_faq_a_city_may_grow_beyond_eight_districts():
    s = table(
        characters={0: "architect"},
        cities={0: EIGHT},
        hands={0: ["watchtower", "prison", "battlefield"]},
        gold={0: 4},
    )
    do(s, "take_gold")
    for district in ("watchtower", "prison", "battlefield"):
        do(s, "build", district=district)
    assert len(s.cities[0]) == 10


def test_faq_the_game_ends_after_the_round_even_if_the_complete_city_loses_a_district():
    s = table(
        options={DC: ["armory"]},
        characters={0: "bishop", 1: "warlord"},
        cities={0: EIGHT[:7], 1: ["armory"]},
        hands={0: ["watchtower"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "build", district="watchtower")  # the 8th district
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "armory", seat=0, district="manor")  # FAQ 軍械庫: allowed against a complete city
    assert len(s.cities[0]) == 7
    finish_round(s)
    assert s.phase == OVER
    # FAQ: the bonus for completing the city is kept.
    assert s.result()["details"][0]["complete_city"] == 4


def test_faq_the_five_colour_bonus_needs_the_colours_at_the_very_end():
    city = ["manor", "temple", "tavern", "watchtower", "library"]
    s = table(
        options={DC: ["armory"]},
        characters={0: "bishop", 1: "warlord"},
        cities={0: city, 1: ["armory"]},
    )
    assert score_seat(s, 0)["five_colours"] == 3
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "armory", seat=0, district="library")
    assert score_seat(s, 0)["five_colours"] == 0


def test_faq_district_income_is_taken_once_so_a_new_district_built_after_does_not_pay():
    s = table(characters={0: "king"}, cities={0: ["manor"]}, hands={0: ["castle"]}, gold={0: 2})
    do(s, "take_gold")
    do(s, "collect_income")
    do(s, "build", district="castle")
    assert "collect_income" not in kinds(s)
    assert s.gold[0] == 1


def test_faq_an_empty_bank_pays_nothing():
    s = table(characters={0: "merchant"}, gold={1: 30})
    assert s.bank == 0
    do(s, "take_gold")
    assert s.gold[0] == 0


def test_faq_tied_top_scores_share_the_win():
    s = table(cities={0: ["palace"], 1: ["palace"], 2: ["manor"]})
    s.phase = OVER
    result = s.result()
    assert result["winners"] == [0, 1] and result["ranks"][:3] == [1, 1, 3]


def test_the_official_tie_break_option_uses_district_values_then_gold():
    s = table(
        cities={0: ["palace"], 1: ["palace"]},
        gold={1: 1},
        options={"tie_break": "district_value_then_gold"},
    )
    s.phase = OVER
    assert s.result()["winners"] == [1]


def test_faq_up_to_three_expansion_districts_are_simply_added():
    from engine.citadels.title import CITADELS

    s = CITADELS.new_game(4, {DC: ["armory", "museum", "park"]}, 5)
    assert s.bank >= 0 and len(s.deck) + 16 == 66 + 3


def test_faq_beyond_three_expansion_districts_as_many_base_cards_are_removed():
    from engine.citadels.components import BASE_PURPLE_KINDS, DISTRICT_INDEX
    from engine.citadels.title import CITADELS

    added = ["armory", "museum", "park", "quarry", "factory"]
    s = CITADELS.new_game(4, {DC: added}, 5)
    cards = s.deck + [k for h in s.hands for k in h]
    assert len(cards) == 66 + 3
    assert all(DISTRICT_INDEX[d] in cards for d in added)
    assert sum(1 for k in cards if k in BASE_PURPLE_KINDS) == 12 - 2


# -- 角色FAQ ---------------------------------------------------------------------------------------


def test_faq_thief_the_theft_happens_at_the_reveal_before_district_income():
    s = table(characters={0: "thief", 1: "king"}, cities={1: ["manor", "castle"]}, gold={1: 3})
    do(s, "take_gold")
    do(s, "rob", character="king")
    do(s, "end_turn")
    assert s.gold[:2] == [5, 0]
    do(s, "take_gold")
    do(s, "collect_income")
    assert s.gold[:2] == [5, 4]  # the later income stays with the King


def test_faq_thief_robs_a_king_before_his_throne_room_pays_for_the_crown():
    # 001 FAQ 盜賊: the theft comes at the reveal, before any district effect - so the gold
    # the robbed King's Throne Room pays when he takes the crown stays with him.
    s = table(
        options={DC: ["throne_room"]},
        characters={0: "thief", 1: "king"},
        cities={1: ["throne_room"]},
        gold={1: 3},
        crown=2,
    )
    do(s, "take_gold")
    do(s, "rob", character="king")
    do(s, "end_turn")
    assert s.crown == 1 and s.gold[:2] == [5, 1]


def test_faq_thief_cannot_rob_the_witch_or_the_bewitched_character():
    s = table(options=dark("witch"), characters={0: "witch", 1: "thief", 2: "merchant"})
    do(s, "take_gold")
    do(s, "bewitch", character="merchant")
    do(s, "take_gold")
    assert not offers(s, "rob", character="witch") and not offers(s, "rob", character="merchant")
    assert offers(s, "rob", character="king")


def test_faq_magician_discarded_cards_go_face_down_to_the_bottom():
    s = table(characters={0: "magician"}, hands={0: ["palace"]})
    do(s, "take_gold")
    do(s, "discard_draw")
    do(s, "discard", district="palace")
    assert names(s.deck[:1]) == ["palace"] and len(s.hands[0]) == 1


def test_faq_king_a_killed_king_gets_the_crown_at_the_end_of_the_round():
    s = table(characters={0: "assassin", 2: "king", 3: "bishop"}, crown=1)
    do(s, "take_gold")
    do(s, "kill", character="king")
    do(s, "end_turn")
    assert s.decision().seat == 3 and s.crown == 1  # not yet
    finish_round(s)
    assert s.phase == DRAFT and s.crown == 2


def test_faq_king_absent_the_crown_stays():
    s = table(characters={0: "assassin", 1: "bishop"}, crown=3)
    finish_round(s)
    assert s.crown == 3


def test_faq_bishop_is_immune_to_the_diplomat():
    s = table(
        options=dark("diplomat"),
        characters={0: "bishop", 1: "diplomat"},
        cities={0: ["temple"], 1: ["tavern"]},
    )
    finish_round_until(s, 1)
    do(s, "take_gold")
    assert "exchange" not in kinds(s)


def test_faq_architect_draws_his_extra_cards_only_after_the_action():
    s = table(characters={0: "architect"}, deck_top=["manor", "temple", "castle", "palace"])
    assert s.decision().kind == "action" and s.hands[0] == []
    do(s, "draw_cards")
    do(s, "keep", district="manor")
    assert names(s.hands[0]) == ["castle", "manor", "palace"]


def test_faq_warlord_may_destroy_a_killed_bishops_districts():
    s = table(characters={0: "assassin", 1: "bishop", 2: "warlord"}, cities={1: ["temple"]})
    do(s, "take_gold")
    do(s, "kill", character="bishop")
    do(s, "end_turn")
    do(s, "take_gold")
    assert offers(s, "destroy", seat=1, district="temple")


def test_faq_warlord_cannot_touch_a_complete_city():
    s = table(characters={0: "warlord"}, cities={1: EIGHT + ["watchtower"]})
    do(s, "take_gold")
    assert "destroy" not in kinds(s)


def test_faq_warlord_may_destroy_his_own_district():
    s = table(characters={0: "warlord"}, cities={0: ["watchtower"]})
    do(s, "take_gold")
    do(s, "destroy", seat=0, district="watchtower")
    assert s.cities[0] == []


def test_faq_witch_who_bewitches_nobody_may_build():
    s = table(options=dark("witch"), characters={0: "witch"}, hands={0: ["temple"]})
    do(s, "take_gold")
    assert offers(s, "build", district="temple")


def test_faq_witch_bewitching_the_tax_collector_receives_the_tax():
    s = table(
        options=dark("witch", "tax_collector"),
        characters={0: "witch", 1: "tax_collector", 2: "bishop"},
        hands={2: ["temple"]},
        gold={2: 1},
    )
    do(s, "take_gold")
    do(s, "bewitch", character="tax_collector")
    do(s, "take_gold")  # the Tax Collector's player: action only
    do(s, "end_turn")  # the Witch's resumed turn
    do(s, "take_gold")
    do(s, "build", district="temple")
    do(s, "end_turn")
    assert s.gold[0] == 3 and s.gold[1] == 2 and s.gold[2] == 1


def test_faq_witch_bewitching_the_king_does_not_take_the_crown():
    s = table(options=dark("witch"), characters={0: "witch", 1: "king"}, crown=2)
    do(s, "take_gold")
    do(s, "bewitch", character="king")
    assert s.crown == 1


def test_faq_witch_bewitching_the_bishop_protects_her_own_city():
    s = table(
        options=dark("witch"),
        characters={0: "witch", 1: "bishop", 2: "warlord"},
        cities={0: ["manor"], 1: ["temple"]},
        gold={2: 5},
    )
    do(s, "take_gold")
    do(s, "bewitch", character="bishop")
    do(s, "take_gold")
    do(s, "end_turn")  # the Witch's Bishop turn
    do(s, "take_gold")
    assert not offers(s, "destroy", seat=0, district="manor")
    assert offers(s, "destroy", seat=1, district="temple")


def test_faq_witch_as_navigator_cannot_build_after_navigating():
    s = table(
        options=dark("witch", "navigator"),
        characters={0: "witch", 1: "navigator"},
        hands={0: ["temple"]},
    )
    do(s, "take_gold")
    do(s, "bewitch", character="navigator")
    do(s, "take_gold")
    do(s, "navigate", take="gold")
    assert "build" not in kinds(s)


def test_faq_the_assassin_who_built_pays_the_tax_when_the_tax_collector_is_revealed():
    s = table(
        options=dark("tax_collector"),
        characters={0: "assassin", 1: "tax_collector"},
        hands={0: ["temple"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "build", district="temple")
    do(s, "end_turn")
    assert s.gold[0] == 1  # kept until the Tax Collector shows
    assert s.gold[1] == 1 and s.decision().seat == 1


def test_faq_the_witch_pays_the_tax_at_the_reveal_or_when_she_resumes():
    s = table(
        options=dark("witch", "tax_collector"),
        characters={0: "witch", 1: "tax_collector", 2: "bishop"},
        hands={0: ["temple", "church"]},
        gold={0: 2},
    )
    do(s, "take_gold")
    do(s, "bewitch", character="bishop")
    do(s, "take_gold")  # Tax Collector
    do(s, "end_turn")
    do(s, "take_gold")  # the Bishop's player
    do(s, "build", district="temple")  # the Witch, as Bishop
    do(s, "end_turn")
    assert s.gold[0] == 2 and s.gold[1] == 3


def test_faq_the_wizard_may_build_any_number_of_identical_districts():
    s = table(
        options=dark("wizard"),
        characters={0: "wizard"},
        cities={0: ["manor", "manor"]},
        hands={1: ["manor"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "wizard", seat=1)
    do(s, "take", district="manor")
    do(s, "build_now")
    assert names(s.cities[0]) == ["manor"] * 3


def test_faq_the_crown_recipient_chooses_the_tribute():
    s = table(
        options=dark("emperor"),
        characters={0: "emperor"},
        hands={1: ["temple"]},
        gold={1: 1},
        crown=3,
    )
    do(s, "take_gold")
    do(s, "give_crown", seat=1)
    assert s.decision().seat == 1
    do(s, "tribute_gold")
    assert s.gold[0] == 3


def test_faq_a_killed_emperor_leaves_the_crown_where_it_is():
    s = table(options=dark("emperor"), characters={0: "assassin", 1: "emperor"}, crown=2)
    do(s, "take_gold")
    do(s, "kill", character="emperor")
    finish_round(s)
    assert s.crown == 2


def test_faq_the_alchemist_has_no_trade_income():
    s = table(
        options=dark("alchemist"), characters={0: "alchemist"}, cities={0: ["tavern", "market"]}
    )
    do(s, "take_gold")
    assert "collect_income" not in kinds(s)


def test_faq_a_navigator_who_does_not_navigate_may_build():
    s = table(options=dark("navigator"), characters={0: "navigator"}, hands={0: ["temple"]})
    do(s, "take_gold")
    do(s, "build", district="temple")
    assert "navigate" not in kinds(s)


def diplomat(cities, gold=5, **kw):
    s = table(
        options=dark("diplomat", **kw), characters={0: "diplomat"}, cities=cities, gold={0: gold}
    )
    do(s, "take_gold")
    return s


def test_faq_the_diplomat_cannot_force_a_duplicate_on_another_player():
    s = diplomat({0: ["manor", "temple"], 1: ["manor", "castle"]})
    do(s, "exchange", seat=1, district="castle")
    assert not offers(s, "give", district="manor") and offers(s, "give", district="temple")


def test_faq_the_diplomat_may_give_a_duplicate_to_a_player_with_a_quarry():
    s = diplomat({0: ["manor", "temple"], 1: ["manor", "castle", "quarry"]}, districts=["quarry"])
    do(s, "exchange", seat=1, district="castle")
    assert offers(s, "give", district="manor")


def test_faq_the_diplomat_cannot_take_a_district_he_already_has_without_a_quarry():
    s = diplomat({0: ["castle", "temple"], 1: ["castle"]})
    assert not offers(s, "exchange", seat=1, district="castle")
    s = diplomat({0: ["castle", "temple", "quarry"], 1: ["castle"]}, districts=["quarry"])
    assert offers(s, "exchange", seat=1, district="castle")


def test_faq_the_diplomat_may_exchange_after_completing_his_city():
    s = diplomat({0: EIGHT + ["watchtower"], 1: ["cathedral"]})
    assert offers(s, "exchange", seat=1, district="cathedral")


def test_faq_the_diplomat_cannot_exchange_with_a_complete_city():
    s = diplomat({0: ["temple"], 1: EIGHT + ["watchtower"]})
    assert "exchange" not in kinds(s)


def test_faq_the_artist_beautifies_one_or_two_districts():
    s = table(
        options={"rank9": "artist"},
        characters={0: "artist"},
        cities={0: ["manor", "temple"]},
        gold={0: 2},
    )
    do(s, "take_gold")
    do(s, "beautify", district="manor")
    do(s, "end_turn")  # one is enough
    assert s.adorned[0] == [1, 0]
    assert score_seat(s, 0)["districts"] == 5


def test_faq_the_queen_next_to_the_emperor_takes_her_gold():
    s = table(
        options=dark("emperor", rank9="queen"), characters={1: "emperor", 2: "queen"}, crown=0
    )
    do(s, "take_gold")
    do(s, "give_crown", seat=3)
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "queen_gold")
    assert s.gold[2] == 5


def test_faq_the_queen_next_to_a_killed_king_is_paid_at_the_end_of_the_round():
    s = table(options={"rank9": "queen"}, characters={0: "assassin", 1: "king", 2: "queen"})
    do(s, "take_gold")
    do(s, "kill", character="king")
    do(s, "end_turn")
    do(s, "take_gold")
    assert "queen_gold" not in kinds(s)
    do(s, "end_turn")
    assert s.gold[2] == 5


def test_faq_library_and_observatory_together_draw_three_keep_two():
    s = table(
        characters={0: "bishop"},
        cities={0: ["library", "observatory"]},
        deck_top=["manor", "temple", "tavern"],
    )
    do(s, "draw_cards")
    do(s, "keep", district="manor")
    do(s, "keep", district="tavern")
    assert names(s.hands[0]) == ["manor", "tavern"] and names(s.deck[:1]) == ["temple"]


def test_faq_the_action_comes_before_building_so_a_new_library_does_not_help_this_turn():
    s = table(characters={0: "bishop"}, hands={0: ["library"]}, gold={0: 6})
    assert "build" not in kinds(s)  # the first decision is the action only
    do(s, "draw_cards")
    assert s.decision().kind == "keep"


def test_faq_the_great_wall_adds_one_gold_to_the_diplomats_difference():
    s = diplomat({0: ["temple"], 1: ["great_wall", "church"]}, gold=0)
    do(s, "exchange", seat=1, district="church")
    do(s, "give", district="temple")
    assert s.gold[0] == 0  # 2 gold: difference 1 + Great Wall 1


def test_faq_the_diplomat_cannot_take_the_keep():
    s = diplomat({0: ["temple"], 1: ["keep"]})
    assert not offers(s, "exchange", seat=1, district="keep")


def test_faq_destroying_university_or_dragon_gate_costs_five():
    s = table(characters={0: "warlord"}, cities={1: ["university"]}, gold={0: 3})
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="university")
    assert s.gold[0] == 0


def test_faq_the_diplomats_difference_for_university_uses_cost_six():
    s = diplomat({0: ["manor"], 1: ["university"]}, gold=1)  # 3 gold
    do(s, "exchange", seat=1, district="university")
    do(s, "give", district="manor")
    assert s.gold[0] == 0 and s.gold[1] == 3


def armory_table(victim_city, **kw):
    s = table(
        options={DC: ["armory"]},
        characters={0: "bishop", 1: "warlord"},
        cities={0: victim_city, 1: ["armory"]},
        **kw,
    )
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")
    return s


def test_faq_the_armory_may_destroy_the_bishops_districts():
    assert offers(armory_table(["temple"]), "armory", seat=0, district="temple")


def test_faq_the_armory_may_destroy_the_keep():
    assert offers(armory_table(["keep"]), "armory", seat=0, district="keep")


def test_faq_the_armory_cannot_destroy_its_owners_districts():
    s = armory_table(["temple"])
    assert not offers(s, "armory", seat=1, district="armory")


def test_faq_the_armory_may_destroy_in_a_complete_city():
    assert offers(armory_table(EIGHT + ["watchtower"]), "armory", seat=0, district="watchtower")


def test_faq_the_tax_is_paid_before_the_poor_house_gold():
    s = table(
        options=dark("tax_collector", districts=["poor_house"]),
        characters={0: "tax_collector", 1: "bishop"},
        cities={1: ["poor_house"]},
        hands={1: ["manor"]},
        gold={1: 2},
    )
    do(s, "take_gold")
    do(s, "end_turn")
    do(s, "take_gold")  # 4
    do(s, "build", district="manor")  # 1 left
    do(s, "end_turn")  # tax 1 -> 0, then the Poor House gives 1
    assert s.gold[0] == 3 and s.gold[1] == 1


def test_faq_the_graveyard_does_not_work_with_the_diplomat():
    s = table(
        options=dark("diplomat"),
        characters={0: "diplomat"},
        cities={0: ["temple"], 1: ["church", "graveyard"]},
        gold={0: 2, 1: 2},
    )
    do(s, "take_gold")
    do(s, "exchange", seat=1, district="church")
    do(s, "give", district="temple")
    assert s.decision().kind != "graveyard"


def test_faq_the_museum_is_destroyed_or_exchanged_at_its_own_cost():
    s = table(
        options={DC: ["museum"]}, characters={0: "warlord"}, cities={1: ["museum"]}, gold={0: 1}
    )
    s.museum[1] = (0, 1)
    s.deck = s.deck[2:]
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="museum")
    assert s.gold[0] == 0


def test_faq_a_destroyed_museum_and_its_cards_go_to_the_bottom_of_the_deck():
    s = table(
        options={DC: ["museum"]}, characters={0: "warlord"}, cities={1: ["museum"]}, gold={0: 1}
    )
    s.deck.remove(0)
    s.museum[1] = (0,)
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="museum")
    assert names(s.deck[:2]) == ["museum", "temple"] and not s.museum[1]


def test_faq_the_diplomat_takes_the_museum_with_its_cards():
    s = table(
        options=dark("diplomat", districts=["museum"]),
        characters={0: "diplomat"},
        cities={0: ["palace"], 1: ["museum"]},
    )
    s.deck.remove(0)
    s.museum[1] = (0,)
    do(s, "take_gold")
    do(s, "exchange", seat=1, district="museum")
    do(s, "give", district="palace")
    assert names(s.museum[0]) == ["temple"] and not s.museum[1] and s.hands[0] == []


def test_faq_the_hospital_gives_a_bewitched_player_nothing_more():
    s = table(
        options=dark("witch", districts=["hospital"]),
        characters={0: "witch", 1: "merchant"},
        cities={1: ["hospital"]},
        hands={1: ["temple"]},
        gold={1: 3},
    )
    do(s, "take_gold")
    do(s, "bewitch", character="merchant")
    do(s, "take_gold")
    assert s.decision().seat == 0  # the bewitched player had the action only


def bell(cities, hand_owner=0, **kw):
    s = table(
        options={DC: ["bell_tower"], **kw.pop("options", {})},
        characters={0: "bishop", 1: "warlord"},
        cities=cities,
        hands={hand_owner: ["bell_tower"]},
        gold={0: 3, 1: 9},
        **kw,
    )
    return s


def test_faq_bell_tower_with_a_player_already_at_seven_ends_after_this_round():
    s = bell({0: ["temple"], 2: EIGHT[:7]})
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    assert s.end_triggered and s.first_completers == [2]
    finish_round(s)
    assert s.phase == OVER


def test_faq_bell_tower_seven_districts_earn_the_complete_city_bonus():
    s = bell({0: EIGHT[:6], 2: EIGHT[:7]})
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    # FAQ: everyone with 7 when it is built (builder included) earns +4.
    assert s.first_completers == [0, 2]
    assert score_seat(s, 0)["complete_city"] == 4 and score_seat(s, 2)["complete_city"] == 4


def test_faq_bell_tower_later_completions_earn_two():
    s = bell({0: ["temple"], 1: EIGHT[:6]}, hand_owner=0)
    s.hands[1] = [4]  # a watchtower for the Warlord
    s.deck.remove(4)
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "build", district="watchtower")
    assert s.first_completers == [1]  # nobody had 7 before: the first to get there earns +4
    assert score_seat(s, 1)["complete_city"] == 4
    # 001 FAQ ☆鐘塔: a city reaching 7 after the Bell Tower, once a +4 is earned, gets +2.
    s.cities[2] = [DISTRICT_INDEX[d] for d in ("temple", "manor", "castle", "palace", "tavern")]
    s.cities[2] += [DISTRICT_INDEX["church"]]
    s.adorned[2] = [0] * 6
    s.hands[2].append(DISTRICT_INDEX["market"])
    s.deck.remove(DISTRICT_INDEX["market"])
    s.gold[2], s.bank = 2, s.bank - 2
    place_district(s, 2, DISTRICT_INDEX["market"])
    assert s.completed[2] and s.first_completers == [1]
    assert score_seat(s, 2)["complete_city"] == 2


def test_faq_bell_tower_with_a_city_of_eight_before_it_still_gives_the_sevens_four():
    # 001 FAQ ☆鐘塔: everyone who had 7 before the Bell Tower was built earns +4, so a city
    # that reached 8 earlier does not turn them into "other" completers.
    s = bell({0: ["temple"], 1: [*EIGHT, "watchtower"], 2: EIGHT[:7]})
    s.completed[1] = True
    s.first_completers = [1]
    s.end_triggered = True
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    assert s.first_completers == [1, 2]
    assert score_seat(s, 2)["complete_city"] == 4


def test_faq_bell_tower_a_city_of_eight_that_completed_second_also_earns_four():
    # 001 FAQ ☆鐘塔 +4/+2: everyone who has 7 when it goes up earns +4; a city of 8 that
    # completed second (+2) before it must not earn less than the new sevens.
    s = bell({0: EIGHT[:6], 2: [*EIGHT, "watchtower"], 3: [*EIGHT, "watchtower"]})
    s.completed[2] = s.completed[3] = True
    s.first_completers = [3]
    s.end_triggered = True
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    assert [score_seat(s, v)["complete_city"] for v in range(4)] == [4, 0, 4, 4]


def test_faq_bell_tower_built_as_an_eighth_district_after_another_city_earns_four():
    # The builder is included (FAQ: 建成鐘塔的玩家 … 也能獲得+4), even when the tower is his 8th
    # district and someone else completed first.
    s = bell({0: EIGHT, 2: EIGHT[:6] + ["watchtower"], 3: [*EIGHT, "watchtower"]})
    s.completed[3] = True
    s.first_completers = [3]
    s.end_triggered = True
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    assert [score_seat(s, v)["complete_city"] for v in range(4)] == [4, 0, 4, 4]


def test_faq_bell_tower_protects_seven_district_cities_from_the_warlord():
    s = bell({0: ["temple"], 2: EIGHT[:7]})
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    do(s, "end_turn")
    do(s, "take_gold")
    assert not any(o.get("seat") == 2 for o in s.decision().options if o["kind"] == "destroy")


def test_faq_bell_tower_in_the_shorter_game_ends_at_six():
    s = bell({0: EIGHT[:5]}, options={"end_districts": 7})
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    assert s.observation(0)["end_districts"] == 6 and s.end_triggered


def test_faq_duplicates_built_with_a_quarry_stay_when_it_is_destroyed():
    s = table(
        options={DC: ["quarry"]},
        characters={0: "warlord"},
        cities={1: ["quarry", "manor", "manor"]},
        gold={0: 4},
    )
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="quarry")
    assert names(s.cities[1]) == ["manor", "manor"]


def test_faq_a_haunted_city_given_a_colour_is_not_purple_for_the_wishing_well():
    city = ["haunted_city", "wishing_well", "manor", "temple", "tavern"]
    s = table(options={DC: ["wishing_well"]}, cities={0: city})
    s.round = 5
    detail = score_seat(s, 0)
    # As military it completes the five colours (+3) and no longer counts for the well (+0).
    assert detail["five_colours"] == 3 and detail["purple_bonus"] == 0


def finish_round_until(s, seat):
    """Play plainly until ``seat`` is to take its action."""
    while not (s.decision().seat == seat and s.decision().kind == "action"):
        decision = s.decision()
        if decision.kind == "action":
            s.apply({"kind": "take_gold"})
        else:
            s.apply({"kind": "end_turn"})
