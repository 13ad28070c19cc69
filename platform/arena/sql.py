"""The machinery of the few raw SQL statements on a worker's path (claim, store, rate).

Why raw SQL there: each game is claimed once and stored once, and the ORM's query compiler
and model instances cost a worker more CPU per game than PostgreSQL spends running the
statements (see docs/performance.md). The statements themselves are in
``arena.statements``, each written with the names of the models' tables and columns
(:func:`build`) and read as named tuples (:class:`Statement`). They stay plain
SQL that PostgreSQL and SQLite (the embedded default) both run, except where a helper here
writes the PostgreSQL form of the same thing (the rows as one JSON array, a list of ids as
one array, instead of a placeholder per value) so that every statement keeps one shape
whatever the number of rows.

On PostgreSQL the statements go through :func:`cursor`: parameters bound on the server and
each statement prepared once per connection, so PostgreSQL parses and plans it once rather
than for every game, and the worker sends values instead of quoting them into SQL text.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connections

# Rows per multi-row INSERT on SQLite, which allows 32766 parameters in one statement.
CHUNK_ROWS = 500


def _db():
    """The default database's connection for this thread. Django's ``connection`` proxy
    looks it up again on every attribute read, a few microseconds each, and the worker's
    path reads dozens per game."""
    return connections[DEFAULT_DB_ALIAS]


def cursor():
    """A Django cursor for the worker's statements; on PostgreSQL, a server-binding one that
    prepares every statement it runs (``prepare_threshold`` in the database OPTIONS turns
    prepared statements off, for a transaction-mode connection pooler). Use it only for
    statements of one fixed shape, or the connection's cache of prepared statements churns."""
    db = _db()
    if db.vendor != "postgresql":
        return db.cursor()
    db.ensure_connection()
    with db.wrap_database_errors:
        return db._prepare_cursor(_prepared_cursor_class()(db.connection))


@functools.cache
def _prepared_cursor_class():
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparedCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=True, binary=None):
            return super().execute(query, params, prepare=prepare, binary=binary)

    return PreparedCursor


def for_update(*of: str) -> str:
    """`` FOR UPDATE [OF ...]`` where the database locks rows (SQLite locks the whole file)."""
    db = _db()
    if not db.features.has_select_for_update:
        return ""
    if of and not db.features.has_select_for_update_of:
        of = ()
    return " " + db.ops.for_update_sql(of=of)


def pipeline():
    """On PostgreSQL, psycopg's pipeline mode: statements are sent without waiting for each
    one's result, and the worker waits only where it reads one (a fetch), so a run of writes
    costs one round trip. On a busy machine each round trip waits for PostgreSQL's backend
    and then the worker to be scheduled again. Inside it, read results with a fetch
    (``RETURNING``), never ``cursor.rowcount``, which is only known after the next fetch;
    and give each statement whose result is read a cursor of its own, since a cursor keeps
    only its last statement's result. Elsewhere (SQLite) the statements simply run one by
    one."""
    db = _db()
    if db.vendor != "postgresql":
        return contextlib.nullcontext()
    db.ensure_connection()
    return db.connection.pipeline()


def placeholders(n: int) -> str:
    return ", ".join(["%s"] * n)


def insert_rows(
    cursor,
    model,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    tail="",
    *,
    same: Sequence[tuple[str, Any]] = (),
):
    """``INSERT INTO <model's table> (same's columns, columns) <rows> tail``, where ``same``
    gives columns of one value in every row (the game id of a game's rows). On PostgreSQL
    one statement of one shape whatever the number of rows: the rows go as one JSON array of
    arrays, which costs the worker one ``json.dumps`` instead of adapting each value (JSON
    columns take their values as JSON text, as everywhere here), read as ``jsonb``, whose
    elements PostgreSQL parses once rather than once per column (``json``: a third more of
    the server's time for the rows of a game's facts). Elsewhere multi-row ``VALUES`` in
    chunks of CHUNK_ROWS rows. Nothing is sent for no rows."""
    if not rows:
        return
    db = _db()
    names = tuple(c for c, _ in same) + tuple(columns)
    values = [v for _, v in same]
    if db.vendor == "postgresql":
        sql = _json_insert_sql(db, model, names, len(same), tail)
        cursor.execute(sql, [*values, json.dumps(rows)])
        return
    head = _insert_head(db, model, names)
    for start in range(0, len(rows), CHUNK_ROWS):
        chunk = rows[start : start + CHUNK_ROWS]
        row = f"({placeholders(len(names))})"
        cursor.execute(
            f"{head} VALUES {', '.join([row] * len(chunk))}{tail}",
            [value for r in chunk for value in (*values, *r)],
        )


def defaults(model, columns: Sequence[str]) -> list[Any]:
    """The model's default for each of ``columns``, as a value in a row of ``insert_rows``
    (a JSON column's as JSON text), so raw inserts of new rows follow the model."""
    fields = {f.column: f for f in model._meta.concrete_fields}
    values = [fields[c].get_default() for c in columns]
    return [
        to_json(v) if fields[c].get_internal_type() == "JSONField" else v
        for c, v in zip(columns, values, strict=True)
    ]


def row_timestamp(value):
    """A datetime as a value in a row of ``insert_rows``: ISO 8601 text on PostgreSQL, where
    the rows go as JSON; what the ORM would send elsewhere."""
    value = now_param(value)
    return value.isoformat() if hasattr(value, "isoformat") else value


# Statement texts by database vendor, model, columns (and tail): built once per process.
_STATEMENTS: dict[tuple, str] = {}


def _insert_head(db, model, columns: tuple[str, ...]) -> str:
    key = (db.vendor, model, columns)
    if key not in _STATEMENTS:
        names = ", ".join(db.ops.quote_name(c) for c in columns)
        _STATEMENTS[key] = f"INSERT INTO {model._meta.db_table} ({names})"
    return _STATEMENTS[key]


def _json_insert_sql(db, model, columns: tuple[str, ...], same: int, tail: str) -> str:
    """``INSERT ... SELECT %s::<type>, ..., (r->>0)::<type>, ... FROM
    jsonb_array_elements(%s::jsonb) r tail``: the first ``same`` columns one parameter each,
    the others from each row, with each column's PostgreSQL type from the model's fields
    (attnames allowed)."""
    key = (db.vendor, model, columns, same, tail)
    if key not in _STATEMENTS:
        fields = {f.column: f for f in model._meta.concrete_fields}
        types = [fields[c].cast_db_type(db) for c in columns]
        values = ", ".join(
            [f"%s::{t}" for t in types[:same]]
            + [f"(r->>{i})::{t}" for i, t in enumerate(types[same:])]
        )
        head = _insert_head(db, model, columns)
        _STATEMENTS[key] = f"{head} SELECT {values} FROM jsonb_array_elements(%s::jsonb) AS r{tail}"
    return _STATEMENTS[key]


def where_in(cursor, sql: str, column: str, values: Sequence[Any], params=()) -> None:
    """Run ``sql`` (which ends in ``WHERE``) with ``column`` among ``values`` appended: one
    array parameter on PostgreSQL, chunks of ``IN (...)`` elsewhere."""
    if _db().vendor == "postgresql":
        cursor.execute(f"{sql} {column} = ANY(%s)", [*params, list(values)])
        return
    for start in range(0, len(values), CHUNK_ROWS):
        chunk = values[start : start + CHUNK_ROWS]
        cursor.execute(f"{sql} {column} IN ({placeholders(len(chunk))})", [*params, *chunk])


def to_json(value: Any) -> str:
    """A JSON column's parameter (what JSONField writes: ``json.dumps`` of the value)."""
    return json.dumps(value)


def from_json(value: Any) -> Any:
    """A JSON column read by a raw cursor: text on both databases (Django's own loader)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def now_param(value):
    """A datetime parameter as Django's ORM would send it to this database."""
    return _db().ops.adapt_datetimefield_value(value)


# -- statements built from the models' metadata ------------------------------------------


class _Names:
    """A model in a statement's template: ``{game}`` is its table, ``{game.status}`` the
    column of its field ``status`` (``{game.tournament}`` that of a foreign key: its
    ``_id``)."""

    def __init__(self, model):
        self._model = model

    def __format__(self, spec: str) -> str:
        return self._model._meta.db_table

    def __getattr__(self, field: str) -> str:
        return self._model._meta.get_field(field).column


def names(model) -> _Names:
    """``model`` for an f-string: ``{m}`` is its table, ``{m.field}`` the column of a field,
    as in a :func:`build` template."""
    return _Names(model)


def columns(model, *fields: str) -> list[str]:
    """The columns of these fields of ``model`` (a foreign key's is its ``_id``), for
    :func:`insert_rows` and the like."""
    return [model._meta.get_field(f).column for f in fields]


def build(template: str, **models) -> str:
    """The template's text with each ``{name}`` and ``{name.field}`` replaced by the table
    and column of the model given as ``name`` (see :class:`_Names`), and each ``{name}`` that
    is not a model by its value (a status list from :func:`literals`, say)."""
    return template.format(
        **{k: _Names(v) if hasattr(v, "_meta") else v for k, v in models.items()}
    )


def literals(values: Iterable[str]) -> str:
    """Constant values, such as a model's status choices, as SQL string literals separated by
    commas (for ``IN (...)``). Only for the models' own constants, never for input."""
    return ", ".join("'" + str(v).replace("'", "''") + "'" for v in values)


@dataclass(frozen=True)
class Statement:
    """One of the worker's statements: its text and the named tuple its rows are read as
    (None for a statement whose rows are not read)."""

    text: str
    row: type[NamedTuple] | None = None

    def rows(self, raw: Iterable[Sequence[Any]]) -> list:
        make = self.row._make
        return [make(r) for r in raw]


class Rows:
    """The rows a statement sent in a :class:`RoundTrip` returned, once the round trip is
    over (``rows``; ``first`` is the first row or None)."""

    __slots__ = ("rows",)

    def __init__(self):
        self.rows: list = []

    @property
    def first(self):
        return self.rows[0] if self.rows else None


class RoundTrip:
    """Statements sent together: on PostgreSQL in pipeline mode (see :func:`pipeline`), so a
    run of them costs one round trip; elsewhere one by one. ``read(statement, params)`` sends
    a statement whose rows are read, on a cursor of its own (a cursor keeps only its last
    result), and returns a :class:`Rows` filled when the block ends. ``cursor`` takes the
    statements whose results nobody reads (the inserts of ``insert_rows``)."""

    def __enter__(self) -> RoundTrip:
        self._cursors = contextlib.ExitStack()
        self.cursor = self._cursors.enter_context(cursor())
        self._reads: list[tuple[Any, Statement, Rows]] = []
        self._pipeline = pipeline()
        try:
            self._pipeline.__enter__()
        except BaseException:
            self._cursors.close()
            raise
        return self

    def read(self, statement: Statement, params: Sequence[Any]) -> Rows:
        read = self._cursors.enter_context(cursor())
        read.execute(statement.text, params)
        rows = Rows()
        self._reads.append((read, statement, rows))
        return rows

    def __exit__(self, kind, error, traceback) -> None:
        with self._cursors:
            self._pipeline.__exit__(kind, error, traceback)
            if kind is None:
                for read, statement, rows in self._reads:
                    rows.rows = statement.rows(read.fetchall())


def rewrite(model, objects: Sequence[Any], fields: Sequence[str]) -> None:
    """Write ``fields`` of these saved model instances back in one statement: every column
    inserted again, with ``ON CONFLICT (pk) DO UPDATE`` of ``fields``' columns. The ORM's
    bulk_update builds a CASE per field and row in Python, which cost a ladder's store 70 ms
    on this machine for a few rows."""
    if not objects:
        return
    concrete = model._meta.concrete_fields
    changed = [model._meta.get_field(f).column for f in fields]
    pk = model._meta.pk.column
    tail = f" ON CONFLICT ({pk}) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in changed)
    rows = [[_row_value(f, getattr(obj, f.attname)) for f in concrete] for obj in objects]
    with cursor() as sql:
        insert_rows(sql, model, [f.column for f in concrete], rows, tail)


def _row_value(field, value):
    kind = field.get_internal_type()
    if kind == "JSONField":
        return to_json(value)
    if kind == "DateTimeField" and value is not None:
        return row_timestamp(value)
    return value
