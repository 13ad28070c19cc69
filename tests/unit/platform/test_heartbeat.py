"""The lease heartbeat on a real thread: it renews while the game makes progress, stops when
the game stalls or is released, and turns a lost lease into LeaseLost at the next decision."""

import threading
import time

import pytest

from arena.games.heartbeat import Heartbeat, LeaseLost, stall_budget
from workers.limits import Limits


class Renewals:
    def __init__(self, answer: bool = True):
        self.count = 0
        self.answer = answer
        self.seen = threading.Event()
        self.states = []

    def __call__(self, state=None) -> bool:
        self.count += 1
        self.states.append(state)
        self.seen.set()
        return self.answer


def until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.01)


def test_it_renews_while_the_game_makes_progress():
    heartbeat, renew = Heartbeat(), Renewals()
    heartbeat.hold(renew, every=0.02, stall_after=30, label="1")
    try:
        until(lambda: heartbeat.progress() or renew.count >= 3)
    finally:
        heartbeat.release()


def test_each_renewal_is_given_the_live_game_the_runner_last_reported():
    heartbeat, renew = Heartbeat(), Renewals()
    game = object()
    heartbeat.hold(renew, every=0.02, stall_after=30, label="6")
    try:
        until(lambda: renew.count >= 1)
        heartbeat.progress(game)
        until(lambda: renew.states[-1] is game)
    finally:
        heartbeat.release()
    assert renew.states[0] is None  # before the runner reported any


def test_a_game_without_progress_stops_renewing_once_its_time_limits_are_spent():
    heartbeat, renew = Heartbeat(), Renewals()
    heartbeat.hold(renew, every=0.02, stall_after=0.1, label="2")
    try:
        until(lambda: heartbeat._held.stalled)
        renewed = renew.count
        time.sleep(0.2)  # ten more periods: none renews
        assert renew.count == renewed
    finally:
        heartbeat.release()


def test_a_released_game_is_renewed_no_more():
    heartbeat, renew = Heartbeat(), Renewals()
    heartbeat.hold(renew, every=0.02, stall_after=30, label="3")
    until(lambda: renew.count >= 1)
    heartbeat.release()
    renewed = renew.count
    time.sleep(0.2)
    assert renew.count <= renewed + 1  # at most the renewal already under way


def test_a_lease_taken_by_another_worker_stops_the_game_at_its_next_decision():
    heartbeat, renew = Heartbeat(), Renewals(answer=False)
    heartbeat.hold(renew, every=0.02, stall_after=30, label="4")
    try:
        with pytest.raises(LeaseLost):
            until(lambda: heartbeat.progress())
    finally:
        heartbeat.release()


def test_a_renewal_on_a_broken_connection_is_tried_again_at_once():
    calls = []

    def renew(state=None):
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise ConnectionError("server closed the connection unexpectedly")
        return True

    heartbeat = Heartbeat()
    heartbeat.hold(renew, every=0.5, stall_after=30, label="5")
    try:
        until(lambda: len(calls) >= 2)
        heartbeat.progress()  # not lost
        assert calls[1] - calls[0] < 0.4  # within the same beat, not a period later
    finally:
        heartbeat.release()


def test_the_stall_budget_covers_the_longest_step_the_time_limits_allow():
    limits = Limits(decision_ms=2000, bank_ms=5000, startup_ms=10000, shutdown_ms=500)
    assert stall_budget(limits, 30) == 10.5 + 30
    assert stall_budget(limits.replace(bank_ms=60000), 30) == 62.5 + 30
