"""Positions (docs/positions.md): every decision of sample games of both titles saved and
loaded gives the same options and observations, and plays on as the game did under the same
seed; a position of another title or format version is refused with what to do."""

import copy
import json
import subprocess
import sys

import pytest

import engine
from engine.core.positions import (
    POSITION_VERSION,
    PositionRefused,
    edited,
    position_in_record,
    reload,
    seat_view_of,
)
from tests.support.budget import every

SAMPLES = [("citadels", 4, 21), ("citadels", 2, 5), ("praga", 3, 8), ("praga", 1, 2)]
# Decisions between continuation checks (each plays the game to its end twice): 8 in the
# full run (`make fuzz`), 40 in a plain one, 160 in `make check` (tests/support/budget.py).
PLAY_ON_EVERY = every(8)


def bots_for(title_id, players, seed):
    names = [n for n in engine.bots(title_id) if n != "search"]
    return [engine.make_bot(title_id, names[i % len(names)], seed + i) for i in range(players)]


def play_on(state, seed):
    bots = bots_for(state.title.id, state.players, seed)
    while not state.is_over():
        d = state.decision()
        state.apply(bots[d.seat].choose(state.observation(d.seat), d.kind, d.options))
    return state.record()["actions"], state.result()


@pytest.mark.fuzz
@pytest.mark.parametrize("title_id, players, seed", SAMPLES)
def test_every_decision_round_trips_and_plays_on_as_the_game_did(title_id, players, seed):
    title = engine.title(title_id)
    game = title.new_game(players, seed=seed)
    bots = bots_for(title_id, players, seed)
    number = 0
    while not game.is_over():
        decision = game.decision()
        saved = json.loads(json.dumps(game.position()))
        loaded = title.load_position(saved)
        assert (loaded.decision().seat, loaded.decision().options) == (
            decision.seat,
            decision.options,
        )
        assert all(loaded.observation(s) == game.observation(s) for s in range(players))
        assert json.loads(json.dumps(loaded.position())) == saved
        if number % PLAY_ON_EVERY == 0:
            assert play_on(loaded, 99) == play_on(game.clone(), 99), number
        game.apply(
            bots[decision.seat].choose(
                game.observation(decision.seat), decision.kind, decision.options
            )
        )
        number += 1


def test_a_position_from_a_record_is_the_game_before_that_decision_with_its_choice():
    title = engine.title("praga")
    game = title.new_game(2, seed=3)
    play_on(game, 7)
    record, actions = game.record(), game.actions()
    position = position_in_record(title, record, 30)
    assert position["decision"] == 30 and position["played"] == actions[29]
    loaded = title.load_position(position)
    loaded.apply(position["played"])
    for action in actions[30:]:
        loaded.apply(action)
    assert loaded.result() == game.result()  # the hidden state and the generator were right
    with pytest.raises(engine.ConfigError, match="the game has decisions 1 to"):
        position_in_record(title, record, len(actions) + 1)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda p: p.update(title="citadels"), "the position is of 'citadels', not 'praga'"),
        (lambda p: p.update(version=POSITION_VERSION + 1), f"reads version {POSITION_VERSION}"),
        (lambda p: p.update(rules_version="000-0"), "take it again from the record"),
        (lambda p: p.pop("format"), "not a position"),
    ],
)
def test_a_position_of_another_title_or_version_is_refused_saying_why(edit, message):
    title = engine.title("praga")
    position = title.new_game(2, seed=1).position()
    changed = copy.deepcopy(position)
    edit(changed)
    with pytest.raises(PositionRefused, match=message.replace("?", r"\?")):
        title.load_position(changed)


def test_the_command_writes_the_position_to_a_file_or_standard_output(tmp_path):
    game = engine.title("citadels").new_game(3, seed=4)
    play_on(game, 1)
    (tmp_path / "game.json").write_text(json.dumps({"record": game.record()}))
    run = [sys.executable, "-m", "engine", "position", str(tmp_path / "game.json"), "--at", "12"]
    printed = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert json.loads(printed)["decision"] == 12
    subprocess.run([*run, "-o", str(tmp_path / "p.json")], check=True, capture_output=True)
    assert json.loads((tmp_path / "p.json").read_text()) == json.loads(printed)
    bad = subprocess.run([*run[:-1], "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--at 0: the game has decisions 1 to" in bad.stderr


def test_an_edited_position_sets_up_a_rule_scenario_and_decides_from_its_fields():
    # Citadels: the seat to move gets 30 gold more, so the state offers what 30 more gold buys
    game = engine.title("citadels").new_game(4, seed=2)
    seat = game.decision().seat
    before = game.observation(seat)["gold"][seat]

    def richer(fields):
        fields["gold"][seat] += 30

    scenario = edited(game, richer)
    assert scenario.observation(seat)["gold"][seat] == before + 30
    assert game.observation(seat)["gold"][seat] == before  # the original is untouched


@pytest.mark.parametrize("title_id, players, seed", SAMPLES[:3])
def test_a_seats_view_holds_what_that_seat_knows_and_cannot_be_played_on(title_id, players, seed):
    title = engine.title(title_id)
    game, bots = title.new_game(players, seed=seed), bots_for(title_id, players, seed)
    for _ in range(9):
        d = game.decision()
        game.apply(bots[d.seat].choose(game.observation(d.seat), d.kind, d.options))
    mover = game.decision().seat
    for seat in range(players):
        view = json.loads(json.dumps(seat_view_of(game, seat)))
        assert view["view"] == seat and view["decision"] == 10
        assert view["observation"] == json.loads(json.dumps(game.observation(seat)))
        assert not {"seed", "chance", "actions", "state", "references", "played"} & set(view)
        own = json.loads(json.dumps(game.decision().options)) if seat == mover else None
        assert view["to_move"]["options"] == own
        with pytest.raises(PositionRefused, match=f"seat {seat}'s view"):
            title.load_position(view)


def test_a_reloaded_state_decides_anew_from_fields_a_test_set():
    title = engine.title("praga")
    game = title.new_game(2, seed=3)
    seat = game.decision().seat
    gold = game.gold[seat] + 50
    game.gold[seat] = gold  # a public field, changed under a pending decision
    reload(game)
    assert game.gold[seat] == gold and game.actions() == [] and game.decision().seat == seat
    assert game.position()["state"] == title.load_position(game.position()).position()["state"]
