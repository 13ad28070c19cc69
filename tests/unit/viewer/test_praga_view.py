"""What the Praga viewer shows and hides from each perspective (docs/viewer.md)."""

import pytest

import engine
from engine.core import view
from engine.praga import view as praga_view
from tests.unit.viewer.games import praga_record


@pytest.fixture(scope="module")
def record():
    return praga_record(seed=7)


def test_the_public_view_is_an_observation_without_its_seat(record):
    for state, action in view.states(record):
        frame = praga_view.view(state, "public", chosen=action)
        observation = state.observation(0)
        assert "you" not in frame["table"] and "seat" not in frame["table"]
        assert frame["table"] == {k: v for k, v in observation.items() if k not in ("seat", "you")}


def test_a_seats_view_is_exactly_its_observation(record):
    for step, (state, action) in enumerate(view.states(record)):
        if step % 7:
            continue
        for seat in range(state.players):
            assert praga_view.view(state, seat, chosen=action)["table"] == state.observation(seat)


def test_drawn_technologies_and_bridge_tiles_are_seen_only_by_the_decider(record):
    private = 0
    for state, action in view.states(record):
        if action is None:
            break
        decision = state.decision()
        for perspective in ["public", "all", *range(state.players)]:
            shown = praga_view.view(state, perspective, chosen=action)["decision"]
            assert shown["chosen_label"] == praga_view.option_label(action)
            sees = decision.kind not in praga_view.PRIVATE_DECISIONS or perspective in (
                "all",
                decision.seat,
            )
            assert (shown["options"] is not None) == sees
            if sees:
                assert decision.options[shown["chosen"]] == action
        private += decision.kind in praga_view.PRIVATE_DECISIONS
    assert private, "the game had a private choice to check"


def test_options_read_as_words_not_ids(record):
    for state, action in view.states(record):
        if action is None:
            break
        for label in praga_view.view(state, "all")["decision"]["options"]:
            assert not label.startswith("{") and ":upgrade/" not in label, label
    assert praga_view.option_label({"kind": "action", "action": "wall"}) == "Build a wall 建造城墙"


def test_the_end_shows_the_result(record):
    final = view.frames(record, "public")[-1]
    result = engine.title("praga").replay(record).result()
    assert final["decision"] is None
    assert final["result"]["scores"] == result["scores"]


def test_the_legend_has_the_city_map_and_the_action_board():
    legend = praga_view.legend(engine.title("praga"))
    assert len(legend["city"]) > 50 and len(legend["action_board"]) == 19
    assert len(legend["frame"]) == 12
