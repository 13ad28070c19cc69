"""The dashboards' queries over many stored seats: uncached, cached, and against a naive
ORM-in-Python aggregation of the same figure, measured in one run.

    .venv/bin/python bench/dashboards.py [--seats 1000000] [--repeat 7] [--reuse]

Needs PostgreSQL on 127.0.0.1. It creates the database ``ARENA_BENCH_DATABASE`` (default
``arena_bench_dashboards``; dropped and made again each run) and fills it with generated
rows of the shape the store writes: 4-player games between 12 bot versions (each game seats
four different ones, every pair meets) in 10 tournaments (the odd ones Citadels, the even
ones Praga), a game finished every second, about one seat in 97 faulted. The platform's own
tables, which the ratings page reads: ``games_game`` (finished, with ``actions`` and
``match_ms``, no record), ``games_gameseat``, a ``ratings_rating`` per tournament and version
and a ``ratings_ratingchange`` per seat. The analytics tables, which the other pages read:
``games_analyticsseat``, the folded ``games_analyticsfact`` (both deleted by the fold, as the
platform's fold deletes them; Citadels: per seat 8 rounds of
``held``, ``pick`` and ``offered`` facts, 4 ``score`` facts; Praga: a ``configuration`` fact
per game, per seat 8 ``take`` and 7 ``score`` facts) and a pending row per game. All of it
is written by ``generate_series`` in SQL, so a million seats take minutes, not a day of
simulation. Then it folds the pending games into the totals (``arena.games.totals.fold_batch``,
20,000 games per transaction: the analytics totals, the ratings page's totals of the same
games and the rating changes' points) and prints what that cost per game, as the dashboards'
reads would pay it after the stores. ``--reuse`` times a database a previous run filled;
``--rebuild`` with it folds every game again first (``totals.rebuild``, after the totals'
definition changed) and prints that fold's cost per game.

For each page it prints the p95 (and median) of the uncached page (every query it runs,
``tables.PAGE_TABLES[name]``), the cached page (``tables.page``, the stored-version check
included), and the time of a naive ORM aggregation of the page's main figure (seat rows or
fact rows loaded into Python and counted there; for the ratings page the head-to-head matrix
from the selection's seat rows) with its ratio to the SQL. The characters' and cranes' naive
figures read the analytics seat and fact rows, which the fold deletes (games 0014: the
records keep the facts, the totals their sums): they are timed once the rows are generated
and before the fold, over every fact row of the title's games, which is what a platform
without the totals would keep and read (``--reuse`` has no such rows and prints none). The ratings page is timed three
more ways: from the raw rows with no filter (``queries_ratings.raw_rows``, what it read
before its totals), and with a bot and a bot-version filter, which read the raw rows. Figures
are wall time on a possibly shared machine: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE = os.environ.get("ARENA_BENCH_DATABASE", "arena_bench_dashboards")
SERVER = "postgres://postgres@127.0.0.1:5432"


def setup_django(fresh: bool = True) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ["ARENA_DATABASE_URL"] = f"{SERVER}/{DATABASE}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    import psycopg

    if fresh:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
            admin.execute(f"CREATE DATABASE {DATABASE}")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


CHARACTERS = "ARRAY['assassin','thief','magician','king','bishop','merchant','architect','warlord']"
TILES = "ARRAY['upgrade+mines','wall+quarries','building+road','upgrade+road','wall+mines']"
ZONES = "ARRAY['red','green','blue']"


# The bot version in seat s of game g: four different versions a game, and (the step a unit
# modulo 12) each version meets every other, as the head-to-head matrix wants.
VERSION = "({versions})[1 + (g * 7 + s * (ARRAY[1, 5, 7, 11])[1 + (g / 2) % 4]) % 12]"
FAULTED = "(g * 7 + s) % 97 = 0"  # about 1 seat in 97 faulted


def bot_versions(count: int = 12) -> tuple[object, str]:
    """The bench's user and ``count`` built-in bot versions (the fold reads their bots), the
    versions as a SQL array of ids."""
    from django.contrib.auth import get_user_model

    from arena.bots.models import Bot, BotVersion

    owner = get_user_model().objects.create_user("bench")
    ids = [
        BotVersion.objects.create(
            bot=Bot.objects.create(owner=owner, title="citadels", name=f"bot-{i}"),
            number=1, kind=BotVersion.Kind.BUILTIN, builtin_name="random",
        ).pk
        for i in range(count)
    ]  # fmt: skip
    return owner, f"ARRAY{ids}"


def tournaments_and_ratings(owner, versions: str) -> None:
    """The 10 tournaments the games belong to (game g in tournament 1 + g % 10, so the odd
    ones hold the Citadels games, the even ones Praga's) and a rating per tournament and
    version."""
    from arena.ratings.models import Rating
    from arena.tournaments.models import Tournament

    ids = [int(v) for v in versions.removeprefix("ARRAY[").removesuffix("]").split(",")]
    for t in range(1, 11):
        Tournament.objects.create(
            pk=t, organiser=owner, name=f"bench {t}", title="citadels" if t % 2 else "praga",
            seats=4, status=Tournament.Status.FINISHED,
        )  # fmt: skip
    Rating.objects.bulk_create(
        Rating(tournament_id=t, bot_version_id=v, mu=25.0, sigma=8.333, ordinal=0.0)
        for t in range(1, 11)
        for v in ids
    )


def platform_rows(games: int, versions: str) -> list[str]:
    """The same games as the analytics rows in the platform's own tables, which the ratings
    page reads: finished games with their length and match time, their seats, and a rating
    change per seat (σ shrinking with the game's number)."""
    version = VERSION.format(versions=versions)
    return [
        f"""INSERT INTO games_game (id, tournament_id, number, "table", seed, options, status,
                attempts, worker, error, error_detail, finished_at, match_ms, engine_version,
                rules_version, record, stats, rated, actions)
            SELECT g, 1 + g % 10, g, 0, g, '{{}}', 'finished', 1, 'bench', '', '',
                   now() - g * interval '1 second', 300 + (g * 13) % 900, '', '', NULL, '{{}}',
                   true, CASE WHEN g % 2 = 0 THEN 60 + (g * 17) % 90 ELSE 120 + (g * 11) % 80 END
            FROM generate_series(1, {games}) g""",
        f"SELECT setval(pg_get_serial_sequence('games_game', 'id'), {games})",
        f"""INSERT INTO games_gameseat (game_id, seat, bot_version_id, score, rank, rating_rank,
                winner, status, fault_count, faults, details, stderr)
            SELECT g, s, {version}, 10 + (g * 37 + s * 11) % 60, 1 + (s + g) % 4,
                   1 + (s + g) % 4, (s + g) % 4 = 0,
                   CASE WHEN {FAULTED} THEN 'faulted' ELSE 'ok' END,
                   CASE WHEN {FAULTED} THEN 1 ELSE 0 END, '[]', '{{}}', ''
            FROM generate_series(1, {games}) g, generate_series(0, 3) s""",
        """INSERT INTO ratings_ratingchange (rating_id, game_id, mu_before, sigma_before, mu,
                sigma, ordinal)
            SELECT r.id, s.game_id, x.mu - 0.1, x.sigma + 0.01, x.mu, x.sigma,
                   x.mu - 3 * x.sigma
            FROM games_gameseat s
            JOIN games_game g ON g.id = s.game_id
            JOIN ratings_rating r
              ON r.tournament_id = g.tournament_id AND r.bot_version_id = s.bot_version_id
            CROSS JOIN LATERAL (
                SELECT 25 + (s.bot_version_id % 12) / 4.0 + ((s.game_id * 31) % 100) / 50.0
                       AS mu,
                       1 + 7.333 / sqrt(1 + g.number / 1000.0) AS sigma) x""",
    ]


def generate(seats: int) -> None:
    """Rows of the store's shape for ``seats`` seats of 4-player games (see the docstring)."""
    from django.db import connection

    games = seats // 4
    owner, versions = bot_versions()
    tournaments_and_ratings(owner, versions)
    statements = [
        *platform_rows(games, versions),
        f"""INSERT INTO games_analyticsseat (game_id, seat, title, tournament_id, players,
                bot_version_id, score, rank, win_share, faulted, finished_at)
            SELECT g, s, CASE WHEN g % 2 = 0 THEN 'citadels' ELSE 'praga' END, 1 + g % 10, 4,
                   {VERSION.format(versions=versions)}, 10 + (g * 37 + s * 11) % 60,
                   1 + (s + g) % 4,
                   CASE WHEN (s + g) % 4 = 0 THEN 1.0 ELSE 0.0 END, {FAULTED},
                   now() - g * interval '1 second'
            FROM generate_series(1, {games}) g, generate_series(0, 3) s""",
        f"""INSERT INTO games_analyticsfact (game_id, seat, kind, subject, value, detail, facts)
            SELECT g, s, k, ({CHARACTERS})[1 + (g + s * 2 + r) % 8],
                   CASE k WHEN 'pick' THEN 1 + (g + s) % 4 ELSE (g + r) % 5 END, '', 1
            FROM generate_series(2, {games}, 2) g, generate_series(0, 3) s,
                 generate_series(1, 8) r, unnest(ARRAY['held','pick','offered']) k""",
        f"""INSERT INTO games_analyticsfact (game_id, seat, kind, subject, value, detail, facts)
            SELECT g, NULL, 'configuration', 'A:' || (g / 2) % 12, 1, 'A', 1
            FROM generate_series(1, {games}, 2) g""",
        # a seat's takes folded per tile and zone, as the runner sends them
        f"""INSERT INTO games_analyticsfact (game_id, seat, kind, subject, value, detail, facts)
            SELECT g, s, 'take', ({TILES})[1 + (g + t + s) % 5], SUM((g + t) % 3 - 1),
                   ({ZONES})[1 + (g + t) % 3], COUNT(*)
            FROM generate_series(1, {games}, 2) g, generate_series(0, 3) s,
                 generate_series(1, 8) t
            GROUP BY 1, 2, 4, 6""",
        f"""INSERT INTO games_analyticsfact (game_id, seat, kind, subject, value, detail, facts)
            SELECT g, s, 'score', 'source' || k, (g + s + k) % 20, '', 1
            FROM generate_series(1, {games}) g, generate_series(0, 3) s,
                 generate_series(1, CASE WHEN g % 2 = 0 THEN 4 ELSE 7 END) k""",
        f"INSERT INTO games_analyticspending (game_id) SELECT generate_series(1, {games})",
        "ANALYZE",
    ]
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def fold_all() -> float:
    """Fold every pending game into the totals; the milliseconds it took per game."""
    from django.db import connection

    from arena.games import totals

    started, folded = time.perf_counter(), 0
    while done := totals.fold_batch(20_000):
        folded += done
    with connection.cursor() as cursor:
        # The fold deleted every pending row: without a vacuum each read's look for pending
        # games walks their dead tuples (40 ms at a million seats), which autovacuum spares
        # a platform that folds a few games at a time.
        cursor.execute("VACUUM ANALYZE")
    return 1000 * (time.perf_counter() - started) / max(folded, 1)


def rebuild_all() -> float:
    """Empty the totals and fold every stored game and rating change again (20,000 games
    per transaction); the milliseconds it took per game."""
    from django.db import connection

    from arena.games import totals

    started = time.perf_counter()
    folded = totals.rebuild()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # as fold_all
    return 1000 * (time.perf_counter() - started) / max(folded, 1)


def print_sizes() -> None:
    """Rows of the raw tables and of the totals the figures read."""
    from django.db import connection

    tables = [
        "games_analyticsseat", "games_analyticsfact", "games_analyticsseattotal",
        "games_analyticsfacttotal", "games_analyticsgamefacttotal", "games_gameseattotal",
        "games_gamelengthtotal", "games_headtoheadtotal", "games_lineuptotal",
        "games_ratingpoint",
    ]  # fmt: skip
    with connection.cursor() as cursor:
        counts = []
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            name = table.removeprefix("games_").removeprefix("analytics")
            counts.append(f"{name} {cursor.fetchone()[0]:,}")
    print("rows: " + ", ".join(counts))


def timed(function, repeat: int) -> list[float]:
    found = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        found.append(1000 * (time.perf_counter() - started))
    return found


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def naive_seats(sel) -> dict:
    """The seat figure the naive way: every seat row of the title's finished games into
    Python (the fold deletes the analytics seat rows), counted there, a shared win split."""
    from arena.games.models import GameSeat

    seats = GameSeat.objects.filter(
        game__tournament__title=sel.title, game__status="finished"
    ).values_list("game_id", "game__tournament__seats", "seat", "winner")
    rows = list(seats)
    winners = defaultdict(int)
    for game, _, _, winner in rows:
        winners[game] += winner
    counts = defaultdict(lambda: [0, 0.0])
    for game, players, seat, winner in rows:
        counts[(players, seat)][0] += 1
        counts[(players, seat)][1] += 1 / winners[game] if winner else 0.0
    return counts


def naive_facts(sel, kind: str) -> dict:
    """A fact figure the naive way: the facts and the seats into Python, joined there. It
    reads the raw analytics rows, so only before the fold deletes them (see the module's
    docstring)."""
    from arena.games.models import AnalyticsFact, AnalyticsSeat

    shares = {
        (g, s): w
        for g, s, w in AnalyticsSeat.objects.filter(title=sel.title).values_list(
            "game_id", "seat", "win_share"
        )
    }
    counts = defaultdict(lambda: [0, 0.0])
    for game, seat, subject in AnalyticsFact.objects.filter(kind=kind).values_list(
        "game_id", "seat", "subject"
    ):
        if (game, seat) in shares:
            counts[subject][0] += 1  # the seat-games it was in
            counts[subject][1] += shares[(game, seat)]
    return counts


def naive_ratings(sel) -> dict:
    """The head-to-head matrix the naive way: the selection's seat rows into Python, each
    game's seats paired there (seat pairs, A above B, level) for every two different bots."""
    from arena.games.models import GameSeat
    from dashboards.queries_ratings import selected_games

    by_game = defaultdict(list)
    for game, bot, rank in GameSeat.objects.filter(game__in=selected_games(sel)).values_list(
        "game_id", "bot_version__bot_id", "rank"
    ):
        by_game[game].append((bot, rank))
    cells = defaultdict(lambda: [0, 0, 0])
    for seats in by_game.values():
        for bot_a, rank_a in seats:
            for bot_b, rank_b in seats:
                if bot_a != bot_b:
                    cell = cells[(bot_a, bot_b)]
                    cell[0] += 1
                    cell[1] += rank_a < rank_b
                    cell[2] += rank_a == rank_b
    return cells


def ratings_queries(sel, repeat: int, label: str = "ratings page") -> None:
    """The median time of each query the ratings page runs, to say which one costs it."""
    from dashboards import queries_ratings as q
    from dashboards import tables_ratings

    seats = q.seat_counts(sel)
    played = q.bot_games(seats)
    drawn = tables_ratings.chosen_bots(sel, seats, played, q.DEFAULT_BOTS)
    met = drawn if len(drawn) >= 2 else tuple(r["bot_id"] for r in played[: q.HEAD_TO_HEAD_BOTS])
    steps = {
        "games_in": lambda: q.games_in(sel),
        "seat_counts": lambda: q.seat_counts(sel),
        "length_counts": lambda: q.length_counts(sel),
        "rating_history": lambda: q.rating_history(sel, drawn, most=q.HISTORY_POINTS),
        "games_met": lambda: q.games_met(sel, met),
        "head_to_head": lambda: q.head_to_head(sel, met),
        "rating_version": q.rating_version,
    }
    print(f"{label}, median per query: " + ", ".join(
        f"{name} {statistics.median(timed(step, repeat)):.1f} ms" for name, step in steps.items()
    ))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--reuse", action="store_true", help="time the database a previous run filled"
    )
    parser.add_argument(
        "--rebuild", action="store_true", help="with --reuse: fold every game again first"
    )
    args = parser.parse_args()
    setup_django(fresh=not args.reuse)
    from django.db import connection

    from dashboards import tables
    from dashboards.queries import Selection
    from dashboards.queries_ratings import RatingsSelection, raw_rows

    started = time.perf_counter()
    if not args.reuse:
        generate(args.seats)
        print(f"{args.seats:,} seats generated in {time.perf_counter() - started:.1f} s")
    pages = {
        "seats": (Selection("citadels"), lambda s: naive_seats(s)),
        "characters": (Selection("citadels"), lambda s: naive_facts(s, "held")),
        "cranes": (Selection("praga"), lambda s: naive_facts(s, "take")),
    }
    # The facts' naive figures read the raw rows the fold is about to delete.
    before_fold = {
        label: timed(lambda f=naive, s=sel: f(s), 1)[0]
        for label, (sel, naive) in pages.items()
        if label != "seats" and not args.reuse
    }
    started = time.perf_counter()
    per_game = rebuild_all() if args.reuse and args.rebuild else fold_all()
    if not args.reuse or args.rebuild:
        print(
            f"folded into the totals in {time.perf_counter() - started:.1f} s: "
            f"{per_game:.2f} ms per game (wall time)"
        )
    print_sizes()
    # the bot seated most, and its version: the filters that read the raw rows
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT v.bot_id, v.id FROM games_gameseat s "
            "JOIN bots_botversion v ON v.id = s.bot_version_id "
            "GROUP BY v.bot_id, v.id ORDER BY COUNT(*) DESC, v.id LIMIT 1"
        )
        bot, version = cursor.fetchone()
    pages |= {
        "ratings": (RatingsSelection("citadels"), naive_ratings),
        "ratings raw": (RatingsSelection("citadels"), naive_ratings),
        "+bot": (RatingsSelection("citadels", bot=bot), naive_ratings),
        "+version": (RatingsSelection("citadels", bot_version=version), naive_ratings),
    }
    print(f"{'page':<12}{'uncached p95':>14}{'median':>9}{'cached p95':>12}{'naive ORM':>11}"
          f"{'naive/SQL':>11}")  # fmt: skip
    for label, (sel, naive) in pages.items():
        name = label if label in tables.PAGE_TABLES else "ratings"
        raw = raw_rows() if label == "ratings raw" else contextlib.nullcontext()
        with raw:
            uncached = timed(lambda n=name, s=sel: tables.PAGE_TABLES[n](s), args.repeat)
        if label == "ratings raw":  # cached, it is the page above (one key)
            cached = [float("nan")]
        else:
            tables.page(name, sel)
            cached = timed(lambda n=name, s=sel: tables.page(n, s), args.repeat * 3)
        if label in ("characters", "cranes"):
            slow = before_fold.get(label, float("nan"))
        else:
            slow = timed(lambda f=naive, s=sel: f(s), 1)[0]
        print(
            f"{label:<12}{p95(uncached):>12.1f}ms{statistics.median(uncached):>7.1f}ms"
            f"{p95(cached):>10.2f}ms{slow:>9.0f}ms{slow / statistics.median(uncached):>10.1f}x"
        )
    queries_repeat = max(3, args.repeat // 2)
    ratings_queries(pages["ratings"][0], queries_repeat, "ratings page (totals)")
    with raw_rows():
        ratings_queries(pages["ratings"][0], queries_repeat, "ratings page (raw rows)")
    for label in ("+bot", "+version"):
        ratings_queries(pages[label][0], queries_repeat, f"ratings page {label} filter")


if __name__ == "__main__":
    main()
