"""The runner's result decoded once into each seat's outcome, which both the seats the store
saves and the analytics rows read."""

import datetime as dt

from arena.games.analytics import seat_rows
from arena.games.models import GameSeat
from arena.games.outcome import seat_outcomes
from workers.limits import Limits
from workers.match import MatchResult, SeatSpec


def played(**changes) -> MatchResult:
    seats = [SeatSpec("builtin", "random") for _ in range(3)]
    values = dict(
        title="toy", seats=seats, record={}, sandbox="none", limits={}, names=["a", "b", "c"],
        result={"scores": [5, 5, 1], "ranks": [1, 1, 3], "winners": [0, 1], "details": [{}] * 3},
        faults=[[], [], []], seat_status=["ok", "ok", "ok"], timings=[{}] * 3,
        stderr=["x" * 10, "", ""],
    )  # fmt: skip
    values.update(changes)
    return MatchResult(**values)


def test_a_seat_with_faults_or_an_unknown_status_is_faulted_whatever_the_runner_said():
    fault = {"kind": "timeout", "decision": 3, "message": "late", "applied": None}
    outcome = played(faults=[[fault], [], []], seat_status=["ok", "gone away", "disqualified"])
    seats = seat_outcomes([11, 12, 13], outcome)
    assert [s.status for s in seats] == [GameSeat.Status.FAULTED, GameSeat.Status.FAULTED,
                                         GameSeat.Status.DISQUALIFIED]  # fmt: skip
    assert all(s.faulted for s in seats)
    assert [s.bot_version_id for s in seats] == [11, 12, 13]


def test_faulted_seats_rank_last_for_ratings_and_stderr_is_capped(settings):
    settings.ARENA_BOT_LIMITS = Limits(stderr_bytes=4)
    fault = {"kind": "illegal", "decision": 1, "message": "no", "applied": 0}
    seats = seat_outcomes([11, 12, 13], played(faults=[[fault], [], []]))
    assert [s.rating_rank for s in seats] == [3, 1, 2]  # the faulted winner goes below
    assert seats[0].stderr == "xxxx"


def test_the_analytics_rows_share_a_win_between_its_winners():
    seats = seat_outcomes([11, 12, 13], played())
    rows = seat_rows(7, "toy", 3, seats, dt.datetime(2026, 12, 2, tzinfo=dt.UTC))
    assert [row[8] for row in rows] == [0.5, 0.5, 0.0]  # win_share
    assert [row[9] for row in rows] == [False, False, False]  # faulted
    assert {row[0] for row in rows} == {7} and [row[5] for row in rows] == [11, 12, 13]
