"""A finished game's seats, decoded once from the match runner's result: what the store saves
as GameSeat rows and the analytics rows' per-seat columns are both read from these."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings

from arena.ratings.services import rating_ranks
from arena.sql import to_json
from workers.match import MatchResult

from .models import GameSeat

SEAT_STATUSES = frozenset(GameSeat.Status.values)
# A seat's score details are read from the record (arena.games.results), not stored.
EMPTY_DETAILS = to_json({})


@dataclass(slots=True)
class SeatOutcome:
    """One seat of a finished game as the store writes it (plain values, not a model: every
    stored game builds one per seat)."""

    seat: int
    bot_version_id: int
    score: int | None
    rank: int | None
    winner: bool
    status: str  # a GameSeat.Status: faulted whenever the seat has faults
    faults: list
    stderr: str
    rating_rank: int | None = None
    decision_logs: dict | None = None  # the bot's own note per decision number

    @property
    def faulted(self) -> bool:
        return self.status != GameSeat.Status.OK

    def logs_json(self) -> str | None:
        """No notes: SQL NULL (5 bytes a seat less than {}, which the reads take alike)."""
        return to_json(self.decision_logs) if self.decision_logs else None

    def row(self, game_id: int) -> list:
        """Its values in ``statements.SEAT_COLUMNS`` order."""
        return [
            game_id, self.seat, self.bot_version_id, self.score, self.rank, self.rating_rank,
            self.winner, self.status, len(self.faults), to_json(self.faults),
            EMPTY_DETAILS, self.stderr, self.logs_json(),
        ]  # fmt: skip


def seat_outcomes(seat_versions: Sequence[int], played: MatchResult) -> list[SeatOutcome]:
    """Each seat's score, rank, win, status, faults and capped stderr from the
    runner's result (``seat_versions``: the bot version id per seat); a seat with faults, or
    with a status the platform does not know, is faulted whatever the runner said."""
    result = played.result
    n = len(seat_versions)
    scores = result.get("scores") or [None] * n
    ranks = result.get("ranks") or [None] * n
    winners = set(result.get("winners") or [])
    faults = played.faults or [[] for _ in range(n)]
    statuses = played.seat_status or [GameSeat.Status.OK] * n
    stderr = played.stderr or [""] * n
    logs = played.decision_logs or [{} for _ in range(n)]
    cap = settings.ARENA_BOT_LIMITS.stderr_bytes
    seats = []
    for i, version in enumerate(seat_versions):
        seat_faults = list(faults[i] or [])
        status = statuses[i] if statuses[i] in SEAT_STATUSES else GameSeat.Status.FAULTED
        if status == GameSeat.Status.OK and seat_faults:
            status = GameSeat.Status.FAULTED
        text = stderr[i] or ""
        seats.append(
            SeatOutcome(
                seat=i,
                bot_version_id=version,
                score=scores[i],
                rank=ranks[i],
                winner=i in winners,
                status=str(status),
                faults=seat_faults,
                stderr=text[-cap:] if cap else "",
                decision_logs=logs[i] or {},
            )
        )
    for seat, rank in zip(seats, rating_ranks(seats), strict=True):
        seat.rating_rank = rank
    return seats
