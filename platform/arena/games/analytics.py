"""The analytics rows of a game being stored: one AnalyticsSeat per seat, the title's facts
folded per seat, kind, subject and detail, and the game's AnalyticsPending row.

The facts are computed where the game was played: the match runner calls the title's
``analytics`` hook on the final state (``engine.core.analytics.fact_rows``) and sends the
rows with the outcome (``MatchResult.analytics``). The store only writes them, so it never
replays a game nor asks which title it was (docs/analytics.md, "Where the facts are made").

The fact rows (about 130 a 4-player Citadels game, 15.6 KB with their index) are kept only
until the fold has added them to the totals (``arena.games.totals``), which then deletes
them: the figures are in the totals, and the record holds the game, so a rebuild of the
totals derives them again from the records (:func:`derive_missing_facts`), as the runner
did. The seat rows (250 bytes each with their indexes) go the same way: each is the game's
and its GameSeat's columns side by side, so a rebuild writes them again from those
(:func:`derive_missing_seats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import connection, models, transaction
from django.db.models import Exists, OuterRef

import engine
from arena.sql import build, columns, insert_rows, row_timestamp
from engine.core.analytics import fact_rows

from .models import AnalyticsFact, AnalyticsPending, AnalyticsSeat, Game, GameSeat, with_records

if TYPE_CHECKING:
    from .outcome import SeatOutcome

SEAT_COLUMNS = columns(
    AnalyticsSeat, "game", "seat", "title", "tournament", "players", "bot_version", "score",
    "rank", "win_share", "faulted", "finished_at",
)  # fmt: skip
# The columns of a folded fact row (engine.core.analytics.ROW_FIELDS), after the game id.
FACT_COLUMNS = columns(AnalyticsFact, "seat", "kind", "subject", "detail", "facts", "value")
FACT_GAME = columns(AnalyticsFact, "game")[0]
PENDING_COLUMNS = columns(AnalyticsPending, "game_id")
# A second delivery writes the seats again before learning the game was stored (and rolls
# back): the unique (game, seat) must not make that an error.
SEATS_TAIL = build(" ON CONFLICT ({s.game}, {s.seat}) DO NOTHING", s=AnalyticsSeat)
PENDING_TAIL = build(" ON CONFLICT ({p.game_id}) DO NOTHING", p=AnalyticsPending)


def store_analytics(
    cursor, job, seats: list[SeatOutcome], facts: list[list], finished: datetime
) -> None:
    """Write the analytics rows of the game ``job`` (a claimed MatchJob) whose ``seats``
    were decoded from the runner's result (``arena.games.outcome``), with the title's
    ``facts`` (``MatchResult.analytics``), and mark the game pending for the totals
    (``arena.games.totals``): three INSERTs, raw SQL on the worker's path (see
    ``arena.sql``). The fact rows come folded from the runner, as they are stored, and go
    with the game id as a parameter of its own. ``finished``: the game's ``finished_at``."""
    rows = seat_rows(job.game_id, job.title, job.tournament_id, seats, finished)
    insert_rows(cursor, AnalyticsSeat, SEAT_COLUMNS, rows, SEATS_TAIL)
    insert_rows(cursor, AnalyticsFact, FACT_COLUMNS, facts, same=[(FACT_GAME, job.game_id)])
    insert_rows(cursor, AnalyticsPending, PENDING_COLUMNS, [[job.game_id]], PENDING_TAIL)


def seat_rows(
    game_id: int, title: str, tournament_id: int, seats: Sequence, finished: datetime
) -> list[list]:
    """One row per seat (a SeatOutcome or a GameSeat) in SEAT_COLUMNS order: a shared win
    counts 1/k for each winner."""
    finished = row_timestamp(finished)
    winners = sum(seat.winner for seat in seats)
    share = 1.0 / winners if winners else 0.0
    return [
        [
            game_id,
            seat.seat,
            title,
            tournament_id,
            len(seats),
            seat.bot_version_id,
            seat.score,
            seat.rank,
            share if seat.winner else 0.0,
            seat.status != GameSeat.Status.OK,
            finished,
        ]  # fmt: skip
        for seat in seats
    ]


DERIVE_BATCH = 500


def derive_missing_facts(
    batch: int = DERIVE_BATCH, *, pending_only: bool = True
) -> tuple[int, int]:
    """The fact rows of every pending game (every stored game, with ``pending_only``
    false) that has none (its rows were folded and deleted), derived again from its record,
    ``batch`` games per transaction: each record is replayed and the title's facts folded as
    the runner folds them. Returns (games derived, games whose record does not replay, which
    stay without facts). A replay costs a few ms: a rebuild of a million games spends hours
    here (docs/scaling.md)."""
    missing = _without(AnalyticsFact, pending_only)
    derived = failed = 0
    last = 0
    while ids := list(missing.filter(game_id__gt=last)[:batch]):
        last = ids[-1]
        games = with_records(Game.objects.filter(pk__in=ids, record__isnull=False))
        with transaction.atomic(), connection.cursor() as cursor:
            for game in games:
                rows = _facts_of(game.record)
                if rows is None:
                    failed += 1
                    continue
                insert_rows(cursor, AnalyticsFact, FACT_COLUMNS, rows, same=[(FACT_GAME, game.pk)])
                derived += 1
    return derived, failed


def _facts_of(record: dict) -> list[list] | None:
    """The folded fact rows of a recorded game, or None when its record does not replay."""
    try:
        title = engine.title(record.get("title", ""))
        state = title.replay(record, allow_version=True)
    except engine.EngineError:
        return None
    return fact_rows(title, state)


def _without(model, pending_only: bool):
    """The ids of the pending (else stored) games that have no ``model`` row, in order."""
    source = AnalyticsPending.objects.all() if pending_only else stored_games()
    return (
        source.filter(~Exists(model.objects.filter(game_id=OuterRef("game_id"))))
        .values_list("game_id", flat=True)
        .order_by("game_id")
    )


def stored_games():
    """Every game the store wrote analytics rows for, as a queryset of ``game_id``: the
    finished games (the store writes them with the finish; the fold deletes them)."""
    return Game.objects.filter(status=Game.Status.FINISHED).annotate(game_id=models.F("pk"))


def derive_missing_seats(batch: int = DERIVE_BATCH, *, pending_only: bool = True) -> int:
    """The AnalyticsSeat rows of every pending game (every stored game, with
    ``pending_only`` false) that has none (folded and deleted), written again from its game
    and GameSeat rows as the store wrote them, ``batch`` games per transaction; how many
    games."""
    missing = _without(AnalyticsSeat, pending_only)
    derived = last = 0
    while ids := list(missing.filter(game_id__gt=last)[:batch]):
        last = ids[-1]
        # Only the columns the rows are made of: games 0018 runs this going back, before
        # the later migrations' columns exist.
        games = (
            Game.objects.filter(pk__in=ids, finished_at__isnull=False)
            .select_related("tournament")
            .only("finished_at", "tournament__title")
        )
        seats: dict[int, list[GameSeat]] = {}
        seat_fields = ("game_id", "seat", "bot_version_id", "rank", "score", "status", "winner")
        rows = GameSeat.objects.filter(game_id__in=ids).only(*seat_fields)
        for seat in rows.order_by("game_id", "seat"):
            seats.setdefault(seat.game_id, []).append(seat)
        with transaction.atomic(), connection.cursor() as cursor:
            for game in games:
                if not seats.get(game.pk):
                    continue
                rows = seat_rows(
                    game.pk, game.tournament.title, game.tournament_id, seats[game.pk],
                    game.finished_at,
                )  # fmt: skip
                insert_rows(cursor, AnalyticsSeat, SEAT_COLUMNS, rows, SEATS_TAIL)
                derived += 1
    return derived
