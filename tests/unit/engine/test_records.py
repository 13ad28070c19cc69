"""Records that prove what they replay (issues 15 and 25), for every title: a record of another
rules version is refused unless allowed, a record cut short is incomplete, and a record changed
to other legal actions, options or seed, or replaying to another result, is detected; records
are packed (format 3) and those of format 2 keep replaying and convert both ways."""

import json

import pytest

import engine
from engine.core import digits, records
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
    if record["format"] == 2:
        replay = title.new_game(record["players"], record["options"], record["seed"])
        for step, action in enumerate(record["actions"]):
            others = [o for o in replay.decision().options if o != action]
            if others:
                edited = json.loads(json.dumps(record))
                edited["actions"][step] = others[0]
                return edited
            replay.apply(action)
    live, picks = title.new_game(record["players"], record["options"], record["seed"]), []
    for action in title.replay(record).actions():  # each action as (index, options), packed
        options = live.decision().options
        picks.append((options.index(action), len(options)))
        live.apply(action)
    for step, (index, width) in enumerate(picks):
        if width > 1:
            picks[step] = ((index + 1) % width, width)
            code = digits.pack(picks)
            return {**record, "actions": {"count": len(picks), "code": code}}
    raise AssertionError(f"no decision of {title.id} had a second option")


def both_formats(title):
    """The same finished game's record packed (format 3) and as lists (format 2)."""
    record, result = finished_record(title)
    return [record, records.expand(title, record)], result


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_an_unchanged_record_replays_and_carries_its_seal(title):
    record, result = finished_record(title)
    final = record["final"]
    assert record["format"] == 3
    assert final["over"] and final["actions"] == record["actions"]["count"] > 0
    assert final["result_digest"] == records.digest(result)
    state = title.replay(record)
    assert state.result() == result and state.record() == record
    assert record["actions"]["count"] == len(state.actions())


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_packed_record_is_a_fraction_of_the_lists_and_converts_both_ways(title):
    record, result = finished_record(title)
    listed = records.expand(title, record)
    assert listed["format"] == 2 and listed["actions"] == title.replay(record).actions()
    size = len(json.dumps({k: record[k] for k in ("chance", "actions")}))
    shrinks = 1 if title is TOY else 4  # the toy game takes five actions: little to pack
    assert size * shrinks < len(json.dumps({k: listed[k] for k in ("chance", "actions")}))
    assert title.replay(listed).result() == result  # format 2 keeps replaying
    assert records.convert(title, listed, 3) == record
    assert records.convert(title, record, 2) == listed


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_changed_seed_is_seen_as_an_altered_record(title):
    record, _ = finished_record(title)
    with pytest.raises(engine.RecordAltered, match="its seed, options"):
        title.replay({**record, "seed": record["seed"] + 1})
    # format 2 left the seed out of its digest: the chance outcomes replace it on replay
    listed = records.expand(title, record)
    assert title.replay({**listed, "seed": record["seed"] + 1}).is_over()


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
def test_a_record_with_its_last_action_dropped_is_incomplete_or_altered(title):
    record, _ = finished_record(title)
    listed = records.expand(title, record)
    listed["actions"].pop()
    with pytest.raises(engine.IncompleteRecord, match=r"incomplete: .*\(1 missing at the end\)"):
        title.replay(listed)
    shorter = {**record, "actions": {**record["actions"], "count": record["final"]["actions"] - 1}}
    with pytest.raises(engine.RecordAltered):
        title.replay(shorter)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_with_an_action_changed_to_another_legal_one_is_detected(title):
    for record in both_formats(title)[0]:
        with pytest.raises(engine.RecordAltered):
            title.replay(changed_action(title, record))


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_with_a_changed_option_is_detected(title):
    for record in both_formats(title)[0]:
        spec = next(o for o in title.option_specs if not o.is_list and len(o.allowed) > 1)
        other = next(v for v in spec.allowed if v != record["options"][spec.name])
        edited = {**record, "options": {**record["options"], spec.name: other}}
        with pytest.raises(engine.RecordAltered):
            title.replay(edited)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_record_that_replays_to_another_result_than_stored_is_detected(title):
    # As if the engine that wrote it had scored the game differently.
    recorded, result = both_formats(title)
    for record in recorded:
        other = {**result, "scores": [s + 1 for s in result["scores"]]}
        record["final"]["result_digest"] = records.digest(other)
        with pytest.raises(engine.ReplayDiverged, match="another result"):
            title.replay(record)
        with pytest.raises(engine.ReplayDiverged):  # allow_version lifts nothing here
            title.replay(record, allow_version=True)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_an_unfinished_game_is_sealed_as_unfinished_and_replays_to_that_point(title):
    state = title.new_game(title.min_players, seed=4)
    for _ in range(3):
        state.apply(0)
    record = json.loads(json.dumps(state.record()))
    assert record["final"] == {**record["final"], "over": False, "result_digest": None}
    assert title.replay(record).record() == record
    listed = records.expand(title, record)
    assert title.replay(listed).actions() == listed["actions"] == state.actions()
    listed["actions"].pop()
    with pytest.raises(engine.RecordAltered):
        title.replay(listed)


@pytest.mark.parametrize("title", TITLES, ids=IDS)
def test_a_format_one_record_replays_only_through_the_compatibility_path(title):
    record, _ = finished_record(title)
    listed = records.expand(title, record)
    legacy = {k: v for k, v in listed.items() if k != "final"} | {"format": 1}
    with pytest.raises(engine.RecordVersionMismatch, match="format 1"):
        title.replay(legacy)
    assert title.replay(legacy, allow_version=True).is_over()
    legacy["actions"].pop()
    with pytest.raises(engine.IncompleteRecord, match="before the end of the game"):
        title.replay(legacy, allow_version=True)
