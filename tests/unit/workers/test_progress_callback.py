"""The runner's per-decision callback: called as the game goes on, and able to stop it."""

import pytest

from engine.core import records
from workers.match import SeatSpec, run_match

SEATS = [SeatSpec("builtin", "random")] * 4


def test_the_callback_hears_the_start_and_every_decision():
    calls = []
    result = run_match("citadels", SEATS, seed=3, on_progress=calls.append)
    assert len(calls) == 1 + records.action_count(result.record)
    assert calls[0] is calls[-1] and calls[-1].is_over()  # the live game, as it goes on


def test_an_exception_from_the_callback_stops_the_game():
    calls = []

    def stop_at_the_fifth(state):
        calls.append(1)
        if len(calls) == 5:
            raise TimeoutError("lease lost")

    with pytest.raises(TimeoutError):
        run_match("citadels", SEATS, seed=3, on_progress=stop_at_the_fifth)
    assert len(calls) == 5
