"""The analytics totals: stored games' seat and fact rows summed per the dashboards' filters.

The store writes a game's rows and marks it pending (``AnalyticsPending``, one row), which
costs it well under a millisecond; :func:`fold` moves every pending game into the totals in
a few set-based statements, whatever their number. The dashboards fold before they read, so
a figure always counts every stored game. Summing the totals in the store's transaction
instead would upsert one total row per seat, kind, subject and detail of the game (about
140 for a 4-player Citadels game), which cost PostgreSQL 4-5 ms per game on this machine
(docs/performance.md), five times the store's whole analytics budget.

The statements are plain SQL that PostgreSQL and SQLite both run (``INSERT ... SELECT ...
ON CONFLICT DO UPDATE``, a window function), but for the day of a timestamp. Nothing here
asks which title a game is.
"""

from __future__ import annotations

import functools
import secrets

from django.db import connection, transaction

from arena.bots.models import BotVersion

from .models import (
    FILTER_COLUMNS,
    AnalyticsFact,
    AnalyticsFactTotal,
    AnalyticsFolded,
    AnalyticsGameFactTotal,
    AnalyticsPending,
    AnalyticsSeat,
    AnalyticsSeatTotal,
)

# Any number: the key of the PostgreSQL advisory lock that makes folds take turns.
FOLD_LOCK = 7_316_204


def fold(limit: int | None = None) -> int:
    """Fold every pending game (the ``limit`` lowest ids, if given) into the totals, in one
    transaction; how many it folded. Folds take turns (an advisory lock on PostgreSQL;
    SQLite has one writer at a time), and a game stored while one runs waits for the next."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {_table(AnalyticsPending)} WHERE batch IS NULL LIMIT 1")
        if cursor.fetchone() is None:
            return 0
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [FOLD_LOCK])
            # Grouping a fold's fact rows by the totals' keys: sorted on disk with the
            # default 4 MB, 9 s for 2,000 games here; hashed in memory, 5 s (bench/dashboards.py).
            cursor.execute("SET LOCAL work_mem = '64MB'")
            cursor.execute("SET LOCAL enable_sort = off")
        batch = secrets.randbelow(2**62)
        taken = "batch IS NULL"
        if limit is not None:
            taken = (
                f"game_id IN (SELECT game_id FROM {_table(AnalyticsPending)} "
                f"WHERE batch IS NULL ORDER BY game_id LIMIT {int(limit)})"
            )
        cursor.execute(f"UPDATE {_table(AnalyticsPending)} SET batch = %s WHERE {taken}", [batch])
        folded = cursor.rowcount
        if not folded:
            return 0
        for sql in _statements(connection.vendor):
            cursor.execute(sql, [batch])
        cursor.execute(f"DELETE FROM {_table(AnalyticsPending)} WHERE batch = %s", [batch])
        cursor.execute(
            f"INSERT INTO {_table(AnalyticsFolded)} (id, games) VALUES (1, %s) "
            f"ON CONFLICT (id) DO UPDATE SET games = {_table(AnalyticsFolded)}.games + "
            "excluded.games",
            [folded],
        )
    return folded


def stored_games() -> int:
    """Games folded (ever) plus games pending, read in one snapshot: the number of games
    stored (more after a rebuild), which grows with every store, folded or not."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COALESCE((SELECT games FROM {_table(AnalyticsFolded)} WHERE id = 1), 0) "
            f"+ (SELECT COUNT(*) FROM {_table(AnalyticsPending)})"
        )
        return cursor.fetchone()[0]


def rebuild(batch: int = 20_000) -> int:
    """Empty the totals and fold every stored game again, ``batch`` games per transaction
    (after a game was deleted, or the totals' definition changed); how many it folded."""
    with transaction.atomic(), connection.cursor() as cursor:
        for model in (AnalyticsSeatTotal, AnalyticsFactTotal, AnalyticsGameFactTotal):
            cursor.execute(f"DELETE FROM {_table(model)}")
        # AnalyticsFolded keeps counting: the cache key must never come back to a value
        # it had before.
        cursor.execute(f"DELETE FROM {_table(AnalyticsPending)}")
        cursor.execute(
            f"INSERT INTO {_table(AnalyticsPending)} (game_id) "
            f"SELECT DISTINCT game_id FROM {_table(AnalyticsSeat)}"
        )
    folded = 0
    while done := fold(batch):
        folded += done
    return folded


def _table(model) -> str:
    return model._meta.db_table


def _day(column: str, vendor: str) -> str:
    """The UTC date of a timestamp column (Django keeps SQLite's timestamps as UTC text)."""
    if vendor == "postgresql":
        return f"CAST({column} AT TIME ZONE 'UTC' AS date)"
    return f"date({column})"


def _upsert(model, key: list[str], sums: list[str]) -> str:
    """The ``ON CONFLICT`` tail that adds a new total's sums to the stored one's."""
    table = _table(model)
    added = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in sums)
    return f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {added}"


@functools.cache
def _statements(vendor: str) -> tuple[str, ...]:
    """The fold's three statements (each takes the batch), built once per process."""
    seats, facts, pending = _table(AnalyticsSeat), _table(AnalyticsFact), _table(AnalyticsPending)
    versions = _table(BotVersion)
    batch = f"(SELECT game_id FROM {pending} WHERE batch = %s)"
    filters = ", ".join(FILTER_COLUMNS)
    dims = (
        f"s.title, s.players, s.tournament_id, s.bot_version_id, "
        f"{_day('s.finished_at', vendor)} AS day, s.seat"
    )
    groups = "s.title, s.players, s.tournament_id, s.bot_version_id, day, s.seat"
    seat_sums = [
        "games", "wins", "score_total", "scored", "faulted", "version_games", "bot_games",
    ]  # fmt: skip
    # A seat is its version's (its bot's) first in the game when no lower seat has it.
    seat_total = (
        f"INSERT INTO {_table(AnalyticsSeatTotal)} ({filters}, {', '.join(seat_sums)}) "
        f"SELECT {dims}, COUNT(*), SUM(s.win_share), COALESCE(SUM(s.score), 0), "
        f"COUNT(s.score), SUM(CASE WHEN s.faulted THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN EXISTS (SELECT 1 FROM {seats} o WHERE o.game_id = s.game_id "
        f"AND o.bot_version_id = s.bot_version_id AND o.seat < s.seat) THEN 0 ELSE 1 END), "
        f"SUM(CASE WHEN EXISTS (SELECT 1 FROM {seats} o JOIN {versions} ov "
        f"ON ov.id = o.bot_version_id WHERE o.game_id = s.game_id AND ov.bot_id = v.bot_id "
        f"AND o.seat < s.seat) THEN 0 ELSE 1 END) "
        f"FROM {seats} s JOIN {versions} v ON v.id = s.bot_version_id "
        f"WHERE s.game_id IN {batch} GROUP BY {groups}"
        + _upsert(AnalyticsSeatTotal, FILTER_COLUMNS, seat_sums)
    )
    fact_sums = [
        "facts", "total", "winner_facts", "winner_total", "subject_games", "subject_wins",
    ]  # fmt: skip
    fact_key = ["title", "kind", *FILTER_COLUMNS[1:], "subject", "detail"]
    # A subject's first detail in a seat-game counts that seat-game once for the subject.
    fact_total = (
        f"INSERT INTO {_table(AnalyticsFactTotal)} ({filters}, kind, subject, detail, "
        f"{', '.join(fact_sums)}) "
        f"SELECT {dims}, f.kind, f.subject, f.detail, SUM(f.facts), SUM(f.value), "
        f"SUM(CASE WHEN s.win_share > 0 THEN f.facts ELSE 0 END), "
        f"SUM(CASE WHEN s.win_share > 0 THEN f.value ELSE 0 END), "
        f"SUM(f.first), SUM(f.first * s.win_share) "
        f"FROM (SELECT g.game_id, g.seat, g.kind, g.subject, g.detail, g.facts, g.value, "
        f"CASE WHEN ROW_NUMBER() OVER (PARTITION BY g.game_id, g.seat, g.kind, g.subject "
        f"ORDER BY g.detail) = 1 THEN 1 ELSE 0 END AS first "
        f"FROM {facts} g WHERE g.game_id IN {batch} AND g.seat IS NOT NULL) f "
        f"JOIN {seats} s ON s.game_id = f.game_id AND s.seat = f.seat "
        f"WHERE true GROUP BY {groups}, f.kind, f.subject, f.detail"
        + _upsert(AnalyticsFactTotal, fact_key, fact_sums)
    )
    game_key = ["title", "kind", *FILTER_COLUMNS[1:], "subject", "score"]
    game_total = (
        f"INSERT INTO {_table(AnalyticsGameFactTotal)} ({filters}, kind, subject, score, "
        f"games, wins) "
        f"SELECT {dims}, f.kind, f.subject, s.score, COUNT(*), SUM(s.win_share) "
        f"FROM {facts} f JOIN {seats} s ON s.game_id = f.game_id "
        f"WHERE f.game_id IN {batch} AND f.seat IS NULL "
        f"GROUP BY {groups}, f.kind, f.subject, s.score"
        + _upsert(AnalyticsGameFactTotal, game_key, ["games", "wins"])
    )
    return seat_total, fact_total, game_total
