"""Helpers for the few raw SQL statements on a worker's path (claim, store, rate).

Why raw SQL there: each game is claimed once and stored once, and the ORM's query compiler
and model instances cost a worker more CPU per game than PostgreSQL spends running the
statements (see docs/architecture.md, "Distributed execution"). The statements stay plain
SQL that PostgreSQL and SQLite (the embedded default) both run: multi-row ``VALUES``,
``INSERT ... ON CONFLICT``, and ``FOR UPDATE`` only where the database has it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from typing import Any

from django.db import connection

# Rows per multi-row INSERT: SQLite allows 32766 parameters in one statement.
CHUNK_ROWS = 500


def for_update(*of: str) -> str:
    """`` FOR UPDATE [OF ...]`` where the database locks rows (SQLite locks the whole file)."""
    if not connection.features.has_select_for_update:
        return ""
    if of and not connection.features.has_select_for_update_of:
        of = ()
    return " " + connection.ops.for_update_sql(of=of)


def pipeline():
    """On PostgreSQL, psycopg's pipeline mode: statements are sent without waiting for each
    one's result, and the worker waits only where it reads one (a fetch), so a run of writes
    costs one round trip. On a busy machine each round trip waits for PostgreSQL's backend
    and then the worker to be scheduled again. Inside it, read results with a fetch
    (``RETURNING``), never ``cursor.rowcount``, which is only known after the next fetch.
    Elsewhere (SQLite) the statements simply run one by one."""
    if connection.vendor != "postgresql":
        return contextlib.nullcontext()
    connection.ensure_connection()
    return connection.connection.pipeline()


def placeholders(n: int) -> str:
    return ", ".join(["%s"] * n)


def insert_rows(cursor, head: str, rows: Sequence[Sequence[Any]], tail: str = "") -> None:
    """``head VALUES (...), (...) tail`` for every row, in chunks of CHUNK_ROWS rows."""
    for start in range(0, len(rows), CHUNK_ROWS):
        chunk = rows[start : start + CHUNK_ROWS]
        row = f"({placeholders(len(chunk[0]))})"
        cursor.execute(
            f"{head} VALUES {', '.join([row] * len(chunk))}{tail}",
            [value for r in chunk for value in r],
        )


def to_json(value: Any) -> str:
    """A JSON column's parameter (what JSONField writes: ``json.dumps`` of the value)."""
    return json.dumps(value)


def from_json(value: Any) -> Any:
    """A JSON column read by a raw cursor: text on both databases (Django's own loader)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def now_param(value):
    """A datetime parameter as Django's ORM would send it to this database."""
    return connection.ops.adapt_datetimefield_value(value)
