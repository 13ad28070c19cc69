"""What the Praga viewer shows and hides from each perspective (docs/viewer.md)."""

import pytest

import engine
from engine.core import view
from engine.praga import view as praga_view
from tests.unit.viewer.games import praga_record
from tests.unit.viewer.raw_ids import raw_ids


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
            assert shown["chosen_label"] == praga_view.option_label(action, state.observation(0))
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
            assert raw_ids(label) == [], label
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


@pytest.mark.slow
def test_nothing_a_person_reads_in_a_whole_game_is_a_raw_id(record):
    """Every label of every decision, from every perspective, and every name the drawing
    looks ids up in (tiles, technologies, bridge tiles, tokens, squares, seals)."""
    legend = praga_view.legend(engine.title("praga"))
    texts = [v for key in NAMED for v in legend[key].values()]
    texts += list(legend["actions"].values()) + list(legend["rows"].values())
    texts += [name for pair in legend["resources"].values() for name in pair]
    data = view.viewer_data(record, ["public", "all"])  # "all" sees every option
    texts += data["labels"]
    assert len(data["labels"]) > 100 and raw_ids("Use technology T3road") == ["T3road"]
    for name in data["perspectives"]:
        for frame in view.decode_perspective(data, name):
            if frame["decision"]:
                texts += [frame["decision"]["label"], frame["decision"]["chosen_label"] or ""]
    leaks = {t: raw_ids(t) for t in texts if raw_ids(t)}
    assert leaks == {}


NAMED = ("tiles", "techs", "bridge", "tokens", "squares", "seals")


def test_every_id_the_drawing_shows_has_a_name(record):
    legend = praga_view.legend(engine.title("praga"))
    for frame in view.frames(record, "all"):
        table = frame["table"]
        shown = [("tiles", b["tile"]) for b in table["city"]["buildings"]]
        shown += [("squares", s["tile"]) for s in table["city"]["squares"] if s.get("tile")]
        shown += [("tiles", t["id"]) for row in table["rows"]["display"].values() for t in row if t]
        shown += [("bridge", p["tile"]) for p in table["bridge"]["planks"] if p.get("tile")]
        shown += [("seals", s) for s in table["seals"]]
        for player in table["all_players"]:
            shown += [("techs", t["tech"]) for t in player["technologies"]]
            shown += [("tiles", t) for h in player["action_board"] for t in h["tiles"]]
        assert [(k, i) for k, i in shown if i not in legend[k]] == []
    assert praga_view.option_label({"kind": "choose_tech", "tech": "T3road"}) == (
        "Keep Technology III 技术: 1 egg and Build the King's Road"
    )
