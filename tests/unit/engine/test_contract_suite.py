"""One contract suite for every title: random legal play checked step by step (STYLE §22).

Runs on every registered title and on the toy title of tests/support, so it is never empty.
Each title's own property tests go further (thousands of games, conservation laws).
"""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.core.rng import Rng
from tests.support.budget import cases
from tests.support.toy_title import TOY

ROOT = Path(__file__).resolve().parents[3]
BIG_SEED = 987_654_321_987  # long enough that finding it in an observation is no coincidence


def _cases():
    cases = [(TOY, p) for p in range(TOY.min_players, TOY.max_players + 1)]
    for title_id in engine.titles():
        title = engine.title(title_id)
        cases += [(title, p) for p in range(title.min_players, title.max_players + 1)]
    return cases


CASES = _cases()
IDS = [f"{t.id}-{p}p" for t, p in CASES]


def _play_checked(title, players, seed, check_every=1):
    """Play a random game, checking the contract at every ``check_every``-th decision."""
    state = title.new_game(players, seed=seed)
    chooser = Rng(seed, stream=7)
    step = 0
    while not state.is_over():
        decision = state.decision()
        assert 0 <= decision.seat < players
        assert decision.options, f"decision {decision.kind} offers no option"
        if step % check_every == 0:
            # every seat's view now and then; the deciding seat's at every checked step
            seats = range(players) if step % (10 * check_every) == 0 else [decision.seat]
            _check_decision(state, decision, seats)
        state.apply(chooser.below(len(decision.options)))
        step += 1
        assert step < 100_000, "game does not end"
    return state


def _check_decision(state, decision, seats):
    encoded = [json.dumps(o, sort_keys=True) for o in decision.options]
    assert all(isinstance(o, dict) and "kind" in o for o in decision.options)
    assert len(set(encoded)) == len(encoded), "duplicate options"
    assert json.loads(json.dumps(decision.options)) == decision.options
    for seat in seats:
        view = state.observation(seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert str(BIG_SEED) not in text, "the seed leaks into an observation"


# Random games per title and player count in the full run (`make fuzz`); a plain run plays a
# fifth (3 and 5), `make check` a twentieth (tests/support/budget.py).
CONTRACT_GAMES = 15
REPLAYED_GAMES = 25


@pytest.mark.fuzz
@pytest.mark.parametrize(("title", "players"), CASES, ids=IDS)
def test_random_games_keep_the_contract(title, players):
    for game in range(cases(CONTRACT_GAMES)):
        state = _play_checked(title, players, BIG_SEED + game)
        result = state.result()
        assert len(result["scores"]) == len(result["ranks"]) == players
        assert result["winners"] == [s for s in range(players) if result["ranks"][s] == 1]
        assert min(result["ranks"]) == 1


@pytest.mark.fuzz
@pytest.mark.parametrize(("title", "players"), CASES, ids=IDS)
def test_records_replay_to_the_identical_game(title, players):
    for game in range(cases(REPLAYED_GAMES)):
        state = _play_checked(title, players, 1000 + game, check_every=50)
        record = json.loads(json.dumps(state.record()))
        again = title.replay(record)
        assert again.record() == state.record()
        assert again.result() == state.result()
        assert [again.observation(s) for s in range(players)] == [
            state.observation(s) for s in range(players)
        ]


@pytest.mark.parametrize(("title", "players"), CASES, ids=IDS)
def test_an_illegal_choice_changes_nothing(title, players):
    state = title.new_game(players, seed=77)
    chooser = Rng(77, stream=3)
    for _ in range(60):
        if state.is_over():
            break
        before = (json.dumps(state.record()), [state.observation(s) for s in range(players)])
        options = state.decision().options
        for bad in (len(options), -1, {"kind": "no-such-option"}, "0"):
            with pytest.raises(engine.IllegalAction):
                state.apply(bad)
        assert (
            json.dumps(state.record()),
            [state.observation(s) for s in range(players)],
        ) == before
        state.apply(chooser.below(len(options)))


@pytest.mark.parametrize(("title", "players"), CASES, ids=IDS)
def test_a_clone_is_equal_and_independent(title, players):
    state = title.new_game(players, seed=55)
    chooser = Rng(55, stream=5)
    for _ in range(40):
        if state.is_over():
            break
        state.apply(chooser.below(len(state.decision().options)))
    twin = state.clone()
    assert twin.record() == state.record()
    assert [twin.observation(s) for s in range(players)] == [
        state.observation(s) for s in range(players)
    ]
    frozen = json.dumps(state.record()), [state.observation(s) for s in range(players)]
    for _ in range(40):
        if twin.is_over():
            break
        twin.apply(chooser.below(len(twin.decision().options)))
    assert (json.dumps(state.record()), [state.observation(s) for s in range(players)]) == frozen
    # Played on with the same choices, original and clone stay identical.
    a, b = state.clone(), state.clone()
    for _ in range(40):
        if a.is_over():
            break
        choice = chooser.below(len(a.decision().options))
        a.apply(choice)
        b.apply(choice)
    assert a.record() == b.record()


REGISTERED = [t for t in engine.titles()]


@pytest.mark.parametrize("title_id", REGISTERED)
def test_the_same_seed_gives_the_same_game_in_other_processes(title_id):
    title = engine.title(title_id)
    players = min(4, title.max_players)
    script = (
        "import hashlib, json, engine\n"
        f"s = engine.play_game({title_id!r}, ['random'] * {players}, seed=424242)\n"
        "print(hashlib.sha256(json.dumps(s.record(), sort_keys=True).encode()).hexdigest())\n"
    )
    digests = set()
    for hashseed in ("1", "2", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        out = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(out.stdout.strip())
    here = engine.play_game(title_id, ["random"] * players, seed=424242)
    digests.add(hashlib.sha256(json.dumps(here.record(), sort_keys=True).encode()).hexdigest())
    assert len(digests) == 1


@pytest.mark.parametrize("title_id", REGISTERED)
def test_every_quick_built_in_bot_finishes_games(title_id):
    # Bots that think for a budget on every decision have their own tests at a small budget.
    title = engine.title(title_id)
    players = min(4, title.max_players)
    for name in engine.bots(title_id, thinking=False):
        state = engine.play_game(title_id, [name] * players, seed=3)
        assert state.is_over()


@pytest.mark.parametrize("title_id", REGISTERED)
def test_quick_games_leave_out_exactly_the_bots_that_think(title_id):
    # Demo, history and test games ask for the quick bots; a search bot among them would make
    # each of their games take minutes.
    quick = engine.bots(title_id, thinking=False)
    for name in engine.bots(title_id):
        assert (name in quick) is not engine.make_bot(title_id, name, seed=1).thinks
