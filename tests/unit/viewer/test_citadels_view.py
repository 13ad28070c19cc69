"""What the Citadels viewer shows and hides from each perspective (docs/viewer.md)."""

import json

import pytest

import engine
from engine.citadels import view as citadels_view
from engine.core import view
from tests.unit.viewer.games import citadels_record

PRIVATE = set(citadels_view.PRIVATE_KEYS)


@pytest.fixture(scope="module", params=[False, True], ids=["base", "dark city"])
def record(request):
    return citadels_record(seed=11, dark_city=request.param)


def test_the_public_view_holds_no_hand_and_no_options_that_show_one(record):
    for state, action in view.states(record):
        frame = citadels_view.view(state, "public", chosen=action)
        assert frame["private"] == {}
        assert not PRIVATE & set(frame["table"]), "the table holds only public facts"
        decision = frame["decision"]
        if decision is None:
            continue
        assert decision["options"] is None and decision["chosen"] is None
        if action["kind"] in ("pick", "keep"):
            assert "(hidden)" in decision["chosen_label"]


def test_a_seats_view_is_exactly_its_observation(record):
    for state, action in view.states(record):
        for seat in range(state.players):
            frame = citadels_view.view(state, seat, chosen=action)
            assert list(frame["private"]) == [str(seat)], "never another seat's hand"
            rebuilt = {**frame["table"], **frame["private"][str(seat)], "seat": seat}
            assert rebuilt == state.observation(seat)


def test_only_the_deciding_seat_sees_its_options_and_its_choice(record):
    seen_own = seen_other = 0
    for state, action in view.states(record):
        if action is None:
            break
        decision = state.decision()
        for seat in range(state.players):
            shown = citadels_view.view(state, seat, chosen=action)["decision"]
            if seat == decision.seat:
                assert len(shown["options"]) == len(decision.options)
                assert decision.options[shown["chosen"]] == action
                seen_own += 1
            else:
                assert shown["options"] is None and shown["chosen"] is None
                seen_other += 1
    assert seen_own and seen_other


def test_the_full_view_of_a_finished_game_shows_every_hand(record):
    frames = view.frames(record, "all")
    final = engine.title("citadels").replay(record)
    hands = [final.observation(s)["hand"] for s in range(final.players)]
    assert [frames[-1]["private"][str(s)]["hand"] for s in range(final.players)] == hands
    assert all(len(f["private"]) == final.players for f in frames)
    assert frames[-1]["result"]["scores"] == final.result()["scores"]


def test_revealed_characters_come_from_the_public_log_of_the_round(record):
    for state, _ in view.states(record):
        frame = citadels_view.view(state, "public")
        events = frame["table"]["events"]
        since = max((i for i, e in enumerate(events) if e["event"] == "round"), default=-1)
        reveals = [e for e in events[since + 1 :] if e["event"] == "reveal"]
        assert sum(len(r) for r in frame["revealed"]) == len(reveals)


def test_options_read_as_names_in_english_and_chinese():
    names = engine.title("citadels").display_names()
    label = citadels_view.option_label({"kind": "build", "district": "palace"}, names)
    assert label == "Build Palace 宮殿"
    assert citadels_view.option_label({"kind": "kill", "character": "thief"}, names) == (
        "Kill Thief 盜賊"
    )
    picked = citadels_view.public_option({"kind": "pick", "character": "king"})
    assert citadels_view.option_label(picked, names) == "Pick (hidden)"


def test_every_option_met_in_games_has_a_label(record):
    for state, action in view.states(record):
        if action is None:
            break
        frame = citadels_view.view(state, "all", chosen=action)
        for label in frame["decision"]["options"]:
            assert not label.startswith("{"), label


def test_the_legend_names_every_district_and_character():
    legend = citadels_view.legend(engine.title("citadels"))
    assert legend["districts"]["palace"] == {
        "name": "Palace", "zh": "宮殿", "colour": "noble", "cost": 5
    }  # fmt: skip
    assert legend["characters"]["king"]["zh"] == "國王"
    json.dumps(legend)


def test_every_position_shows_each_seats_running_score_ending_at_the_result(record):
    frames = view.frames(record, "public")
    assert all(len(f["scores"]) == record["players"] for f in frames)
    assert frames[0]["scores"] == [0] * record["players"]  # nothing built yet
    assert frames[-1]["scores"] == frames[-1]["result"]["scores"]
    assert any(sum(f["scores"]) > 0 for f in frames[:-1])  # it moves during the game
