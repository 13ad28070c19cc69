"""Every page and API read over a long ladder history, at 10 k, 100 k and 1 M finished games:
p95 and median uncached and cached, the store's cost per game, and the bytes per game.

    .venv/bin/python bench/history.py [--games 100000] [--repeat 15] [--stores 100] [--keep]
                                      [--reuse] [--database NAME]

Needs PostgreSQL on 127.0.0.1. For each size it makes the database
``<name>_history_bench_<games>``, ``<name>`` that of ARENA_DATABASE_URL (``arena`` without
it; ``--database NAME``: ``NAME_<games>``); dropped first, and after the run unless
``--keep``. ``--reuse`` times a database that a ``--keep`` run built (its build's ladders
are kept beside it in ``var/bench/``) without building it again, and keeps it: a 1 M build
takes an hour, a change to a read is timed again in minutes. It fills it with
``bench/history_build.py``: one standing 4-seat ladder per title, 200 bot versions each,
real played games' rows replicated with fresh ids in SQL, :data:`CHUNK` games at a time,
each chunk folded into the totals (``arena.games.totals.fold_pending``, FOLD_BATCH games a
transaction) as the beat folds a ladder's games while it plays. The build's time and the
folds' are printed apart (the statistics and vacuum around each fold count as building).

Reads go through Django's test client (the web pages and the API, anonymous but the staff
queue) and the dashboards' pages with each filter; the CSV of all a bot's games to its
first 1,000 rows (a download grows with the games; each page of it should cost the same),
and its whole file once, as ms per 1,000 rows. Uncached: the site's cache cleared
before each request (PostgreSQL's own buffers stay warm); cached: the same request again
("streamed" for the CSV downloads, which the page cache never keeps).
The store: ``--stores`` games of the Citadels ladder drawn by its matchmaking, played
in-process and stored by ``store_game_result``, whose worker Python (``process_time``) and
PostgreSQL backend CPU (/proc, in ns) per game are printed, then the same of the
beat's fold of those games into the totals, and the sums' ratio to the same at 10 k (kept in ``var/bench/history-10000.json`` by a 10 k run, so that
``--games N`` compares with it; ``bench/history_store.py`` times the two sizes in turns in
one run, which a shared machine's drift between runs does not move). Bytes per game: every table's, its indexes' and TOAST's
size (``pg_total_relation_size``) divided by the finished games. Its last line:

    history: <games> games, <bytes> bytes/game, slowest read p95 <ms> ms (<read>), store <ratio>x of 10k
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgres://postgres@127.0.0.1:5432"
SIZES = (10_000, 100_000, 1_000_000)
BASELINE = ROOT / "var" / "bench" / "history-10000.json"
# A CSV of all a bot's games grows with them, as a download does: the read is timed to its
# first CSV_ROWS rows (what a page of it costs: it streams a page of games at a time), and
# the whole file once, as a rate per 1,000 rows (flat if every page costs the same).
CSV_READ = "api games csv of a bot (first 1,000 rows)"
CSV_ROWS = 1000
# Games built between two folds: a living ladder's analytics rows are folded every
# ARENA_FOLD_SECONDS, so its pending rows stay a few minutes' worth; a million games' 110
# million fact rows waiting for one fold is a state the platform is never in (and a heap
# of many GB read back at random on this machine's 128 MB of shared buffers).
CHUNK = 50_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, help="one size only (default: 10 k, 100 k, 1 M)")
    parser.add_argument("--repeat", type=int, default=15, help="timings per read and way")
    parser.add_argument("--stores", type=int, default=100, help="games stored to time the store")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument(
        "--reuse", action="store_true",
        help="time the databases a --keep run built, without building them again (kept)",
    )  # fmt: skip
    parser.add_argument(
        "--database",
        help="the databases' name before _<games> (default: ARENA_DATABASE_URL's database "
             "name, then _history_bench)",
    )  # fmt: skip
    args = parser.parse_args()
    sizes = (args.games,) if args.games else SIZES
    summary = ""
    for games in sizes:
        summary = _one_size(games, args)
    print(summary)
    return 0


def _one_size(games: int, args) -> str:
    """Build, time, drop one size; its summary line."""
    import subprocess

    # Named after ARENA_DATABASE_URL's database unless --database says: runs from two
    # checkouts at once do not drop each other's.
    own = os.environ.get("ARENA_DATABASE_URL", "").rsplit("/", 1)[-1] or "arena"
    database = f"{args.database or own + '_history_bench'}_{games}"
    out = Path(tempfile.mkdtemp(prefix="history-bench-")) / "result.json"
    env = {
        **os.environ, "ARENA_DATABASE_URL": f"{SERVER}/{database}", "ARENA_DEBUG": "false",
        "ARENA_LOG_LEVEL": "WARNING", "ARENA_VAR_DIR": str(out.parent / "var"),
        "DJANGO_SETTINGS_MODULE": "arena.settings",
        # The page cache in this one process's memory: the reads and the writes are its own.
        "ARENA_PAGE_CACHE": "true",
    }  # fmt: skip
    built = ROOT / "var" / "bench" / f"history-built-{database}.json"
    reuse = args.reuse and built.exists()
    if args.reuse and not reuse:
        raise SystemExit(f"--reuse: no kept build of {database} ({built} is missing)")
    command = [sys.executable, __file__, "--child", str(games), str(args.repeat),
               str(args.stores), str(out), str(built), "reuse" if reuse else "build"]  # fmt: skip
    try:
        if not reuse:
            built.unlink(missing_ok=True)
            _fresh(database)
        subprocess.run(command, env=env, check=True)
    finally:
        if not (args.keep or args.reuse):
            _drop(database)
            built.unlink(missing_ok=True)
    result = json.loads(out.read_text())
    return _report(games, result)


def _fresh(database: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {database}")


def _drop(database: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def _report(games: int, result: dict) -> str:
    """Print one size's figures; its summary line."""
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else None
    if games == 10_000:
        BASELINE.parent.mkdir(parents=True, exist_ok=True)
        BASELINE.write_text(json.dumps(result))
        baseline = result
    print(f"\n== {result['games']} finished games, load average {result['load']}  (built in {result['build_s']:.0f} s, "
          f"folded in {result['fold_s']:.0f} s) ==")  # fmt: skip
    print(f"{'read':44} {'uncached p95':>12} {'median':>8} {'cached p95':>11} {'median':>8}"
          f" {'p95 / 10k':>9}")  # fmt: skip
    slowest = ("", 0.0)
    for name, t in result["reads"].items():
        base = (baseline or {}).get("reads", {}).get(name)
        ratio = f"{t['uncached_p95'] / base['uncached_p95']:.2f}x" if base else "-"
        # A streamed download is never cached (arena.pagecache): its second read is not one.
        cached = (
            f"{'streamed':>11} {'':>9}" if t.get("streamed")
            else f"{t['cached_p95']:9.1f} ms {t['cached_median']:6.1f} ms"
        )  # fmt: skip
        print(f"{name:44} {t['uncached_p95']:10.1f} ms {t['uncached_median']:6.1f} ms "
              f"{cached} {ratio:>9}")  # fmt: skip
        if t["uncached_p95"] > slowest[1]:
            slowest = (name, t["uncached_p95"])
    whole = result["csv_whole"]
    print(f"games csv of a bot, the whole file: {whole['rows']} rows in {whole['ms']:.0f} ms, "
          f"{1000 * whole['ms'] / max(whole['rows'], 1):.1f} ms per 1,000 rows")  # fmt: skip
    store = result["store"]
    per_game = store["python_ms"] + store["postgres_ms"]
    base_store = (
        baseline["store"]["python_ms"] + baseline["store"]["postgres_ms"] if baseline else 0
    )
    ratio = per_game / base_store if base_store else float("nan")
    print(
        f"store: {store['games']} games, worker Python {store['python_ms']:.2f} ms + "
        f"PostgreSQL backend {store['postgres_ms']:.2f} ms per game ({ratio:.2f}x of 10k)"
    )
    if "folded" in store:  # a 10 k baseline from before the fold was timed has none
        fold = store["fold_python_ms"] + store["fold_postgres_ms"]
        base = (
            baseline
            and baseline["store"].get("folded")
            and (baseline["store"]["fold_python_ms"] + baseline["store"]["fold_postgres_ms"])
        )
        print(
            f"fold of those games (the beat's): {store['folded']} games, Python "
            f"{store['fold_python_ms']:.2f} ms + PostgreSQL backend "
            f"{store['fold_postgres_ms']:.2f} ms per game"
            + (f" ({fold / base:.2f}x of 10k)" if base else "")
        )
    print("bytes per game by table (tables, indexes, TOAST):")
    for table, size in sorted(result["tables"].items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {table:40} {size / result['games']:9.0f}")
    return (
        f"history: {result['games']} games, {result['bytes_per_game']:.0f} bytes/game, slowest "
        f"read p95 {slowest[1]:.1f} ms ({slowest[0]}), store {ratio:.2f}x of 10k"
    )


# -- the child process: one database, set up with Django ----------------------------------


def _child(games: int, repeat: int, stores: int, out: Path, kept: Path, how: str) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from arena.games import totals
    from arena.games.models import AnalyticsFact, AnalyticsPending, AnalyticsSeat
    from arena.processes import freeze_web_heap
    from bench.history_build import build_history

    folded_rows = (AnalyticsFact, AnalyticsSeat, AnalyticsPending)

    call_command("migrate", verbosity=0)
    folding = [0.0]
    emptied = "VACUUM " + ", ".join(m._meta.db_table for m in folded_rows)

    def fold() -> None:
        """Fold what the chunk stored, as the beat does; the rows' space is reclaimed and
        their statistics kept as autovacuum would (not timed as the fold)."""
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # the new rows' statistics (the versions' the first time)
        started = time.perf_counter()
        folded = totals.fold_pending(totals.FOLD_BATCH)
        folding[0] += time.perf_counter() - started
        print(f"  folded {folded} games in {time.perf_counter() - started:.0f} s "
              f"({time.perf_counter() - begun - folding[0]:.0f} s of building so far)", flush=True)  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(emptied)

    started = begun = time.perf_counter()
    if how == "reuse":
        built = json.loads(kept.read_text())
        build_s, fold_s = built["build_s"], built["fold_s"]
        # What autovacuum does on a site (PostgreSQL here may run with it off): the last
        # run's stores and folds left dead rows in the totals, which otherwise grew the
        # bytes per game run after run (2,969 to 3,001 at 1 M over eight runs).
        with connection.cursor() as cursor:
            cursor.execute("VACUUM")
    else:
        built = build_history(games, say=lambda line: print(line, flush=True), chunk=CHUNK,
                              between=fold)  # fmt: skip
        fold_s = folding[0]
        build_s = time.perf_counter() - started - fold_s
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
            # The chunks' folds leave the emptied queues' indexes at a chunk's size, which a
            # living platform's queue (minutes of games) never reaches: rebuilt as games 0025
            # rebuilds them (192 bytes a game at 1 M otherwise).
            for model in folded_rows:
                cursor.execute(f"REINDEX TABLE {model._meta.db_table}")
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps({**built, "build_s": build_s, "fold_s": fold_s}))
    finished, tables, size = _sizes()
    # The heap as a web process has it when it serves (arena/wsgi.py).
    freeze_web_heap()
    reads, csv_whole = _time_reads(built, repeat)
    store = time_store(built["ladders"]["citadels"], stores)
    out.write_text(json.dumps({
        "games": finished, "build_s": build_s, "fold_s": fold_s, "reads": reads,
        "store": store, "csv_whole": csv_whole, "tables": tables, "bytes_per_game": size / finished,
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }))  # fmt: skip


def _sizes() -> tuple[int, dict[str, int], int]:
    """Finished games, each table's total size (indexes and TOAST included), the sum."""
    from django.db import connection

    from arena.games.models import Game

    finished = Game.objects.filter(status=Game.Status.FINISHED).count()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND n.nspname = 'public'"
        )
        tables = dict(cursor.fetchall())
    return finished, tables, sum(tables.values())


def _reads(built: dict) -> dict[str, str]:
    """Each read by name: the URL it gets."""
    from arena.bots.models import Bot, BotVersion
    from arena.ratings.models import Rating

    ladder = built["ladders"]["citadels"]
    bot = Bot.objects.filter(name="history-citadels-7").get()
    version = BotVersion.objects.filter(bot=bot).order_by("-number").first()
    rating = Rating.objects.filter(tournament_id=ladder, bot_version=version).get()
    return {
        "ladder page": f"/ladders/{ladder}/",
        "ladder's tournament page": f"/tournaments/{ladder}/",
        "bot page": f"/bots/{bot.pk}/",
        "staff queue page": "/staff/queue/",
        "api ladder leaderboard": f"/api/v1/ladders/{ladder}/leaderboard/",
        "api ladder history": f"/api/v1/ladders/{ladder}/history/{bot.pk}/",
        "api ratings of the ladder": f"/api/v1/ratings/?tournament={ladder}",
        "api rating history": f"/api/v1/ratings/{rating.pk}/history/",
        "api games of the ladder": f"/api/v1/games/?tournament={ladder}",
        "api games of a bot": f"/api/v1/games/?bot={bot.pk}",
        "api games of a version": f"/api/v1/games/?version={version.pk}",
        CSV_READ: f"/api/v1/games/csv/?bot={bot.pk}",
        "api standings": f"/api/v1/tournaments/{ladder}/standings/",
        "api standings csv": f"/api/v1/tournaments/{ladder}/standings/csv/",
        "api ladder challenges": f"/api/v1/ladders/{ladder}/challenges/",
        "api ratings dashboard +bot": f"/api/v1/analytics/ratings/?title=citadels&bot={bot.pk}",
    }


def _dashboards(built: dict) -> dict[str, tuple[str, dict]]:
    """Each dashboard read by name: the page and its filters (the page's queries are timed,
    as bench/dashboards.py does, not the figures the page draws from them)."""
    from arena.bots.models import Bot, BotVersion

    ladder, praga = built["ladders"]["citadels"], built["ladders"]["praga"]
    bot = Bot.objects.filter(name="history-citadels-7").get()
    version = BotVersion.objects.filter(bot=bot).order_by("-number").first()
    # The history's first day (bench/history_build.py starts it at 2025-01-01): it holds
    # games at every size (all of 10 k, 28,800 of a day at a game every 3 s above that), so
    # a one-day filter is compared with itself; the second day held none at 10 k.
    day = "2025-01-01"
    return {
        "seats dashboard": ("seats", {"title": "citadels"}),
        "seats dashboard +bot": ("seats", {"title": "citadels", "bot": bot.pk}),
        "characters dashboard +version": (
            "characters",
            {"title": "citadels", "bot_version": version.pk},
        ),
        "cranes dashboard +dates": ("cranes", {"title": "praga", "since": day, "until": day}),
        "cranes dashboard +tournament": ("cranes", {"title": "praga", "tournament": praga}),
        "ratings dashboard": ("ratings", {"title": "citadels"}),
        "ratings dashboard +bot": ("ratings", {"title": "citadels", "bot": bot.pk}),
        "ratings dashboard +version": ("ratings", {"title": "citadels", "bot_version": version.pk}),
        "ratings dashboard +tournament +dates": (
            "ratings",
            {"title": "citadels", "tournament": ladder, "since": day, "until": day},
        ),
    }


def read_calls(built: dict) -> dict[str, tuple]:
    """Each read by name: what its uncached timing calls, and what its cached one calls
    (the same but for the dashboards, whose uncached timing calls their queries, not the
    page's cache). The caller clears the site's cache before an uncached timing."""
    from django.contrib.auth import get_user_model
    from django.http import QueryDict
    from django.test import Client

    from dashboards import tables

    staff = get_user_model().objects.filter(username="history-staff").first()
    staff = staff or get_user_model().objects.create_user("history-staff", is_staff=True)
    # Anonymous but the staff queue, as the docstring says (a signed-in read also loads its
    # session and user: two queries more, cached or not).
    anonymous, client = Client(HTTP_HOST="localhost"), Client(HTTP_HOST="localhost")
    client.force_login(staff)
    calls = {}
    for name, url in _reads(built).items():
        most = CSV_ROWS if name == CSV_READ else None
        who = client if url.startswith("/staff/") else anonymous
        read = functools.partial(_get, who, url, name, most)
        calls[name] = (read, read)
    for name, (page, params) in _dashboards(built).items():
        query = QueryDict(mutable=True)
        query.update({k: str(v) for k, v in params.items()})
        sel = tables.selection(page, query, None)
        calls[name] = (
            lambda page=page, sel=sel: tables.PAGE_TABLES[page](sel),
            lambda page=page, sel=sel: tables.page(page, sel),
        )
    return calls


def time_uncached(read, repeat: int) -> list[float]:
    """``repeat`` timings (ms) of ``read`` with the site's cache cleared before each."""
    from django.core.cache import cache

    found = []
    for _ in range(repeat):
        cache.clear()
        found.append(_ms(read))
    return found


def _time_reads(built: dict, repeat: int) -> dict[str, dict]:
    from django.core.cache import cache
    from django.test import Client

    calls = read_calls(built)
    found = {}
    for name, (uncached_read, read) in calls.items():
        uncached, cached = [], []
        for _ in range(repeat):
            cache.clear()
            uncached.append(_ms(uncached_read))
            # fills the cache, unless the answer is streamed (_get counts its rows)
            streamed = isinstance(read(), int)
            cached.append(_ms(read))
        found[name] = {
            "uncached_p95": _p95(uncached), "uncached_median": statistics.median(uncached),
            "cached_p95": _p95(cached), "cached_median": statistics.median(cached),
            "streamed": streamed,
        }  # fmt: skip
    started = time.perf_counter()
    rows = _get(Client(HTTP_HOST="localhost"), _reads(built)[CSV_READ], CSV_READ)
    whole = 1000 * (time.perf_counter() - started)
    return found, {"rows": rows, "ms": whole}


def _ms(read) -> float:
    started = time.perf_counter()
    read()
    return 1000 * (time.perf_counter() - started)


def _get(client, url: str, name: str, most: int | None = None) -> int | None:
    """GET ``url``; a streamed answer read to its end, or to its first ``most`` rows (lines
    after the header). How many rows were read; None for an answer that is not streamed."""
    response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{name}: {url} answered {response.status_code}")
    if not getattr(response, "streaming", False):
        return None
    lines = -1  # the header
    for chunk in response.streaming_content:
        lines += chunk.count(b"\n")
        if most is not None and lines >= most:
            break
    response.close()
    return lines


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def time_store(ladder_id: int, stores: int) -> dict:
    """Store ``stores`` of the ladder's own games (its matchmaking draws them); the worker's
    Python and its PostgreSQL backend's CPU per store."""
    from django.test import override_settings

    from arena.games import totals
    from arena.games.models import Game
    from arena.tournaments import ladders
    from arena.tournaments.models import Tournament
    from bench.store_path import backend_cpu_s, store_timed

    totals.fold_pending(totals.FOLD_BATCH)  # what an earlier --reuse run stored, untimed
    # The built ratings have settled, and a settled ladder draws a game at a time at its
    # background rate: timed as a busy ladder (no σ is settled), whose window stays full.
    with override_settings(ARENA_LADDER_SETTLED_SIGMA=0):
        ladders.top_up(Tournament.objects.get(pk=ladder_id))
        queued = Game.objects.filter(tournament_id=ladder_id, status=Game.Status.QUEUED)
        python_s, postgres_s, stored = store_timed(queued.order_by("number"), stores)
    # The beat's fold of those games into the dashboards' totals: the rest of what a stored
    # game costs the platform, which must not grow with the history either.
    backend, python = backend_cpu_s(), time.process_time()
    folded = totals.fold_pending(totals.FOLD_BATCH)
    fold_python_s, fold_postgres_s = time.process_time() - python, backend_cpu_s() - backend
    return {
        "games": stored, "python_ms": 1000 * python_s / max(stored, 1),
        "postgres_ms": 1000 * postgres_s / max(stored, 1), "folded": folded,
        "fold_python_ms": 1000 * fold_python_s / max(folded, 1),
        "fold_postgres_ms": 1000 * fold_postgres_s / max(folded, 1),
    }  # fmt: skip


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5]),
               Path(sys.argv[6]), sys.argv[7])  # fmt: skip
    else:
        sys.exit(main())
