"""The engine contract, shown on a tiny title (tests/support/toy_title.py)."""

import json

import pytest

import engine
from engine.core import records
from engine.core.play import play_out
from tests.support.toy_title import TOY


def random_game(seed, players=3):
    state = TOY.new_game(players, seed=seed)
    return play_out(state, [engine.RandomBot(seed * 10 + i) for i in range(players)])


def test_options_resolve_defaults_by_player_count():
    assert TOY.options(2) == {"colours": ["red"], "max_cards": 4}
    assert TOY.options(4) == {"colours": ["red"], "max_cards": 3}


def test_options_are_canonical_and_accept_text():
    assert TOY.options(2, max_cards="2", colours="green,red")["colours"] == ["red", "green"]
    assert TOY.options(2, max_cards="2")["max_cards"] == 2


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"max_cards": 9},
            "option 'max_cards': 9 is not allowed with 2 players; choose one of 2, 3, 4",
        ),
        ({"speed": 1}, "unknown option 'speed'; options are colours, max_cards"),
        ({"colours": ["pink"]}, "option 'colours': 'pink' not allowed"),
        ({"max_cards": True}, "True is not allowed"),
    ],
)
def test_bad_options_name_the_option_and_allowed_values(overrides, message):
    with pytest.raises(engine.ConfigError, match=message.replace("(", r"\(")):
        TOY.options(2, **overrides)


def test_bad_player_count_is_refused():
    with pytest.raises(engine.ConfigError, match="played by 2 to 4 players, not 5"):
        TOY.new_game(5)


def test_choice_by_index_or_equal_dict():
    a = TOY.new_game(2, seed=1)
    b = TOY.new_game(2, seed=1)
    a.apply(0)
    b.apply({"kind": "draw"})
    assert a.record() == b.record()


@pytest.mark.parametrize("choice", [7, -1, {"kind": "fly"}, "draw", None, True, 0.0])
def test_illegal_choice_leaves_state_unchanged(choice):
    state = TOY.new_game(2, seed=3)
    before = json.dumps(state.record()), state.observation(0)
    with pytest.raises(engine.IllegalAction):
        state.apply(choice)
    assert (json.dumps(state.record()), state.observation(0)) == before


def test_record_replays_to_the_same_result_and_is_json():
    state = random_game(seed=5)
    record = json.loads(json.dumps(state.record()))
    again = TOY.replay(record)
    assert again.result() == state.result()
    assert again.record() == record


def test_replay_does_not_need_the_prng_but_the_seed_is_sealed():
    record = random_game(seed=6).record()
    steps = list(records.steps(TOY, {**record, "seed": 999}))  # outcomes drive the replay
    assert steps[-1][0].result() == random_game(seed=6).result()
    with pytest.raises(engine.RecordAltered, match="seed"):
        TOY.replay({**record, "seed": 999})


def test_tampered_record_is_refused():
    record = records.expand(TOY, random_game(seed=7).record())
    record["chance"] = record["chance"][:-1]
    with pytest.raises(engine.ReplayMismatch):
        TOY.replay(record)
    record = records.expand(TOY, random_game(seed=7).record())
    record["actions"].append({"kind": "stop"})
    with pytest.raises(engine.ReplayMismatch):
        TOY.replay(record)
    record = random_game(seed=7).record()
    record["actions"]["count"] += 1
    with pytest.raises(engine.ReplayMismatch):
        TOY.replay(record)


def test_same_seed_same_game_different_seed_different_deal():
    assert random_game(8).record() == random_game(8).record()
    assert TOY.new_game(2, seed=1).record()["chance"] != TOY.new_game(2, seed=2).record()["chance"]


def test_clone_is_independent():
    state = TOY.new_game(3, seed=9)
    state.apply(0)
    twin = state.clone()
    assert twin.record() == state.record()
    twin.apply(0)
    assert twin.record() != state.record()
    assert records.action_count(state.record()) == 1


def test_result_ranks_share_ties():
    from engine.core.contract import ranks_from_scores

    assert ranks_from_scores([5, 9, 5, 1]) == [2, 1, 2, 4]


def test_no_decision_or_apply_after_the_end():
    state = random_game(seed=10)
    with pytest.raises(engine.IllegalAction):
        state.decision()
    with pytest.raises(engine.IllegalAction):
        state.apply(0)


def test_display_names_give_english_then_the_seeds_chinese():
    names = engine.title("citadels").display_names()
    assert names["king"] == "King 國王" and names["assassin"] == "Assassin 刺客"
    assert names["witch"] == "Witch 女巫"  # Dark City characters too
    assert all(" " in label for label in names.values())


def test_praga_display_names_cover_actions_and_every_component_id():
    names = engine.title("praga").display_names()
    assert names["wall"] == "Build a wall 建造城墙"
    assert names["cathedral"] == "Cathedral 主教座堂"
    components = engine.title("praga").components
    ids = [t.id for t in components.tiles] + [t["id"] for t in components.techs]
    assert ids and all(i in names and names[i] != i for i in ids)
    assert any("技术" in names[t] for t in ids)  # technologies named in English and the seed's
