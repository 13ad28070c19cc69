"""The runner's fault policy, driven step by step with in-process bots (no processes)."""

import pytest

import engine
from tests.support.registered import registered
from tests.support.toy_title import TOY
from workers.limits import Limits
from workers.match import Match, SeatSpec, run_match


class Stubborn(engine.Bot):
    """Always answers an index that does not exist."""

    def choose(self, observation, kind, options):
        return len(options)


class Broken(engine.Bot):
    def choose(self, observation, kind, options):
        raise ZeroDivisionError("bug")


@pytest.fixture
def toy():
    with registered(TOY, {"stubborn": Stubborn, "broken": Broken}):
        yield "toy"


def test_an_illegal_choice_gets_the_fallback_and_a_fault(toy):
    seats = [SeatSpec("builtin", "stubborn"), SeatSpec("builtin", "random")]
    with Match(toy, seats, seed=2, limits=Limits(max_faults=99)) as match:
        step = match.play_one_decision()
        assert step.seat == 0 and step.applied == 0  # toy: draw comes first, no pass option
        assert step.fault["kind"] == "illegal" and step.fault["decision"] == 1
        assert step.fault["applied"] == {"kind": "draw"}


def test_after_max_faults_the_seat_is_disqualified_and_the_game_still_ends(toy):
    seats = [SeatSpec("builtin", "stubborn")] * 2
    outcome = run_match(toy, seats, seed=2, limits=Limits(max_faults=2))
    for seat in range(2):
        assert len(outcome.faults[seat]) <= 2
        expected = "disqualified" if len(outcome.faults[seat]) == 2 else "faulted"
        assert outcome.seat_status[seat] == expected
    assert outcome.result["ranks"]


def test_a_built_in_bot_that_raises_is_a_crash_and_plays_fallback_after(toy):
    outcome = run_match(toy, [SeatSpec("builtin", "broken"), SeatSpec("builtin", "random")], seed=3)
    assert [f["kind"] for f in outcome.faults[0]] == ["crash"]
    assert "ZeroDivisionError('bug')" in outcome.faults[0][0]["message"]
    assert outcome.seat_status[0] == "disqualified"
    assert outcome.timings[0]["decisions"] == 1


def test_bad_seats_are_refused_before_the_game_starts(toy):
    with pytest.raises(engine.ConfigError, match="seat kind 'robot'"):
        run_match(toy, [SeatSpec("robot", "x")] * 2, seed=1)
    with pytest.raises(ValueError, match="needs a path"):
        run_match(toy, [SeatSpec("process", "x")] * 2, seed=1)
    with pytest.raises(engine.ConfigError, match="unknown bot 'nobody'"):
        run_match(toy, [SeatSpec("builtin", "nobody")] * 2, seed=1)
