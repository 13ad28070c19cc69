"""The analytics rows of a game being stored: one AnalyticsSeat per seat and the title's facts.

The facts are computed where the game was played: the match runner calls the title's
``analytics`` hook on the final state (``engine.core.analytics.fact_rows``) and sends the
rows with the outcome (``MatchResult.analytics``). The store only writes them, so it never
replays a game nor asks which title it was (docs/analytics.md, "Where the facts are made").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import timezone

from arena.sql import insert_rows, row_timestamp

from .models import AnalyticsFact, AnalyticsSeat

if TYPE_CHECKING:
    from workers.match import MatchResult

SEAT_COLUMNS = [
    "game_id", "seat", "title", "tournament_id", "players", "bot_version_id", "score", "rank",
    "win_share", "faulted", "finished_at",
]  # fmt: skip
FACT_COLUMNS = ["game_id", "seat", "step", "kind", "subject", "value", "detail"]
# A second delivery writes the seats again before learning the game was stored (and rolls
# back): the unique (game, seat) must not make that an error.
SEATS_TAIL = " ON CONFLICT (game_id, seat) DO NOTHING"


def store_analytics(cursor, job, outcome: MatchResult) -> None:
    """Write the analytics rows of the game ``job`` (a claimed MatchJob) finished with
    ``outcome`` (the runner's MatchResult): two multi-row INSERTs, raw SQL on the worker's path
    (see ``arena.sql``)."""
    insert_rows(cursor, AnalyticsSeat, SEAT_COLUMNS, seat_rows(job, outcome), SEATS_TAIL)
    facts = [[job.game_id, *row] for row in outcome.analytics]
    insert_rows(cursor, AnalyticsFact, FACT_COLUMNS, facts)


def seat_rows(job, outcome: MatchResult) -> list[list]:
    """One row per seat in SEAT_COLUMNS order: a shared win counts 1/k for each winner; a
    seat with faults (or not ``ok``) is marked faulted."""
    result = outcome.result
    n = len(job.seat_versions)
    scores = result.get("scores") or [None] * n
    ranks = result.get("ranks") or [None] * n
    winners = set(result.get("winners") or ())
    faults = outcome.faults or [[]] * n
    statuses = outcome.seat_status or ["ok"] * n
    finished = row_timestamp(timezone.now())
    share = 1.0 / len(winners) if winners else 0.0
    return [
        [
            job.game_id,
            seat,
            job.title,
            job.tournament_id,
            n,
            version,
            scores[seat],
            ranks[seat],
            share if seat in winners else 0.0,
            bool(faults[seat]) or statuses[seat] != "ok",
            finished,
        ]  # fmt: skip
        for seat, version in enumerate(job.seat_versions)
    ]
