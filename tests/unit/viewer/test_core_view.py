"""The title-neutral viewer interface: perspectives, stepping, delta encoding, marks, files."""

import json
import random

import pytest

import engine
from engine.core import records, view
from tests.unit.viewer.games import citadels_record, praga_record


def test_a_perspective_is_public_all_or_a_seat_at_the_table():
    assert view.parse_perspective("public", 4) == "public"
    assert view.parse_perspective("all", 4) == "all"
    assert view.parse_perspective("2", 4) == 2
    with pytest.raises(engine.ConfigError, match="not at this table"):
        view.parse_perspective(4, 4)
    with pytest.raises(engine.ConfigError, match="perspective is"):
        view.parse_perspective("spectator", 4)


@pytest.mark.parametrize("title_id", ["citadels", "praga"])
def test_every_hand_is_refused_before_the_end(title_id):
    state = engine.title(title_id).new_game(4, seed=3)
    with pytest.raises(view.PerspectiveRefused):
        view.view(state, "all")
    record = state.record()
    with pytest.raises(view.PerspectiveRefused):
        view.frames(record, "all")
    assert view.frames(record, "public")  # an unfinished game is shown publicly


@pytest.mark.parametrize("record", [citadels_record(), praga_record()], ids=["citadels", "praga"])
def test_stepping_visits_every_decision_then_the_end(record):
    expanded = records.expand(engine.title(record["title"]), record)
    for shown in (record, expanded):  # the packed format and the lists of format 2
        steps = list(view.states(shown))
        assert len(steps) == len(expanded["actions"]) + 1
        assert [a for _, a in steps[:-1]] == expanded["actions"]
        assert steps[-1][0].is_over() and steps[-1][1] is None


def test_a_tampered_record_is_a_replay_mismatch():
    listed = records.expand(engine.title("citadels"), citadels_record())
    with pytest.raises(engine.ReplayMismatch, match="action 0 .* is not legal"):
        list(view.states(dict(listed, actions=[{"kind": "nonsense"}])))
    with pytest.raises(engine.ReplayMismatch, match="fewer chance outcomes"):
        list(view.states(dict(listed, chance=[0, 1, 2])))
    record = citadels_record()
    with pytest.raises(engine.ReplayMismatch, match="not base64url"):
        list(view.states(dict(record, actions={"count": 3, "code": "!!"})))
    with pytest.raises(engine.ReplayMismatch, match="unknown title"):
        list(view.states({"title": "chess"}))


def _random_json(rng, depth=0):
    kind = rng.randrange(5 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(5)
    if kind == 1:
        return rng.choice(["a", "b", None, True])
    if kind == 2:
        return [rng.randrange(3) for _ in range(rng.randrange(4))]
    if kind == 3:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {k: _random_json(rng, depth + 1) for k in rng.sample("wxyz", rng.randrange(4))}


def test_patches_turn_one_value_into_the_next():
    rng = random.Random(7)
    for _ in range(2000):
        old, new = _random_json(rng), _random_json(rng)
        assert view.patch(old, view.delta(old, new)) == new
    grown = view.delta({"events": [1, 2]}, {"events": [1, 2, 3]})
    assert grown == [[["events"], [3], 1]]  # a growing log is sent as what was added


@pytest.mark.parametrize("record", [citadels_record(), praga_record()], ids=["citadels", "praga"])
def test_encoded_frames_decode_to_the_frames(record):
    frames = view.frames(record, "public")
    assert view.decode(view.encode(frames)) == json.loads(json.dumps(frames))


def test_marks_show_fault_details_only_to_the_seats_owner():
    faults = [[], [{"kind": "timeout", "decision": 5, "message": "no answer", "applied": {}}]]
    faults[1].append({"kind": "crash", "decision": 9, "message": "bot ended", "applied": None})
    public = view.timeline_marks(20, faults, ["ok", "disqualified"])
    owner = view.timeline_marks(20, faults, ["ok", "disqualified"], details_for={1})
    assert [(m["frame"], m["kind"]) for m in public] == [
        (4, "fault"),
        (8, "disqualified"),
        (20, "end"),
    ]
    assert all("no answer" not in m["text"] for m in public)
    assert "no answer" in owner[0]["text"] and "bot ended" in owner[1]["text"]


def test_a_title_without_viewer_says_so():
    from tests.support.toy_title import TOY

    with pytest.raises(engine.ConfigError, match="has no viewer"):
        view.view_module(TOY)


@pytest.mark.parametrize(
    "record", [citadels_record(), praga_record()], ids=["citadels 7 players", "praga 4 players"]
)
def test_the_offline_file_is_self_contained_and_under_a_megabyte(record, tmp_path):
    path = view.write_game_html(record, tmp_path / "game.html")
    html = path.read_text()
    assert path.stat().st_size < 1_000_000
    assert (
        "<script src" not in html and "<link" not in html and "http" not in html.split("<script")[0]
    )
    assert "MeepleViewer.register(" in html and "data-start='end'" in html


@pytest.mark.slow
@pytest.mark.parametrize("record", [citadels_record(), praga_record()], ids=["citadels", "praga"])
def test_the_viewers_data_holds_every_perspective_asked_for(record):
    data = view.viewer_data(record, ["public", "all", 1])
    for name, perspective in (("public", "public"), ("all", "all"), ("1", 1)):
        expected = json.loads(json.dumps(view.frames(record, perspective)))
        assert view.decode_perspective(data, name) == expected
    if record["title"] == "praga":  # its full view differs from the public one at a few choices
        assert data["perspectives"]["all"]["base"] == "public"


def test_a_downloaded_records_decision_notes_reach_the_offline_viewer():
    record = citadels_record()
    assert view.viewer_data(record, ["public"])["decision_logs"] == {}
    served = {**record, "decision_logs": {"0": {"3": "seat 0 reasons at 3"}}}
    assert view.viewer_data(served, ["public"])["decision_logs"] == served["decision_logs"]
