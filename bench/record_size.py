"""Bytes per stored 4-player game in PostgreSQL, by table (heap, TOAST and indexes), as the
tree before issue 25 kept a game and as it keeps one now, in one run.

    .venv/bin/python bench/record_size.py [--title citadels] [--games 300] [--copies 20]

Needs PostgreSQL on 127.0.0.1: it drops and makes again ``ARENA_BENCH_DATABASE`` (default
``arena_bench_records``), plays ``--games`` 4-player games between built-in bots in-process
through the worker's store (a round robin of four versions: seats, analytics rows, rating
changes as a worker writes them). Before: the same games as the tree before issue 25 kept them
(each step written back as its migration does going back): format 2 records (0013), every
fact and analytics seat row (0014, 0018), each game's options, statistics and seats' score
details (0018), the rating changes' values before (ratings 0004), the indexes and storage
options of then. After: the games folded into the dashboards' totals (which deletes their fact
and seat rows; games not folded yet keep theirs, about 16 KB a game), the records packed as
migration 0013 packs them (timed), the rest as migrations 0018, 0024 and ratings 0004 leave
them, the tables' storage options and keys (games 0023, ratings 0005 and 0006). Each measurement is of fresh copies of each table's live rows,
``--copies`` times over with their ids moved, in id order: what a game adds to a large table
(the issue's "at 1 M games"), without a small table's fixed and half-filled pages. Prints
each table that grows with the games (bytes per game before and after), the total, and the
conversion's rate (records replayed and rewritten per second).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

# Tables with rows per game (per seat, per fact, per rating change); the rest do not grow.
PER_GAME = (
    "games_game",
    "games_gameseat",
    "games_analyticsseat",
    "games_analyticsfact",
    "ratings_ratingchange",
    "ratings_titleratingchange",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--title", default="citadels")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument(
        "--copies", type=int, default=20,
        help="measure each table with its rows this many times (ids moved), so that the "
        "fixed and half-filled pages of a small table do not count as per-game bytes",
    )  # fmt: skip
    args = parser.parse_args()
    database = os.environ.get("ARENA_BENCH_DATABASE", "arena_bench_records")
    os.environ["ARENA_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{database}"
    os.environ["ARENA_DEBUG"] = "false"
    os.environ.setdefault("ARENA_LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    import psycopg

    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {database}")
    import django

    django.setup()
    from django.apps import apps as django_apps
    from django.core.management import call_command

    from arena.games.models import Game, GameSeat
    from arena.games.record_formats import convert_stored
    from arena.games.results import drop_replayable, store_replayed
    from arena.games.totals import fold_pending

    slim = importlib.import_module("arena.games.migrations.0018_slim_game_rows")
    said = importlib.import_module("arena.games.migrations.0024_records_without_what_rows_say")
    keyed = importlib.import_module("arena.ratings.migrations.0005_title_point_natural_key")
    history = importlib.import_module("arena.ratings.migrations.0004_narrower_rating_history")

    call_command("migrate", verbosity=0)
    stored = _store_games(args.title, args.games)
    # Before: as the tree before issue 25 kept them: format 2 records, every game's fact and
    # seat rows, each game's options, statistics and seats' score details, the rating
    # changes' values before, the title points' ordinals and versions (each written back as
    # migrations 0018 and ratings 0004 do going back), an empty {} for no decision notes, the
    # title points' version index, PostgreSQL's default toast_tuple_target and storage of
    # the record.
    said.rewrite(said.WHOLE)(django_apps, _Editor())
    convert_stored(Game, 2)
    slim.options_from_tournaments(django_apps, _Editor())
    store_replayed(Game, GameSeat)
    history.write_derived(django_apps, _Editor())
    history.write_ordinals(django_apps, _Editor())
    _Editor().execute(WRITE_VERSIONS)  # ratings 0004's write_versions, keyed as now
    GameSeat.objects.filter(decision_logs__isnull=True).update(decision_logs={})
    before = _sizes(storage_options=False, copies=args.copies)
    record_before = _record_bytes(stored)
    # After: folded as the dashboards (or the beat) fold, which deletes the fact and seat
    # rows; the records packed as migration 0013 packs them (timed); the options, statistics
    # and details left to the tournament and the record as migration 0018 leaves them; the
    # tables' storage options.
    fold_pending()
    began = time.perf_counter()
    converted, _ = convert_stored(Game, 3)
    rate = converted / (time.perf_counter() - began)
    said.rewrite(said.STRIPPED)(django_apps, _Editor())
    slim.options_to_tournaments(django_apps, _Editor())
    drop_replayable(Game, GameSeat)
    history.null_derivable(django_apps, _Editor())
    keyed.null_derivable(django_apps, _Editor())  # the ordinals and versions
    GameSeat.objects.filter(decision_logs={}).update(decision_logs=None)
    after = _sizes(storage_options=True, copies=args.copies)
    record_after = _record_bytes(stored)
    print(
        f"{args.title}, {stored} 4-player games stored, measured as {stored * args.copies} "
        "(each table's rows copied that many times with their ids moved); bytes per game "
        "(heap + TOAST + indexes)"
    )
    print(f"{'table':28} {'before':>9} {'after':>9}")
    for table in (*PER_GAME, "games_game heap", "games_game TOAST", "games_game indexes"):
        print(f"{table:28} {before[table] / stored:9.0f} {after[table] / stored:9.0f}")
    total_before = sum(before[t] for t in PER_GAME) / stored
    total_after = sum(after[t] for t in PER_GAME) / stored
    print(f"{'all of them':28} {total_before:9.0f} {total_after:9.0f}")
    print(f"{'  the record column alone':28} {record_before:9.0f} {record_after:9.0f}")
    print(f"conversion (migration 0013): {rate:.0f} records a second on one core")
    print(
        f"record_size: {stored} games, {total_before:.0f} -> {total_after:.0f} bytes/game "
        f"({total_after / total_before:.2f}x)"
    )
    if os.environ.get("ARENA_BENCH_KEEP"):
        return  # to look at its rows
    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        from django.db import connections

        connections.close_all()
        c.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


class _Editor:
    """What a migration's RunPython function reads of its schema editor."""

    @property
    def connection(self):
        from django.db import connection

        return connection

    def execute(self, sql: str) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(sql)


# The version of each title point's bot's one seat in its game, written into the point.
WRITE_VERSIONS = """
UPDATE ratings_titleratingchange p SET bot_version_id = s.bot_version_id
FROM ratings_titlerating r, games_gameseat s, bots_botversion v
WHERE r.id = p.title_rating_id AND s.game_id = p.game_id AND v.id = s.bot_version_id
  AND v.bot_id = r.bot_id AND p.bot_version_id IS NULL
"""


# What the tables had before issue 25 that the schema no longer has (the "before" copies).
# (The seats' and title points' ids of before, and their index, come last: a column added.)
SURROGATE = "ALTER TABLE bench_copy ADD COLUMN id bigint GENERATED BY DEFAULT AS IDENTITY UNIQUE"
BEFORE_SCHEMA = {
    "games_game": ["ALTER TABLE bench_copy ALTER COLUMN record SET STORAGE EXTENDED"],
    "games_gameseat": [SURROGATE],
    "ratings_ratingchange": ["CREATE INDEX ON bench_copy (game_id)"],
    "ratings_titleratingchange": ["CREATE INDEX ON bench_copy (bot_version_id)", SURROGATE],
}


# Columns that identify a game's rows: moved by a multiple of this in each copy.
MOVED = ("id", "game_id", "number")
MOVE = 10_000_000


def _sizes(*, storage_options: bool, copies: int) -> dict[str, int]:
    """Each table's bytes per ``copies`` of its rows, TOAST and indexes included, counting
    live rows only: each is copied ``copies`` times into a fresh table of the same definition
    (and storage options, if asked; else the schema of before, BEFORE_SCHEMA), its id, game
    id and game number moved by a multiple of MOVE in each copy, in id order (the order a
    worker writes them), which is measured. So a per-game figure is what each game adds to a
    large table (the issue's 1 M games), not a small table's fixed and half-filled pages.
    (VACUUM FULL keeps the dead rows that any transaction on the server might still see, and
    on a shared server one usually is open.)"""
    from django.db import connection

    sizes = {}
    with connection.cursor() as cursor:
        for table in PER_GAME:
            cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [table])
            options = cursor.fetchone()[0]
            cursor.execute(f"CREATE TABLE bench_copy (LIKE {table} INCLUDING ALL)")
            if options and storage_options:
                cursor.execute(f"ALTER TABLE bench_copy SET ({', '.join(options)})")
            for statement in () if storage_options else BEFORE_SCHEMA.get(table, ()):
                cursor.execute(statement)
            cursor.execute(
                "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
                "AND NOT attisdropped ORDER BY attnum",
                [table],
            )
            names = [row[0] for row in cursor.fetchall()]
            # in the order a worker writes them: by id, or by game where the key is natural
            order = "id" if "id" in names else "game_id"
            for copy in range(copies):
                moved = ", ".join(
                    f'"{c}" + {copy * MOVE}' if c in MOVED else f'"{c}"' for c in names
                )
                cursor.execute(
                    "INSERT INTO bench_copy OVERRIDING SYSTEM VALUE "
                    f"SELECT {moved} FROM {table} ORDER BY {order}"
                )
            cursor.execute(
                "SELECT pg_total_relation_size(oid), pg_relation_size(oid), "
                "pg_total_relation_size(reltoastrelid), pg_indexes_size(oid) "
                "FROM pg_class WHERE relname = 'bench_copy'"
            )
            total, heap, toast, indexes = cursor.fetchone()
            sizes[table] = total / copies
            if table == "games_game":
                sizes["games_game heap"] = heap / copies
                sizes["games_game TOAST"] = toast / copies
                sizes["games_game indexes"] = indexes / copies
            cursor.execute("DROP TABLE bench_copy")
    return sizes


def _record_bytes(games: int) -> float:
    """Mean stored size of the record column (compressed as stored)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT sum(pg_column_size(record)) FROM games_game")
        return cursor.fetchone()[0] / games


def _store_games(title: str, games: int) -> int:
    from django.contrib.auth import get_user_model

    import engine
    from arena.bots import services as bots
    from arena.bots.models import Bot
    from arena.games import services
    from arena.games.models import Game
    from arena.games.tasks import run_job
    from arena.tournaments import services as tournaments

    owner = get_user_model().objects.create_user("bench")
    names = engine.bots(title, thinking=False)
    versions = [
        bots.add_builtin_version(
            bot=Bot.objects.create(owner=owner, title=title, name=f"bot-{i}"),
            builtin_name=names[i % len(names)],
        )
        for i in range(4)
    ]
    tournament = tournaments.create_tournament(
        organiser=owner, name="bench", title=title, seats=4, entrants=versions, rounds=games,
        seed=3,
    )  # fmt: skip
    tournaments.start_tournament(tournament.pk)
    queued = Game.objects.filter(tournament=tournament, status="queued").order_by("number")
    stored = 0
    while stored < games and (game := queued.first()):
        job = services.claim_game(game.pk, worker="bench")
        played = run_job(job)
        services.store_game_result(job, played)
        stored += 1
    # Games created but never played would count in the per-game tables' sizes.
    Game.objects.filter(tournament=tournament).exclude(status="finished").delete()
    return stored


if __name__ == "__main__":
    main()
