"""The analytics rows of a game being stored: one AnalyticsSeat per seat, the title's facts
folded per seat, kind, subject and detail, and the game's AnalyticsPending row.

The facts are computed where the game was played: the match runner calls the title's
``analytics`` hook on the final state (``engine.core.analytics.fact_rows``) and sends the
rows with the outcome (``MatchResult.analytics``). The store only writes them, so it never
replays a game nor asks which title it was (docs/analytics.md, "Where the facts are made").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import timezone

from arena.sql import insert_rows, row_timestamp

from .models import AnalyticsFact, AnalyticsPending, AnalyticsSeat

if TYPE_CHECKING:
    from .outcome import SeatOutcome

SEAT_COLUMNS = [
    "game_id", "seat", "title", "tournament_id", "players", "bot_version_id", "score", "rank",
    "win_share", "faulted", "finished_at",
]  # fmt: skip
# The columns of a folded fact row (engine.core.analytics.ROW_FIELDS), after the game id.
FACT_COLUMNS = ["seat", "kind", "subject", "detail", "facts", "value"]
# A second delivery writes the seats again before learning the game was stored (and rolls
# back): the unique (game, seat) must not make that an error.
SEATS_TAIL = " ON CONFLICT (game_id, seat) DO NOTHING"
PENDING_TAIL = " ON CONFLICT (game_id) DO NOTHING"


def store_analytics(cursor, job, seats: list[SeatOutcome], facts: list[list]) -> None:
    """Write the analytics rows of the game ``job`` (a claimed MatchJob) whose ``seats``
    were decoded from the runner's result (``arena.games.outcome``), with the title's
    ``facts`` (``MatchResult.analytics``), and mark the game pending for the totals
    (``arena.games.totals``): three INSERTs, raw SQL on the worker's path (see
    ``arena.sql``). The fact rows come folded from the runner, as they are stored, and go
    with the game id as a parameter of its own."""
    insert_rows(cursor, AnalyticsSeat, SEAT_COLUMNS, seat_rows(job, seats), SEATS_TAIL)
    same = [("game_id", job.game_id)]
    insert_rows(cursor, AnalyticsFact, FACT_COLUMNS, facts, same=same)
    insert_rows(cursor, AnalyticsPending, ["game_id"], [[job.game_id]], PENDING_TAIL)


def seat_rows(job, seats: list[SeatOutcome]) -> list[list]:
    """One row per seat in SEAT_COLUMNS order: a shared win counts 1/k for each winner."""
    finished = row_timestamp(timezone.now())
    winners = sum(seat.winner for seat in seats)
    share = 1.0 / winners if winners else 0.0
    return [
        [
            job.game_id,
            seat.seat,
            job.title,
            job.tournament_id,
            len(seats),
            seat.bot_version_id,
            seat.score,
            seat.rank,
            share if seat.winner else 0.0,
            seat.faulted,
            finished,
        ]  # fmt: skip
        for seat in seats
    ]
