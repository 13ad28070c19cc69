"""The analytics totals: stored games' seat and fact rows summed per the dashboards' filters.

The store writes a game's rows and marks it pending (``AnalyticsPending``, one row), which
costs it well under a millisecond; :func:`fold_batch` moves every pending game into the totals in
a few set-based statements, whatever their number. The beat folds every ARENA_FOLD_SECONDS
(``workers.fold_totals``) and ``manage.py fold_totals`` on demand; a dashboard read never
writes, and its figures count the games folded. Summing the totals in the store's transaction
instead would upsert one total row per seat, kind, subject and detail of the game (about
140 for a 4-player Citadels game), which cost PostgreSQL 4-5 ms per game on this machine
(docs/performance.md), five times the store's whole analytics budget.

The same fold sums the Ratings and bots page's totals from the same pending games (their
``games_game`` and ``games_gameseat`` rows: seats per version, score and status, games per
length, ordered bot pairs, line-ups of bots) and the rating changes written since the last
fold into points of each rating's line (:data:`RATING_BLOCK`). Ratings are applied in game
order, sometimes long after a game was stored, so rating changes are folded by their own
mark (the last change id folded), not with their game.

Each statement adds its games to each day's rows of a total and, summed over their days, to
the total's rows of every day (``ALL_DAYS``), which a selection without dates reads.

The statements are plain SQL that PostgreSQL and SQLite both run (``INSERT ... SELECT ...
ON CONFLICT DO UPDATE``, a window function), but for the day of a timestamp and the sorted
list of a line-up's bots. Nothing here asks which title a game is.
"""

from __future__ import annotations

import functools
import secrets

from django.db import connection, transaction

from arena.bots.models import BotVersion
from arena.ratings.models import Rating, RatingChange
from arena.sql import build, literals, names
from arena.tournaments.models import Tournament

from .analytics import derive_missing_facts, derive_missing_seats
from .models import (
    ALL_DAYS,
    FILTER_COLUMNS,
    GAME_FILTER_COLUMNS,
    LENGTH_KEY,
    LINEUP_KEY,
    PAIR_KEY,
    SEAT_KEY,
    SEATED_COLUMNS,
    AnalyticsFact,
    AnalyticsFactTotal,
    AnalyticsFolded,
    AnalyticsGameFactTotal,
    AnalyticsPending,
    AnalyticsSeat,
    AnalyticsSeatTotal,
    Game,
    GameLengthTotal,
    GameSeat,
    GameSeatTotal,
    HeadToHeadTotal,
    LineupTotal,
    RatingPoint,
    SeatedHeadToHeadTotal,
    SeatedLengthTotal,
    SeatedLineupTotal,
    SeatedSeatTotal,
)

# Any number: the key of the PostgreSQL advisory lock that makes folds take turns.
FOLD_LOCK = 7_316_204
# A rating's line keeps the rating after its first game, then after the last game (by
# finish) of each run of this many games it rated within one day: 1,000,000 rating changes
# make about 20,000 points, and a drawn line reads a few thousand instead of every game.
RATING_BLOCK = 50
# The same points are kept at coarser levels too, level L's runs RATING_LEVEL_FACTOR ** L
# times as long (50, 200, ... 51,200 games): a line thinned to about a hundred points reads
# the level whose runs are just shorter than its step, so at most about four times the
# points it draws, however many games its bots played (arena.ratings.lines).
RATING_LEVELS = 6
RATING_LEVEL_FACTOR = 4


def rating_run_sizes() -> list[int]:
    """The games of a full run of each level of rating points, finest first."""
    return [int(RATING_BLOCK) * RATING_LEVEL_FACTOR**level for level in range(RATING_LEVELS)]


TOTALS = (
    AnalyticsSeatTotal, AnalyticsFactTotal, AnalyticsGameFactTotal,
    GameSeatTotal, GameLengthTotal, HeadToHeadTotal, LineupTotal,
    SeatedSeatTotal, SeatedLengthTotal, SeatedHeadToHeadTotal, SeatedLineupTotal,
)  # fmt: skip


# The last rating change folded (0 before the first fold), as a SQL expression: the rating
# changes after it are not in the rating points yet (arena.ratings.lines reads them too).
# Every table and column of the statements below is named from the models (arena.sql.build).
NAMES = {
    "pending": AnalyticsPending, "folded": AnalyticsFolded, "fact": AnalyticsFact,
    "aseat": AnalyticsSeat, "change": RatingChange, "point": RatingPoint, "rating": Rating,
    "game": Game,
}  # fmt: skip


def _sql(template: str, **more) -> str:
    return build(template, **NAMES, **more)


FOLDED_MARK = _sql(
    "COALESCE((SELECT {folded.rating_changes} FROM {folded} WHERE {folded.id} = 1), 0)"
)
FINISHED = literals([Game.Status.FINISHED])
# Models in the f-strings of the analytics fold (arena.sql.names): ``{AS_.seat}`` a column.
AS_, F_, V_ = names(AnalyticsSeat), names(AnalyticsFact), names(BotVersion)
C_, R_, G_, T_ = names(RatingChange), names(Rating), names(Game), names(Tournament)
P_ = names(RatingPoint)


def fold_batch(limit: int | None = None) -> int:
    """Fold every pending game (the ``limit`` lowest ids, if given) and every settled rating
    change not folded yet (:func:`_settled_rating_changes`) into the totals, in one
    transaction; how many games it folded. Folds take turns (an advisory lock on
    PostgreSQL; SQLite has one writer at a time), and a game stored while one runs waits
    for the next."""
    with connection.cursor() as cursor:
        cursor.execute(
            _sql("SELECT EXISTS (SELECT 1 FROM {pending} WHERE {pending.batch} IS NULL), ")
            # MAX(id) is one probe of the primary key; "EXISTS (... id > mark)" with the
            # mark a sub-query scanned every rating change (5 ms at 100,000).
            + _sql("COALESCE((SELECT MAX({change.id}) FROM {change}), 0) > ")
            + FOLDED_MARK
        )
        games_pending, changes_pending = cursor.fetchone()
    if not games_pending and not changes_pending:
        return 0
    settled = _settled_rating_changes() if changes_pending else 0
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [FOLD_LOCK])
            # Grouping a fold's fact rows by the totals' keys: sorted on disk with the
            # default 4 MB, 9 s for 2,000 games here; hashed in memory, 5 s (bench/dashboards.py).
            cursor.execute("SET LOCAL work_mem = '64MB'")
            cursor.execute("SET LOCAL enable_sort = off")
            # With sorts priced out the sorts no plan avoids (the line-ups' list, the rating
            # points' windows) lift the planner's cost over JIT's bar: 450 ms of compiling
            # for a fold of 10 games, 5 ms without; 20,000 games fold as fast without it.
            cursor.execute("SET LOCAL jit = off")
        folded = _fold_games(cursor, limit) if games_pending else 0
        if changes_pending:
            if connection.vendor == "postgresql":
                # The rating points' windows sort their changes. With sorts priced out,
                # PostgreSQL read them in order from the (rating, game) index instead:
                # every change of every rating, the history's, to keep those past the mark
                # (40,000 changes folded again at 100 k games: 1.41 s, 0.17 s with sorts).
                cursor.execute("SET LOCAL enable_sort = on")
            _fold_rating_changes(cursor, settled)
    return folded


def _fold_games(cursor, limit: int | None) -> int:
    """Take the pending games (the ``limit`` lowest ids) as a batch and add them to the
    totals; how many."""
    batch = secrets.randbelow(2**62)
    taken = _sql("{pending.batch} IS NULL")
    if limit is not None:
        taken = (
            _sql(
                "{pending.game_id} IN (SELECT {pending.game_id} FROM {pending} "
                "WHERE {pending.batch} IS NULL ORDER BY {pending.game_id} LIMIT "
            )
            + f"{int(limit)})"
        )
    cursor.execute(_sql("UPDATE {pending} SET {pending.batch} = %s WHERE ") + taken, [batch])
    folded = cursor.rowcount
    if not folded:
        return 0
    if folded >= ANALYZE_BATCH and connection.vendor == "postgresql":
        # The batch's statistics: analysed while every row's batch was null, the pending
        # rows' "batch = %s" reads as one row to the planner, which then probes the bot
        # versions by a sequential scan per seat pair (a seated pairs' statement of 5,000
        # games ran for minutes instead of seconds). The current transaction's marks count.
        cursor.execute(f"ANALYZE {_table(AnalyticsPending)}")
    for sql in _statements(connection.vendor):
        cursor.execute(sql, [batch])
    for sql in _ratings_page_statements(connection.vendor):
        cursor.execute(sql, [batch] * sql.count("%s"))
    # The facts and seats are in the totals now; the records hold the facts, the games and
    # their GameSeat rows the seats' columns (arena.games.analytics).
    for table in ("fact", "aseat"):
        cursor.execute(
            _sql(f"DELETE FROM {{{table}}} WHERE {{{table}.game_id}} IN ") + BATCH_GAMES,
            [batch],
        )
    cursor.execute(_sql("DELETE FROM {pending} WHERE {pending.batch} = %s"), [batch])
    cursor.execute(
        _sql(
            "INSERT INTO {folded} ({folded.id}, {folded.games}, {folded.rating_changes}) "
            "VALUES (1, %s, 0) ON CONFLICT ({folded.id}) DO UPDATE "
            "SET {folded.games} = {folded}.{folded.games} + excluded.{folded.games}"
        ),
        [folded],
    )
    return folded


def _settled_rating_changes() -> int:
    """The highest rating change id such that every change up to it is committed.

    Ids are taken from a sequence when a row is inserted, not when it commits: a store that
    inserted id 10 may commit after one that inserted id 11, and a mark moved to 11 would
    never fold 10. On PostgreSQL a SHARE lock waits until no transaction that wrote rating
    changes is open (each holds its ROW EXCLUSIVE lock until it commits), and is let go at
    once, in a transaction of its own: stores that rate a game wait for the one statement
    that reads the highest id, not for the fold. Later inserts take higher ids. SQLite has
    one writer at a time."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {_table(RatingChange)} IN SHARE MODE")
        cursor.execute(_sql("SELECT COALESCE(MAX({change.id}), 0) FROM {change}"))
        return cursor.fetchone()[0]


def _fold_rating_changes(cursor, settled: int) -> None:
    """Add the rating changes after the mark and up to ``settled`` (see
    :func:`_settled_rating_changes`) to the rating points, and move the mark there."""
    cursor.execute(f"SELECT {FOLDED_MARK}")
    mark = cursor.fetchone()[0]
    if settled <= mark:
        return
    cursor.execute(
        _rating_points(connection.vendor, _sql("c.{change.id} > %s AND c.{change.id} <= %s")),
        _rating_point_params([mark, settled]),
    )
    cursor.execute(
        _sql(
            "INSERT INTO {folded} ({folded.id}, {folded.games}, {folded.rating_changes}) "
            "VALUES (1, 0, %s) ON CONFLICT ({folded.id}) DO UPDATE "
            "SET {folded.rating_changes} = excluded.{folded.rating_changes}"
        ),
        [settled],
    )


def refold_ratings(tournament_id: int) -> None:
    """Fold a tournament's rating changes again (after ``recompute_ratings`` threw its
    ratings away and rated its games anew): its points are deleted and made from the
    changes up to the mark; later ones fold as usual."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [FOLD_LOCK])
        cursor.execute(
            _sql("DELETE FROM {point} WHERE {point.tournament_id} = %s"), [tournament_id]
        )
        cursor.execute(f"SELECT {FOLDED_MARK}")
        mark = cursor.fetchone()[0]
        cursor.execute(
            _rating_points(
                connection.vendor,
                _sql(
                    "c.{change.id} <= %s AND c.{change.rating} IN (SELECT {rating.id} "
                    "FROM {rating} WHERE {rating.tournament} = %s)"
                ),
            ),
            _rating_point_params([mark, tournament_id]),
        )


def refold_ratings_page() -> None:
    """Empty the Ratings and bots page's totals and fold them again from every finished
    game folded before (the pending ones fold with the next batch): what a migration that
    adds or changes one of them does. The analytics totals are left as they are."""
    pending = build("(SELECT {p.game_id} FROM {p})", p=AnalyticsPending)
    everyone = build("(SELECT {g.id} FROM {g} WHERE {g.id} NOT IN ", g=Game) + pending + ")"
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [FOLD_LOCK])
        for model in (*PAGE_TOTALS, *SEATED_TOTALS):
            cursor.execute(f"DELETE FROM {_table(model)}")
        for sql in _ratings_page_statements(connection.vendor, everyone):
            cursor.execute(sql)


def folded_games() -> int:
    """Games folded, ever (a rebuild folds them again and counts on): what the totals hold
    changes whenever it does, so the dashboards' cache key carries it."""
    with connection.cursor() as cursor:
        cursor.execute(
            _sql("SELECT COALESCE((SELECT {folded.games} FROM {folded} WHERE {folded.id} = 1), 0)")
        )
        return cursor.fetchone()[0]


# Games per transaction when every pending game is folded: a fold keeps what each batch
# did, so a read cut short (a web worker's timeout) after a migration marked every game
# pending leaves less for the next one, instead of rolling the whole fold back.
FOLD_BATCH = 5_000
# Games in a batch from which the fold reads the pending rows' statistics afresh first (a
# beat's fold of a few games plans well on any).
ANALYZE_BATCH = 500


def fold_pending(batch: int = FOLD_BATCH) -> int:
    """Fold every pending game and rating change, ``batch`` games per transaction (what the
    dashboards' reads and ``manage.py fold_totals`` call); how many games it folded."""
    folded = 0
    while done := fold_batch(batch):
        folded += done
    return folded


def rebuild(batch: int = 20_000) -> int:
    """Empty the totals and fold every stored game again, ``batch`` games per transaction
    (after a game was deleted, or the totals' definition changed), its facts derived again
    from its record first (``analytics.derive_missing_facts``); how many it folded."""
    unfold_all()
    return fold_pending(batch)


def unfold_all() -> None:
    """Empty the totals and make every stored (finished) game pending again (what a
    migration that changes the totals' definition does), to be folded by the next
    :func:`fold_pending`; the seat rows of the games folded before are written again from
    their games and seats (``analytics.derive_missing_seats``), their facts derived again
    from their records (``analytics.derive_missing_facts``: a replay per game, a batch per
    transaction)."""
    with transaction.atomic(), connection.cursor() as cursor:
        for model in (*TOTALS, RatingPoint):
            cursor.execute(f"DELETE FROM {_table(model)}")
        # AnalyticsFolded keeps counting games: the cache key must never come back to a
        # value it had before. Its mark goes back to the first rating change.
        cursor.execute(_sql("UPDATE {folded} SET {folded.rating_changes} = 0"))
        cursor.execute(f"DELETE FROM {_table(AnalyticsPending)}")
        cursor.execute(
            _sql(
                "INSERT INTO {pending} ({pending.game_id}) "
                "SELECT {game.id} FROM {game} WHERE {game.status} = {finished}",
                finished=FINISHED,
            )
        )
    derive_missing_seats()
    derive_missing_facts()


def _table(model) -> str:
    return model._meta.db_table


def _columns(model, fields) -> str:
    """The columns of these fields of ``model``, comma-separated."""
    return ", ".join(model._meta.get_field(f).column for f in fields)


def utc_day(column: str, vendor: str) -> str:
    """The UTC date of a timestamp column (Django keeps SQLite's timestamps as UTC text)."""
    if vendor == "postgresql":
        return f"CAST({column} AT TIME ZONE 'UTC' AS date)"
    return f"date({column})"


def _fold_into(model, columns: list[str], key: list[str], sums: list[str], select: str) -> str:
    """The statement that adds ``select``'s rows (its columns: ``columns``, the day among
    them) to ``model``'s totals twice: to each day's rows, and summed over their days to the
    rows of every day (:data:`arena.games.models.ALL_DAYS`). A new key inserts a row, a
    known one (``key``) adds its ``sums`` to the stored row's."""
    table, listed = _table(model), ", ".join(columns)
    every_day = ", ".join(
        f"SUM({c})" if c in sums else ALL_DAYS_SQL if c == "day" else c for c in columns
    )
    grouped = ", ".join(c for c in columns if c not in sums and c != "day")
    added = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in sums)
    # One statement reads the games once (a CTE read twice is computed once); SQLite's
    # upsert needs a WHERE in the SELECT before ON CONFLICT, which GROUP BY ends here.
    return (
        f"WITH added ({listed}) AS ({select}) "
        f"INSERT INTO {table} ({listed}) SELECT {listed} FROM added WHERE true "
        f"UNION ALL SELECT {every_day} FROM added GROUP BY {grouped} "
        f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {added}"
    )


# The day of the totals' rows of every day, as SQL (a date on PostgreSQL, text on SQLite).
ALL_DAYS_SQL = literals([ALL_DAYS.isoformat()])


@functools.cache
def _statements(vendor: str) -> tuple[str, ...]:
    """The analytics totals' three fold statements (each takes the batch), built once per
    process; the Ratings and bots page's follow them (:func:`_ratings_page_statements`)."""
    seats, facts = _table(AnalyticsSeat), _table(AnalyticsFact)
    versions = _table(BotVersion)
    batch = BATCH_GAMES
    dims = (
        f"s.{AS_.title}, s.{AS_.players}, s.{AS_.tournament_id}, s.{AS_.bot_version_id}, "
        f"{utc_day(f's.{AS_.finished_at}', vendor)} AS day, s.{AS_.seat}"
    )
    groups = (
        f"s.{AS_.title}, s.{AS_.players}, s.{AS_.tournament_id}, s.{AS_.bot_version_id}, day, "
        f"s.{AS_.seat}"
    )
    seat_sums = [
        "games", "wins", "score_total", "scored", "faulted", "version_games", "bot_games",
    ]  # fmt: skip
    # A seat is its version's (its bot's) first in the game when no lower seat has it.
    seat_total = _fold_into(
        AnalyticsSeatTotal,
        [*FILTER_COLUMNS, *seat_sums],
        FILTER_COLUMNS,
        seat_sums,
        f"SELECT {dims}, COUNT(*), SUM(s.{AS_.win_share}), COALESCE(SUM(s.{AS_.score}), 0), "
        f"COUNT(s.{AS_.score}), SUM(CASE WHEN s.{AS_.faulted} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN EXISTS (SELECT 1 FROM {seats} o WHERE o.{AS_.game_id} = s.{AS_.game_id} "
        f"AND o.{AS_.bot_version_id} = s.{AS_.bot_version_id} AND o.{AS_.seat} < s.{AS_.seat}) THEN 0 ELSE 1 END), "
        f"SUM(CASE WHEN EXISTS (SELECT 1 FROM {seats} o JOIN {versions} ov "
        f"ON ov.{V_.id} = o.{AS_.bot_version_id} WHERE o.{AS_.game_id} = s.{AS_.game_id} AND ov.{V_.bot_id} = v.{V_.bot_id} "
        f"AND o.{AS_.seat} < s.{AS_.seat}) THEN 0 ELSE 1 END) "
        f"FROM {seats} s JOIN {versions} v ON v.{V_.id} = s.{AS_.bot_version_id} "
        f"WHERE s.{AS_.game_id} IN {batch} GROUP BY {groups}",
    )
    fact_sums = [
        "facts", "total", "winner_facts", "winner_total", "subject_games", "subject_wins",
    ]  # fmt: skip
    fact_key = ["title", "kind", *FILTER_COLUMNS[1:], "subject", "detail"]
    # A subject's first detail in a seat-game counts that seat-game once for the subject.
    fact_total = _fold_into(
        AnalyticsFactTotal,
        [*FILTER_COLUMNS, "kind", "subject", "detail", *fact_sums],
        fact_key,
        fact_sums,
        f"SELECT {dims}, f.{F_.kind}, f.{F_.subject}, f.{F_.detail}, SUM(f.{F_.facts}), SUM(f.{F_.value}), "
        f"SUM(CASE WHEN s.{AS_.win_share} > 0 THEN f.{F_.facts} ELSE 0 END), "
        f"SUM(CASE WHEN s.{AS_.win_share} > 0 THEN f.{F_.value} ELSE 0 END), "
        f"SUM(f.first), SUM(f.first * s.{AS_.win_share}) "
        f"FROM (SELECT g.{F_.game_id}, g.{F_.seat}, g.{F_.kind}, g.{F_.subject}, g.{F_.detail}, g.{F_.facts}, g.{F_.value}, "
        f"CASE WHEN ROW_NUMBER() OVER (PARTITION BY g.{F_.game_id}, g.{F_.seat}, g.{F_.kind}, g.{F_.subject} "
        f"ORDER BY g.{F_.detail}) = 1 THEN 1 ELSE 0 END AS first "
        f"FROM {facts} g WHERE g.{F_.game_id} IN {batch} AND g.{F_.seat} IS NOT NULL) f "
        f"JOIN {seats} s ON s.{AS_.game_id} = f.{F_.game_id} AND s.{AS_.seat} = f.{F_.seat} "
        f"WHERE true GROUP BY {groups}, f.{F_.kind}, f.{F_.subject}, f.{F_.detail}",
    )
    game_key = ["title", "kind", *FILTER_COLUMNS[1:], "subject", "score"]
    game_total = _fold_into(
        AnalyticsGameFactTotal,
        [*FILTER_COLUMNS, "kind", "subject", "score", "games", "wins"],
        game_key,
        ["games", "wins"],
        f"SELECT {dims}, f.{F_.kind}, f.{F_.subject}, s.{AS_.score}, COUNT(*), SUM(s.{AS_.win_share}) "
        # The batch's whole-game facts first, then their games' seats: joined the other way
        # round, the planner read every fact row of a game once per seat (a game's ~150 rows
        # four times for its 4-7 whole-game ones).
        f"FROM (SELECT g.{F_.game_id}, g.{F_.kind}, g.{F_.subject} FROM {facts} g "
        f"WHERE g.{F_.game_id} IN {batch} AND g.{F_.seat} IS NULL {_FENCE[vendor]}) f "
        f"JOIN {seats} s ON s.{AS_.game_id} = f.{F_.game_id} WHERE true "
        f"GROUP BY {groups}, f.{F_.kind}, f.{F_.subject}, s.{AS_.score}",
    )
    return seat_total, fact_total, game_total


# The games of the batch being folded (its parameter: the batch).
BATCH_GAMES = build("(SELECT {pending.game_id} FROM {pending} WHERE {pending.batch} = %s)",
                    pending=AnalyticsPending)  # fmt: skip
PAGE_TOTALS = (GameSeatTotal, GameLengthTotal, HeadToHeadTotal, LineupTotal)
SEATED_TOTALS = (SeatedSeatTotal, SeatedLengthTotal, SeatedHeadToHeadTotal, SeatedLineupTotal)


@functools.cache
def _ratings_page_statements(vendor: str, games: str = BATCH_GAMES) -> tuple[str, ...]:
    """The Ratings and bots page's totals of a set of games (``games``: SQL for ``IN``,
    whose parameters each statement takes as many times as it has ``%s``), read from the
    platform's own rows as the page's raw statements read them (dashboards/
    queries_ratings.py): finished games, keyed by their tournament's title and player count,
    the tournament and the UTC day they finished; then the same keyed first by each distinct
    version seated (the seated totals, :class:`arena.games.models.SeatedSeatTotal`)."""
    return tuple(
        _page_total(vendor, games, model, seated)
        for seated, models in ((False, PAGE_TOTALS), (True, SEATED_TOTALS))
        for model in models
    )


# Each page total's statement, by kind: its key's columns after the filters', the sums'
# columns, the expressions selected for both, the extra joins, condition and groups.
_PAGE_PARTS = {
    "seat": (
        SEAT_KEY,
        ["seats", "faults"],
        "s.{s.bot_version}, s.{s.status}, s.{s.score}, COUNT(*), SUM(s.{s.fault_count})",
        "JOIN {s} s ON s.{s.game} = g.{g.id}",
        "true",
        "s.{s.bot_version}, s.{s.status}, s.{s.score}",
    ),
    "length": (
        LENGTH_KEY,
        ["games", "timed", "match_ms"],
        "g.{g.actions}, COUNT(*), COUNT(g.{g.match_ms}), COALESCE(SUM(g.{g.match_ms}), 0)",
        "",
        "g.{g.actions} IS NOT NULL",
        "g.{g.actions}",
    ),
    # A game is one tournament's on one day: its distinct count sums exactly over folds.
    "pair": (
        PAIR_KEY,
        ["games", "pairs", "above", "level"],
        "va.{v.bot}, vb.{v.bot}, COUNT(DISTINCT a.{s.game}), COUNT(*), "
        "SUM(CASE WHEN a.{s.rank} < b.{s.rank} THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN a.{s.rank} = b.{s.rank} THEN 1 ELSE 0 END)",
        "JOIN {s} a ON a.{s.game} = g.{g.id} "
        "JOIN {s} b ON b.{s.game} = a.{s.game} AND b.{s.seat} <> a.{s.seat} "
        "JOIN {v} va ON va.{v.id} = a.{s.bot_version} "
        "JOIN {v} vb ON vb.{v.id} = b.{s.bot_version}",
        "va.{v.bot} <> vb.{v.bot} AND a.{s.rank} IS NOT NULL AND b.{s.rank} IS NOT NULL",
        "va.{v.bot}, vb.{v.bot}",
    ),
}
_KINDS = {
    GameSeatTotal: "seat", SeatedSeatTotal: "seat", GameLengthTotal: "length",
    SeatedLengthTotal: "length", HeadToHeadTotal: "pair", SeatedHeadToHeadTotal: "pair",
    LineupTotal: "lineup", SeatedLineupTotal: "lineup",
}  # fmt: skip
# The first seat of each version seated in a game of the set, and whether no lower seat
# holds the same bot: what a seated total's rows are keyed by first.
_SEATED = (
    "(SELECT z.{s.game} AS game, z.{s.bot_version} AS version, "
    "NOT EXISTS (SELECT 1 FROM {s} o JOIN {v} ov ON ov.{v.id} = o.{s.bot_version} "
    "WHERE o.{s.game} = z.{s.game} AND ov.{v.bot} = zv.{v.bot} AND o.{s.seat} < z.{s.seat}) "
    "AS first_of_bot "
    "FROM {s} z JOIN {v} zv ON zv.{v.id} = z.{s.bot_version} WHERE z.{s.game} IN GAMES "
    "AND NOT EXISTS (SELECT 1 FROM {s} o WHERE o.{s.game} = z.{s.game} "
    "AND o.{s.bot_version} = z.{s.bot_version} AND o.{s.seat} < z.{s.seat}) FENCE)"
)
# Keeps the planner from pulling the seated versions up into the statement's join, so that
# their sub-plans run once per version seated, not once per joined row (48 for a 4-seat
# game's pairs): the seated pairs of a fold of 2,000 games took 7.8 s before, 4.9 s after
# (one run each at load 15; the plain pairs took 0.7 s).
_FENCE = {"postgresql": "OFFSET 0", "sqlite": "LIMIT -1 OFFSET 0"}


def _page_total(vendor: str, games: str, model, seated: bool) -> str:
    """One page total's fold statement (see :func:`_ratings_page_statements`)."""
    names = {"g": Game, "s": GameSeat, "v": BotVersion, "t": Tournament, "finished": FINISHED}
    columns = [*(SEATED_COLUMNS if seated else GAME_FILTER_COLUMNS)]
    keys = build("t.{t.title}, t.{t.seats}, g.{g.tournament}, ", **names) + utc_day(
        build("g.{g.finished_at}", **names), vendor
    )
    # A finished game always has its finish time (FINISH_GAME sets both); a row made by
    # other means without one has no day to be counted under, and is left out.
    where = build(
        "g.{g.id} IN GAMES AND g.{g.status} = {finished} AND g.{g.finished_at} IS NOT NULL",
        **names,
    )
    joins = build("JOIN {t} t ON t.{t.id} = g.{g.tournament}", **names)
    if seated:
        keys = f"z.version, z.first_of_bot, {keys}"
        seated_versions = build(_SEATED, **names).replace("FENCE", _FENCE[vendor])
        joins += f" JOIN {seated_versions} z ON z.game = g.{Game._meta.pk.column}"
    kind = _KINDS[model]
    if kind == "lineup":
        sql = _lineup(vendor, model, columns, keys, joins, where)
    else:
        key, sums, selected, more_joins, condition, groups = _PAGE_PARTS[kind]
        select = build(
            f"SELECT {keys}, {selected} FROM {{g}} g {joins} {more_joins} "
            f"WHERE {where} AND {condition} GROUP BY {keys}, {groups}",
            **names,
        )
        sql = _fold_into(model, [*columns, *key, *sums], [*columns, *key], sums, select)
    return sql.replace("GAMES", games)


def _lineup(vendor: str, model, columns: list[str], keys: str, joins: str, where: str) -> str:
    """The line-ups' fold statement. The set's games are picked as in the statements above
    (the planner takes the batch for a row or two and probes each game's seats by index):
    joined to the games after the line-ups were made, they were compared with every game
    of the table instead (250,000 x 20,000 at a million seats)."""
    aliased = ", ".join(f"{k} AS k{i}" for i, k in enumerate(_split(keys)))
    ks = [f"k{i}" for i in range(len(columns))]
    d, m = ", ".join(f"d.{k}" for k in ks), ", ".join(f"m.{k}" for k in ks)
    select = build(
        f"SELECT {m}, m.bots, COUNT(*) FROM ("
        f"SELECT {d}, ',' || {_sorted_list('d.bot', vendor)} || ',' AS bots "
        f"FROM (SELECT DISTINCT {aliased}, g.{{g.id}} AS game, v.{{v.bot}} AS bot "
        f"FROM {{g}} g {joins} JOIN {{s}} s ON s.{{s.game}} = g.{{g.id}} "
        f"JOIN {{v}} v ON v.{{v.id}} = s.{{s.bot_version}} "
        f"WHERE {where} ORDER BY game, bot) d GROUP BY d.game, {d}) m "
        f"WHERE true GROUP BY {m}, m.bots",
        g=Game, s=GameSeat, v=BotVersion,
    )  # fmt: skip
    key = [*columns, *LINEUP_KEY]
    return _fold_into(model, [*key, "games"], key, ["games"], select)


def _split(keys: str) -> list[str]:
    """The expressions of a list of keys (commas inside parentheses kept)."""
    parts, depth, current = [], 0, ""
    for char in keys:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()]


def _sorted_list(column: str, vendor: str) -> str:
    """The group's values of a whole-number column as text, ascending, comma-separated.
    SQLite before 3.44 has no ORDER BY in an aggregate: its group_concat takes the rows in
    the order the sub-query sorted them (the one order it implements)."""
    if vendor == "postgresql":
        return f"string_agg(CAST({column} AS text), ',' ORDER BY {column})"
    return f"group_concat({column}, ',')"


def _rating_point_params(condition: list) -> list:
    return [RATING_LEVELS - 1, *condition, *condition, *rating_run_sizes()]


def _rating_points(vendor: str, changes: str) -> str:
    """The statement that adds the rating changes matching ``changes`` (a condition on
    ``c``, the rating changes) to the rating points of every level; its parameters: the
    coarsest level, the condition's twice, each level's run (:func:`_rating_point_params`).

    A change's place in its rating is the number of the rating's changes already folded
    (the games of its coarsest points: every level holds each game once) plus its rank
    among these by id (the order they were rated); the first change is a block of its own
    at every level, then every run of the level's size (:func:`rating_run_sizes`) makes
    one, cut where the day changes. Each point keeps the last change of its block rated
    (the highest id): the rating at the end of the run, and its place (``rated``)."""
    point, ratings, games = _table(RatingPoint), _table(Rating), _table(Game)
    tournaments = _table(Tournament)
    columns = [
        "rating_id", "level", "day", "block", "title", "players", "tournament_id",
        "bot_version_id", "games", "rated", "mu", "sigma", "ordinal", "finished_at", "game_id",
        "change_id",
    ]  # fmt: skip
    levels = " UNION ALL ".join(f"SELECT {level} AS level, %s AS size"
                                for level in range(RATING_LEVELS))  # fmt: skip
    later = f"excluded.{P_.change_id} > {point}.{P_.change_id}"
    replaced = ", ".join(
        f"{c} = CASE WHEN {later} THEN excluded.{c} ELSE {point}.{c} END"
        for c in (getattr(P_, f) for f in ("rated", "mu", "sigma", "ordinal", "finished_at",
                                           "game_id", "change_id"))
    )  # fmt: skip
    return (
        f"INSERT INTO {point} ({_columns(RatingPoint, columns)}) "
        f"SELECT b.rating_id, b.level, b.day, b.block, b.title, b.players, b.tournament_id, "
        f"b.bot_version_id, b.games, b.rated, b.mu, b.sigma, b.ordinal, b.finished_at, "
        f"b.game_id, b.change_id "
        f"FROM (SELECT p.*, COUNT(*) OVER run AS games, MAX(p.place) OVER run AS rated, "
        f"ROW_NUMBER() OVER (run ORDER BY p.change_id DESC) AS latest "
        f"FROM (SELECT n.*, lv.level, CASE WHEN n.place = 1 THEN 0 "
        f"ELSE 1 + (n.place - 2) / lv.size END AS block "
        f"FROM (SELECT c.{C_.rating_id}, {utc_day(f'g.{G_.finished_at}', vendor)} AS day, t.{T_.title}, "
        f"t.{T_.seats} AS players, r.{R_.tournament_id}, r.{R_.bot_version_id}, c.{C_.mu}, c.{C_.sigma}, c.{C_.ordinal}, "
        f"g.{G_.finished_at}, c.{C_.game_id}, c.{C_.id} AS change_id, COALESCE(f.games, 0) "
        f"+ ROW_NUMBER() OVER (PARTITION BY c.{C_.rating_id} ORDER BY c.{C_.id}) AS place "
        f"FROM {_table(RatingChange)} c JOIN {ratings} r ON r.{R_.id} = c.{C_.rating_id} "
        f"JOIN {tournaments} t ON t.{T_.id} = r.{R_.tournament_id} "
        f"JOIN {games} g ON g.{G_.id} = c.{C_.game_id} AND g.{G_.status} = {FINISHED} "
        f"AND g.{G_.finished_at} IS NOT NULL "
        f"LEFT JOIN (SELECT {P_.rating_id} AS rating_id, CAST(SUM({P_.games}) AS BIGINT) AS games "
        f"FROM {point} WHERE {P_.level} = %s AND {P_.rating_id} IN (SELECT c.{C_.rating_id} "
        f"FROM {_table(RatingChange)} c WHERE {changes}) GROUP BY {P_.rating_id}) f "
        f"ON f.rating_id = c.{C_.rating_id} "
        f"WHERE {changes}) n CROSS JOIN ({levels}) lv) p "
        f"WINDOW run AS (PARTITION BY p.rating_id, p.level, p.day, p.block)) b "
        f"WHERE b.latest = 1 "
        f"ON CONFLICT ({_columns(RatingPoint, ['rating_id', 'level', 'day', 'block'])}) DO UPDATE SET "
        f"{P_.games} = {point}.{P_.games} + excluded.{P_.games}, {replaced}"
    )
