"""What a seat may know (ARCHITECTURE: one redaction point; issue 2 Observations)."""

from engine.citadels.title import CITADELS

from .builders import dark, do, table


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    s = table(characters={0: "bishop"}, hands={0: ["manor"], 1: ["palace", "temple"]})
    view = s.observation(0)
    assert view["hand"] == ["manor"] and view["hand_sizes"][:2] == [1, 2]
    assert "palace" not in str(view)


def test_cities_gold_crown_and_face_up_discards_are_public():
    s = CITADELS.new_game(4, seed=3)
    view = s.observation(2)
    assert view["crown"] == s.crown and view["gold"] == [2, 2, 2, 2]
    assert len(view["face_up"]) == 2 and view["cities"] == [[], [], [], []]


def test_other_seats_characters_stay_hidden_until_revealed():
    s = table(characters={0: "assassin", 1: "king", 2: "warlord"})
    view = s.observation(0)
    assert view["my_characters"] == ["assassin"]
    assert "warlord" not in str({k: v for k, v in view.items() if k != "characters_in_game"})
    do(s, "take_gold")
    do(s, "end_turn")
    assert {"event": "reveal", "character": "king", "seat": 1} in s.observation(0)["events"]


def test_the_cards_drawn_are_seen_only_by_the_drawer():
    s = table(characters={0: "bishop"}, deck_top=["palace", "castle"])
    do(s, "draw_cards")
    assert s.observation(0)["pending"] == {
        "decision": "keep",
        "drawn": ["castle", "palace"],
        "keep": 1,
    }
    assert s.observation(1)["pending"] is None
    assert "castle" not in str(s.observation(1))


def test_the_hand_a_wizard_looks_at_is_shown_to_the_wizard_only():
    s = table(options=dark("wizard"), characters={0: "wizard"}, hands={1: ["palace"]})
    do(s, "take_gold")
    do(s, "wizard", seat=1)
    assert s.observation(0)["pending"]["hand"] == ["palace"]
    assert "palace" not in str(s.observation(2))


def test_the_public_log_names_kills_thefts_and_destructions_but_not_hidden_cards():
    s = table(
        characters={0: "assassin", 1: "thief", 2: "magician", 3: "warlord"},
        hands={2: ["palace"]},
        cities={1: ["tavern"]},
    )
    do(s, "take_gold")
    do(s, "kill", character="king")
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "rob", character="merchant")
    assert s.observation(3)["killed"] == "king" and s.observation(3)["robbed"] == "merchant"
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "discard_draw")
    do(s, "discard", district="palace")  # the last card: the draw follows at once
    do(s, "end_turn")
    do(s, "take_gold")
    do(s, "destroy", seat=1, district="tavern")
    view = s.observation(1)
    events = view["events"]
    assert {"event": "killed", "character": "king"} in events
    assert {"event": "robbed", "character": "merchant"} in events
    assert {"event": "discard_draw", "seat": 2, "count": 1} in events
    assert any(e["event"] == "destroyed" and e["district"] == "tavern" for e in events)
    assert "palace" not in str(view)  # the Magician's discarded card stays hidden


def test_the_first_option_of_an_action_decision_is_an_action_for_the_fallback():
    from workers.protocol import fallback_index

    s = table(
        options={"dark_city_districts": ["armory"]},
        characters={0: "assassin"},
        cities={0: ["armory"], 1: ["manor"]},
    )
    options = s.decision().options
    assert options[fallback_index(options)]["kind"] == "draw_cards"
