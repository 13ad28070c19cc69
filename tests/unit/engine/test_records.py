"""Records that prove what they replay (issue 15), for every title: a record of another rules
version is refused unless allowed, a record cut short is incomplete, and a record changed to
other legal actions or options, or replaying to another result, is detected."""

import json

import pytest

import engine
from engine.core import records
from engine.core.rng import Rng
from tests.support.toy_title import TOY

TITLES = [TOY] + [engine.title(t) for t in engine.titles()]
IDS = [t.id for t in TITLES]


def finished_record(title, seed=3):
    """A finished game's record, read back from JSON as a file or database would give it."""
    players = min(max(title.min_players, 3), title.max_players)
    state = title.new_game(players, seed=seed)
    chooser = Rng(seed, stream=5)
    while not state.is_over():
        state.apply(chooser.below(len(state.decision().options)))
    return json.loads(json.dumps(state.record())), state.result()


def resealed(record, result):
    """The record as an engine would have written it, after the edits made to it."""
    body = {k: v for k, v in record.items() if k != "final"}
    return {**body, "final": records.seal(body, result)}


def changed_action(title, record):
    """The record with one action replaced by another option legal at that point."""
    state = title.replay(record)
    replay = title.new_game(record["players"], record["options"], record["seed"])
    for step, action in enumerate(record["actions"]):
        others = [o for o in replay.decision().options if o != action]
        if others:
            edited = json.loads(json.dumps(record))
            edited["actions"][step] = others[0]
            return edited
        replay.apply(action)
    raise AssertionError(f"no decision of {state.title.id} had a second option")


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_an_unchanged_record_replays_and_carries_its_seal(title):
    record, result = finished_record(title)
    final = record["final"]
    assert final["over"] and final["actions"] == len(record["actions"])
    assert final["result_digest"] == records.digest(result)
    state = title.replay(record)
    assert state.result() == result and state.record() == record


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_of_another_rules_version_is_refused_unless_allowed(title):
    record, result = finished_record(title)
    older = resealed({**record, "rules_version": "0-older"}, result)
    with pytest.raises(engine.RecordVersionMismatch, match="allow_version=True"):
        title.replay(older)
    assert title.replay(older, allow_version=True).is_over()


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_changed_version_field_is_seen_as_an_altered_record(title):
    record, _ = finished_record(title)
    with pytest.raises(engine.RecordAltered, match="changed after it was written"):
        title.replay({**record, "engine_version": "9.9.9"})
    with pytest.raises(engine.RecordAltered):
        # claiming another version does not get an altered record through the compatibility path
        title.replay({**record, "rules_version": "0-older"}, allow_version=True)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_with_its_last_action_dropped_is_incomplete(title):
    record, _ = finished_record(title)
    record["actions"].pop()
    with pytest.raises(engine.IncompleteRecord, match=r"incomplete: .*\(1 missing at the end\)"):
        title.replay(record)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_with_an_action_changed_to_another_legal_one_is_detected(title):
    record, _ = finished_record(title)
    with pytest.raises(engine.RecordAltered):
        title.replay(changed_action(title, record))


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_with_a_changed_option_is_detected(title):
    record, _ = finished_record(title)
    spec = next(o for o in title.option_specs if not o.is_list and len(o.allowed) > 1)
    other = next(v for v in spec.allowed if v != record["options"][spec.name])
    edited = {**record, "options": {**record["options"], spec.name: other}}
    with pytest.raises(engine.RecordAltered):
        title.replay(edited)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_that_replays_to_another_result_than_stored_is_detected(title):
    # As if the engine that wrote it had scored the game differently.
    record, result = finished_record(title)
    other = {**result, "scores": [s + 1 for s in result["scores"]]}
    record["final"]["result_digest"] = records.digest(other)
    with pytest.raises(engine.ReplayDiverged, match="another result"):
        title.replay(record)
    with pytest.raises(engine.ReplayDiverged):  # allow_version lifts nothing for this version
        title.replay(record, allow_version=True)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_an_unfinished_game_is_sealed_as_unfinished_and_replays_to_that_point(title):
    state = title.new_game(title.min_players, seed=4)
    for _ in range(3):
        state.apply(0)
    record = json.loads(json.dumps(state.record()))
    assert record["final"] == {**record["final"], "over": False, "result_digest": None}
    assert title.replay(record).record() == record
    record["actions"].pop()
    with pytest.raises(engine.RecordAltered):
        title.replay(record)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_format_one_record_replays_only_through_the_compatibility_path(title):
    record, _ = finished_record(title)
    legacy = {k: v for k, v in record.items() if k != "final"} | {"format": 1}
    with pytest.raises(engine.RecordVersionMismatch, match="format 1"):
        title.replay(legacy)
    assert title.replay(legacy, allow_version=True).is_over()
    legacy["actions"].pop()
    with pytest.raises(engine.IncompleteRecord, match="before the end of the game"):
        title.replay(legacy, allow_version=True)
