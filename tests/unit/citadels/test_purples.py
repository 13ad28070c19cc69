"""Every purple district (seed 001 特別地區 and ☆ FAQ; reference §1.2-1.3)."""

from engine.citadels.scoring import score_seat

from .builders import do, kinds, names, offers, table

DC = "dark_city_districts"


def with_districts(*ids):
    return {DC: list(ids)}


def test_library_keeps_both_drawn_cards():
    s = table(characters={0: "bishop"}, cities={0: ["library"]}, deck_top=["manor", "temple"])
    do(s, "draw_cards")
    assert names(s.hands[0]) == ["manor", "temple"] and s.decision().kind == "turn"


def test_observatory_draws_three_and_keeps_one_the_others_to_the_bottom():
    s = table(
        characters={0: "bishop"},
        cities={0: ["observatory"]},
        deck_top=["manor", "temple", "tavern"],
    )
    do(s, "draw_cards")
    assert s.decision().kind == "keep" and len(s.decision().options) == 3
    do(s, "keep", district="tavern")
    assert names(s.hands[0]) == ["tavern"] and names(s.deck[:2]) == ["manor", "temple"]


def test_smithy_pays_two_gold_for_three_cards_once_a_turn():
    s = table(characters={0: "bishop"}, cities={0: ["smithy"]}, gold={0: 3})
    do(s, "take_gold")
    do(s, "smithy")
    assert s.gold[0] == 3 and len(s.hands[0]) == 3
    assert "smithy" not in kinds(s)


def test_laboratory_turns_a_card_into_one_gold_once_a_turn():
    s = table(characters={0: "bishop"}, cities={0: ["laboratory"]}, hands={0: ["manor", "temple"]})
    do(s, "take_gold")
    do(s, "laboratory", district="manor")
    assert s.gold[0] == 3 and names(s.hands[0]) == ["temple"]
    assert "laboratory" not in kinds(s)


def test_graveyard_owner_may_pay_one_gold_to_take_a_district_the_warlord_destroyed():
    s = table(
        characters={0: "warlord"},
        cities={1: ["graveyard", "manor"]},
        gold={0: 2, 1: 1},
    )
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="manor")
    decision = s.decision()
    assert decision.seat == 1 and decision.kind == "graveyard"
    do(s, "recover", district="manor")
    assert names(s.hands[1]) == ["manor"] and s.gold[1] == 0


def test_the_warlord_cannot_use_his_own_graveyard():
    s = table(
        characters={0: "warlord", 2: "queen"},
        cities={0: ["graveyard"], 1: ["manor"]},
        gold={0: 2},
        options={"rank9": "queen"},
    )
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="manor")
    assert s.decision().seat == 2  # no graveyard decision: the next character plays


def test_haunted_city_counts_as_the_missing_colour_for_scoring():
    s = table(cities={0: ["haunted_city", "manor", "temple", "tavern", "library"]})
    s.round = 3
    s.haunted_round[0] = 1
    assert score_seat(s, 0)["five_colours"] == 3


def test_haunted_city_built_in_the_last_round_is_no_wildcard():
    s = table(cities={0: ["haunted_city", "manor", "temple", "tavern", "library"]})
    s.round = 3
    s.haunted_round[0] = 3
    assert score_seat(s, 0)["five_colours"] == 0


def test_school_of_magic_counts_for_income_as_the_characters_colour():
    s = table(characters={0: "king"}, cities={0: ["school_of_magic", "manor"]})
    do(s, "take_gold")
    do(s, "collect_income")
    assert s.gold[0] == 4


def test_school_of_magic_does_not_fill_a_colour_for_the_bonus():
    s = table(cities={0: ["school_of_magic", "manor", "temple", "tavern"]})
    assert score_seat(s, 0)["five_colours"] == 0


def test_the_keep_cannot_be_destroyed_by_the_warlord():
    s = table(characters={0: "warlord"}, cities={1: ["keep", "manor"]}, gold={0: 5})
    do(s, "take_gold")
    assert not offers(s, "destroy", seat=1, district="keep")
    assert offers(s, "destroy", seat=1, district="manor")


def test_the_great_wall_makes_the_warlord_pay_one_more_for_other_districts():
    s = table(
        characters={0: "warlord"}, cities={1: ["great_wall", "watchtower", "manor"]}, gold={0: 0}
    )
    do(s, "take_gold")  # 2 gold
    assert offers(s, "destroy", seat=1, district="watchtower")  # 0 + 1
    assert not offers(s, "destroy", seat=1, district="manor")  # 2 + 1
    do(s, "destroy", seat=1, district="watchtower")
    assert s.gold[0] == 1


def test_dragon_gate_and_university_cost_six_and_score_eight():
    s = table(cities={0: ["dragon_gate", "university"]})
    assert score_seat(s, 0)["districts"] == 16


def test_lighthouse_lets_its_builder_take_any_card_from_the_deck():
    s = table(
        options=with_districts("lighthouse"),
        characters={0: "bishop"},
        hands={0: ["lighthouse"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "build", district="lighthouse")
    assert s.decision().kind == "lighthouse"
    size = len(s.deck)
    do(s, "search", district="cathedral")
    assert names(s.hands[0]) == ["cathedral"] and len(s.deck) == size - 1


def test_armory_destroys_itself_to_destroy_another_players_district_for_free():
    s = table(
        options=with_districts("armory"),
        characters={0: "bishop"},
        cities={0: ["armory"], 1: ["palace"]},
    )
    do(s, "take_gold")
    assert not offers(s, "armory", seat=0, district="armory")  # FAQ: not one's own
    do(s, "armory", seat=1, district="palace")
    assert s.cities[0] == [] and s.cities[1] == [] and s.gold[0] == 2


def test_museum_takes_one_card_a_turn_each_worth_one_point():
    s = table(
        options=with_districts("museum"),
        characters={0: "bishop"},
        cities={0: ["museum"]},
        hands={0: ["manor", "temple"]},
    )
    do(s, "take_gold")
    do(s, "museum", district="manor")
    assert "museum" not in kinds(s)
    assert names(s.museum[0]) == ["manor"]
    assert score_seat(s, 0)["purple_bonus"] == 1


def test_imperial_treasury_scores_one_point_per_gold():
    s = table(
        options=with_districts("imperial_treasury"), cities={0: ["imperial_treasury"]}, gold={0: 5}
    )
    assert score_seat(s, 0)["purple_bonus"] == 5


def test_map_room_scores_one_point_per_card_in_hand():
    s = table(
        options=with_districts("map_room"), cities={0: ["map_room"]}, hands={0: ["manor", "temple"]}
    )
    assert score_seat(s, 0)["purple_bonus"] == 2


def test_wishing_well_scores_one_point_per_other_purple_district():
    s = table(
        options=with_districts("wishing_well"), cities={0: ["wishing_well", "keep", "library"]}
    )
    assert score_seat(s, 0)["purple_bonus"] == 2


def test_quarry_allows_one_duplicate_district():
    s = table(
        options=with_districts("quarry"),
        characters={0: "bishop", 1: "warlord"},
        cities={0: ["quarry", "temple", "manor"]},
        hands={0: ["temple", "manor"]},
        gold={0: 9},
    )
    do(s, "take_gold")
    assert offers(s, "build", district="temple")
    do(s, "build", district="temple")
    assert names(s.cities[0]).count("temple") == 2


def test_quarry_allows_only_one_duplicate_at_a_time():
    s = table(
        options=with_districts("quarry"),
        characters={0: "architect"},
        cities={0: ["quarry", "temple", "manor"]},
        hands={0: ["temple", "manor"]},
        gold={0: 9},
    )
    do(s, "take_gold")
    do(s, "build", district="temple")
    assert not offers(s, "build", district="manor")


def test_poor_house_gives_one_gold_to_a_player_ending_the_turn_with_none():
    s = table(
        options=with_districts("poor_house"),
        characters={0: "bishop"},
        cities={0: ["poor_house"]},
        hands={0: ["manor"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "build", district="manor")
    do(s, "end_turn")
    assert s.gold[0] == 1


def test_bell_tower_ends_the_game_at_seven_districts_as_soon_as_it_is_built():
    # 001 FAQ ☆鐘塔: once built, the game must end at 7 (no announcement to choose).
    seven = ["manor", "castle", "palace", "temple", "church", "monastery"]
    s = table(
        options=with_districts("bell_tower"),
        characters={0: "bishop"},
        cities={0: seven},
        hands={0: ["bell_tower"]},
        gold={0: 3},
    )
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    assert s.decision().kind == "turn"
    assert s.end_triggered and s.completed[0] and s.first_completers == [0]


def test_faq_bell_tower_is_compulsory_while_it_stands_and_lapses_when_destroyed():
    # 001 FAQ ☆鐘塔: "是強制…只要鐘塔仍在場上沒有被摧毀" - compulsory while it stands.
    s = table(
        options=with_districts("bell_tower"),
        characters={0: "merchant", 1: "warlord"},
        hands={0: ["bell_tower"]},
        gold={0: 3, 1: 9},
    )
    do(s, "take_gold")
    do(s, "build", district="bell_tower")
    assert s.decision().kind == "turn"
    assert s.bell_tower and s.observation(0)["end_districts"] == 7
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "destroy", seat=0, district="bell_tower")
    assert not s.bell_tower and s.observation(0)["end_districts"] == 8


def test_factory_makes_other_purple_districts_one_cheaper():
    s = table(
        options=with_districts("factory"),
        characters={0: "bishop"},
        cities={0: ["factory"]},
        hands={0: ["library", "manor"]},
        gold={0: 3},
    )
    do(s, "take_gold")  # 5 gold: the Library (6) costs 5, the Manor still 3
    do(s, "build", district="library")
    assert s.gold[0] == 0


def test_park_draws_two_cards_for_an_empty_hand_at_the_end_of_the_turn():
    s = table(
        options=with_districts("park"),
        characters={0: "bishop"},
        cities={0: ["park"]},
        hands={0: ["temple"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "build", district="temple")
    do(s, "end_turn")
    assert len(s.hands[0]) == 2


def test_hospital_lets_a_killed_player_take_the_action_only():
    s = table(
        options=with_districts("hospital"),
        characters={0: "assassin", 1: "merchant"},
        cities={1: ["hospital", "tavern"]},
        hands={1: ["temple"]},
        gold={1: 1},
    )
    do(s, "take_gold")
    do(s, "kill", character="merchant")
    do(s, "end_turn")
    decision = s.decision()
    assert decision.seat == 1 and decision.kind == "action"
    do(s, "take_gold")
    assert s.gold[1] == 3  # no Merchant bonus, no build, no income
    assert s.is_over() or s.decision().seat != 1


def test_throne_room_pays_one_gold_each_time_the_crown_changes_hands():
    s = table(
        options=with_districts("throne_room"),
        characters={2: "king"},
        cities={0: ["throne_room"]},
        crown=1,
    )
    assert s.crown == 2 and s.gold[0] == 1


def test_ball_room_makes_called_players_thank_its_owner_or_lose_the_turn():
    s = table(
        options=with_districts("ball_room"),
        characters={0: "thief", 1: "merchant", 2: "bishop"},
        cities={0: ["ball_room"]},
        gold={2: 3},
        crown=0,
    )
    do(s, "take_gold")  # the owner's own character is not affected
    do(s, "end_turn")
    decision = s.decision()
    assert decision.seat == 2 and decision.kind == "ball_room"
    do(s, "keep_silent")  # the Bishop loses the turn
    assert s.gold[2] == 3
    decision = s.decision()
    assert decision.seat == 1 and decision.kind == "ball_room"
    do(s, "thank")
    assert s.decision().seat == 1 and s.decision().kind == "action"
