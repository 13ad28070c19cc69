"""A long ladder history built cheaply: real played games' rows replicated in SQL.

For each title, one standing ladder of 4 seats with ``BOTS`` bots of ``VERSIONS`` versions
each (200 versions): a version takes over from its bot's previous one a quarter of the way
through the history (the older ones' entrants replaced), and each game seats four different
bots' current versions. A few games per title are played for real first (claim, the match
runner, the store: ``arena.tournaments.history.play_tournament``) in a round robin of built-in
bots; their rows (``games_game`` with its record and stats, seats, analytics seats and
facts) are then copied with fresh ids by ``INSERT ... SELECT`` over ``generate_series``,
onto the ladder, a game finished every ``STEP`` seconds, with the seats' versions replaced
by the ladder's. Every copied seat gets a rating change of its version's ladder rating and
a title rating change (μ rising or falling towards the bot's level, σ shrinking with its
games), the ratings and title ratings end at their last change, and every game is pending,
so that ``arena.games.totals.fold_pending`` folds it as it would the store's.

Used by ``bench/history.py`` and by the tests of reads over a long history; every table
and column name comes from the models (``arena.sql.build``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Callable

BOTS = 50
VERSIONS = 4  # per bot: 200 versions a ladder
SEATS = 4
CHALLENGES = 500  # per ladder
STEP = 3  # seconds between two games' finishes
TEMPLATE_ROUNDS = 2  # rounds of the round robin played for real, per title


def build_history(
    games: int,
    *,
    say: Callable[[str], None] = print,
    chunk: int | None = None,
    between: Callable[[], None] | None = None,
) -> dict:
    """Add about ``games`` finished games (split over the titles) to the database, as
    described above; the ladders' ids by title and how many games were added.

    With ``chunk``, the games are written ``chunk`` at a time (each title's share of them in
    finishing order) and ``between`` is called after each: a long history folded chunk by
    chunk, as the beat folds a living ladder's games while it plays, instead of a million
    games' analytics rows (about 130 a game) and rating changes waiting in one heap for a
    single fold."""
    import engine
    from arena.games.models import Game

    titles = engine.titles()
    per_title = math.ceil(games / len(titles))
    step = math.ceil(chunk / len(titles)) if chunk else per_title
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    made = {title_id: _ladder(title_id) for title_id in titles}
    templates = {title_id: _templates(title_id) for title_id in titles}
    base = _next_game_id()
    for lo in range(1, per_title + 1, step):
        hi = min(per_title, lo + step - 1)
        for t, title_id in enumerate(titles):
            ladder, versions = made[title_id]
            copies = Copies(base + t * per_title, lo, hi, per_title)
            _replicate(ladder, versions, templates[title_id], copies, start)
        if between is not None:
            between()
    for title_id in titles:
        say(f"{title_id}: {per_title} games replicated from {len(templates[title_id])} played ones")
    ladders = {title_id: ladder.pk for title_id, (ladder, _) in made.items()}
    _finish_ratings(list(ladders.values()))
    added = Game.objects.filter(tournament_id__in=ladders.values()).count()
    return {"ladders": ladders, "games": added}


@dataclasses.dataclass(frozen=True)
class Copies:
    """The copies ``lo`` to ``hi`` (from 1) of a title's ``n``; the i-th has the game id
    ``base + i``."""

    base: int
    lo: int
    hi: int
    n: int


def _next_game_id() -> int:
    """The highest game id so far (the copies' ids follow it)."""
    from django.db import connection

    from arena.games.models import Game
    from arena.sql import build

    with connection.cursor() as cursor:
        cursor.execute(build("SELECT COALESCE(MAX({game.id}), 0) FROM {game}", game=Game))
        return cursor.fetchone()[0]


def _ladder(title_id: str):
    """The title's history ladder (running, standing) and its versions, bot by bot, each
    bot's in number order; the newest of each bot active on it, the others replaced."""
    from django.contrib.auth import get_user_model

    import engine
    from arena.bots.models import Bot, BotVersion
    from arena.tournaments import services
    from arena.tournaments.models import Challenge, Entrant, Tournament

    owner, _ = get_user_model().objects.get_or_create(username="history-bench")
    names = engine.bots(title_id, thinking=False)
    versions = []
    for b in range(BOTS):
        bot = Bot.objects.create(owner=owner, title=title_id, name=f"history-{title_id}-{b}")
        versions += BotVersion.objects.bulk_create(
            BotVersion(
                bot=bot,
                number=n + 1,
                kind=BotVersion.Kind.BUILTIN,
                builtin_name=names[(b + n) % len(names)],
                status=BotVersion.Status.READY,
            )  # fmt: skip
            for n in range(VERSIONS)
        )
    newest = versions[VERSIONS - 1 :: VERSIONS]
    ladder = services.create_tournament(
        organiser=owner, name=f"History ladder {title_id}", title=title_id, seats=SEATS,
        entrants=newest, standing=True, seed=1,
    )  # fmt: skip
    Tournament.objects.filter(pk=ladder.pk).update(status=Tournament.Status.RUNNING)
    # Challenges asked over the history (their games are not among the copies).
    Challenge.objects.bulk_create(
        Challenge(tournament=ladder, requester=owner, bot_version=newest[i % BOTS], game_count=4)
        for i in range(CHALLENGES)
    )
    Entrant.objects.bulk_create(
        Entrant(tournament=ladder, bot_version=v, status=Entrant.Status.REPLACED)
        for v in versions
        if v not in newest
    )
    return ladder, [v.pk for v in versions]


def _templates(title_id: str) -> list[int]:
    """Ids of finished games of the title played for real in a small round robin."""
    from django.contrib.auth import get_user_model

    import engine
    from arena.bots import services as bots
    from arena.bots.models import Bot
    from arena.games.models import Game
    from arena.tournaments import services
    from arena.tournaments.history import play_tournament

    owner, _ = get_user_model().objects.get_or_create(username="history-bench")
    names = engine.bots(title_id, thinking=False)
    entrants = [
        bots.add_builtin_version(
            bot=Bot.objects.create(owner=owner, title=title_id, name=f"template-{title_id}-{i}"),
            builtin_name=names[i % len(names)],
        )
        for i in range(SEATS)
    ]
    tournament = services.create_tournament(
        organiser=owner, name=f"History templates {title_id}", title=title_id, seats=SEATS,
        entrants=entrants, rounds=TEMPLATE_ROUNDS, seed=5,
    )  # fmt: skip
    play_tournament(tournament.pk)
    return list(
        Game.objects.filter(tournament=tournament, status=Game.Status.FINISHED)
        .order_by("id")
        .values_list("id", flat=True)
    )


def _replicate(ladder, versions: list[int], templates: list[int], copies: Copies, start) -> None:
    """Make these copies of the template games on the ladder (see the module's docstring);
    the first chunk adds the ladder's ratings and title ratings too."""
    from django.db import connection

    from arena.bots.models import BotVersion
    from arena.games.models import AnalyticsFact, AnalyticsPending, AnalyticsSeat, Game, GameSeat
    from arena.ratings.models import Rating, RatingChange, TitleRating, TitleRatingChange
    from arena.sql import build
    from arena.tournaments.models import Tournament

    names = {
        "game": Game, "tournament": Tournament, "seat": GameSeat, "aseat": AnalyticsSeat, "fact": AnalyticsFact,
        "pending": AnalyticsPending, "rating": Rating, "change": RatingChange,
        "title_rating": TitleRating, "title_change": TitleRatingChange, "version": BotVersion,
    }  # fmt: skip
    params = {
        "versions": versions, "templates": templates, "n": copies.n, "ladder": ladder.pk,
        "lo": copies.lo, "hi": copies.hi, "base": copies.base,
        "start": start, "step": STEP, "bots": BOTS, "per_bot": VERSIONS, "seats": SEATS,
        "newest": versions[VERSIONS - 1 :: VERSIONS],
    }  # fmt: skip
    with connection.cursor() as cursor:

        def run(template: str, **more) -> None:
            cursor.execute(build(template, **names, **more), params)

        # The copies: the i-th copies the (i mod templates)-th template game.
        run("DROP TABLE IF EXISTS history_copy; DROP TABLE IF EXISTS history_seat")
        run("""
            CREATE TEMP TABLE history_copy AS
            SELECT i, (%(templates)s::bigint[])[1 + mod(i, cardinality(%(templates)s::bigint[]))]
                       AS template,
                   %(base)s + i AS game_id,
                   %(start)s::timestamptz + i * %(step)s * interval '1 second' AS finished_at
            FROM generate_series(%(lo)s, %(hi)s) i""")
        # Their seats: four different bots, each at its version of the history's quarter;
        # the rating after the game: σ shrinking with the version's games so far, μ going
        # from 25 towards the bot's level.
        run("""
            CREATE TEMP TABLE history_seat AS
            SELECT c.*, s.{seat.seat} AS seat, x.bot, x.quarter,
                   (%(versions)s::bigint[])[1 + x.bot * %(per_bot)s + x.quarter] AS version,
                   GREATEST(0.9, 8.333 / SQRT(1.0 + 0.08 * (c.i - x.quarter * %(n)s / %(per_bot)s)
                                                     * %(seats)s / %(bots)s)) AS sigma
            FROM history_copy c JOIN {seat} s ON s.{seat.game} = c.template
            CROSS JOIN LATERAL (SELECT mod(c.i * 7 + s.{seat.seat} * 13, %(bots)s) AS bot,
                                       (c.i - 1) * %(per_bot)s / %(n)s AS quarter) x""")
        run("ALTER TABLE history_seat ADD COLUMN mu float")
        run("UPDATE history_seat SET mu = 25.0 + (mod(bot * 37, 21) - 10) * (1.0 - sigma / 8.333)")
        finished = "c.finished_at"
        # The records are copied as the store kept them, without what the row says (the
        # seed, copied with them, the versions, title and rule options: the ladder's must
        # be the templates' for the copies to read whole as the templates do).
        run("""
            SELECT COUNT(*) FROM {game} t JOIN history_copy c ON c.template = t.{game.id}
            JOIN {tournament} l ON l.{tournament.id} = %(ladder)s
            JOIN {tournament} o ON o.{tournament.id} = t.{game.tournament}
            WHERE COALESCE(t.{game.options}, o.{tournament.options})
                  IS DISTINCT FROM l.{tournament.options} OR o.{tournament.title} <> l.{tournament.title}""")
        if cursor.fetchone()[0]:
            raise RuntimeError("the ladder's rule options are not its template games'")
        _copy(cursor, Game, {
            "id": "c.game_id", "tournament_id": "%(ladder)s", "number": "c.i",
            "status": "'" + Game.Status.FINISHED + "'", "rated": "true",
            "queued_at": f"{finished} - interval '2 seconds'",
            "started_at": f"{finished} - interval '1 second'", "finished_at": finished,
            "lease_until": "NULL",
        }, build("FROM history_copy c JOIN {game} t ON t.{game.id} = c.template"
                 " ORDER BY c.game_id", **names), params)  # fmt: skip
        on_seat = "ON t.{0} = c.template AND t.{1} = c.seat"
        # Rows in the order the store writes them, a game's after the one before: in the
        # join's order, the games' and seats' keys went into their indexes out of order and
        # left their pages two-thirds full (61-66 %, against 90 % in order), which a store
        # that writes one game at a time never does.
        in_order = " ORDER BY c.game_id, c.seat"
        _copy(cursor, GameSeat, {
            "id": None, "game_id": "c.game_id", "bot_version_id": "c.version",
        }, build("FROM history_seat c JOIN {seat} t " + on_seat.format("{seat.game}", "{seat.seat}")
                 + in_order, **names), params)  # fmt: skip
        _copy(cursor, AnalyticsSeat, {
            "id": None, "game_id": "c.game_id", "tournament_id": "%(ladder)s",
            "bot_version_id": "c.version", "finished_at": finished,
        }, build("FROM history_seat c JOIN {aseat} t " + on_seat.format("{aseat.game}", "{aseat.seat}")
                 + in_order, **names), params)  # fmt: skip
        _copy(cursor, AnalyticsFact, {"id": None, "game_id": "c.game_id"},
              build("FROM history_copy c JOIN {fact} t ON t.{fact.game} = c.template"
                    " ORDER BY c.game_id", **names),
              params)  # fmt: skip
        run("INSERT INTO {pending} ({pending.game_id}) SELECT game_id FROM history_copy")
        if copies.lo == 1:  # the ladder's ratings, made once
            run("""
                INSERT INTO {rating} ({rating.tournament}, {rating.bot_version}, {rating.mu},
                    {rating.sigma}, {rating.ordinal}, {rating.games}, {rating.wins},
                    {rating.faulted_games}, {rating.score_total})
                SELECT %(ladder)s, v, 25.0, 8.333, 0.0, 0, 0, 0, 0
                FROM unnest(%(versions)s::bigint[]) v""")
            run("""
                INSERT INTO {title_rating} ({title_rating.bot}, {title_rating.players},
                    {title_rating.bot_version}, {title_rating.mu}, {title_rating.sigma},
                    {title_rating.ordinal}, {title_rating.games}, {title_rating.wins},
                    {title_rating.faulted_games})
                SELECT v.{version.bot}, %(seats)s, v.{version.id}, 25.0, 8.333, 0.0, 0, 0, 0
                FROM {version} v WHERE v.{version.id} = ANY(%(newest)s::bigint[])""")
        run("""
            INSERT INTO {change} ({change.rating}, {change.game}, {change.mu}, {change.sigma},
                {change.ordinal})
            SELECT r.{rating.id}, c.game_id, c.mu, c.sigma, c.mu - 3 * c.sigma
            FROM history_seat c JOIN {rating} r ON r.{rating.tournament} = %(ladder)s
                 AND r.{rating.bot_version} = c.version
            ORDER BY c.game_id, c.seat""")
        run("""
            INSERT INTO {title_change} ({title_change.title_rating}, {title_change.game},
                {title_change.mu}, {title_change.sigma}, {title_change.at})
            SELECT r.{title_rating.id}, c.game_id, c.mu, c.sigma, c.finished_at
            FROM history_seat c JOIN {version} v ON v.{version.id} = c.version
            JOIN {title_rating} r ON r.{title_rating.bot} = v.{version.bot}
                 AND r.{title_rating.players} = %(seats)s
            ORDER BY c.game_id, c.seat""")
        run("DROP TABLE history_copy; DROP TABLE history_seat")
        # Ids given explicitly: the games' identity goes on after them.
        run(
            "SELECT setval(pg_get_serial_sequence('{game}', '{game.id}'), "
            "(SELECT MAX({game.id}) FROM {game}))"
        )


def _copy(cursor, model, replaced: dict, source: str, params: dict) -> None:
    """``INSERT INTO model's table`` every concrete column but those ``replaced`` maps to
    None (their defaults), each from ``t.<column>`` of ``source`` or the expression
    ``replaced`` gives."""
    from django.db import connection

    quote = connection.ops.quote_name
    columns = [f.column for f in model._meta.concrete_fields if replaced.get(f.column, 1)]
    values = [replaced.get(c) or f"t.{quote(c)}" for c in columns]
    cursor.execute(
        f"INSERT INTO {model._meta.db_table} ({', '.join(quote(c) for c in columns)}) "
        f"SELECT {', '.join(values)} {source}",
        params,
    )


def _finish_ratings(ladders: list[int]) -> None:
    """Each rating and title rating at its last change, with its games and wins."""
    from django.db import connection

    from arena.games.models import GameSeat
    from arena.ratings.models import Rating, RatingChange, TitleRating, TitleRatingChange
    from arena.sql import build

    names = {"rating": Rating, "change": RatingChange, "seat": GameSeat,
             "title_rating": TitleRating, "title_change": TitleRatingChange}  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(build("""
            UPDATE {rating} r SET {rating.mu} = x.mu, {rating.sigma} = x.sigma,
                {rating.ordinal} = x.ordinal, {rating.games} = x.games, {rating.wins} = x.wins
            FROM (SELECT DISTINCT ON (c.{change.rating}) c.{change.rating} AS rating,
                         c.{change.mu} AS mu, c.{change.sigma} AS sigma,
                         c.{change.ordinal} AS ordinal,
                         COUNT(*) OVER w AS games,
                         SUM(CASE WHEN s.{seat.winner} THEN 1 ELSE 0 END) OVER w AS wins
                  FROM {change} c
                  JOIN {rating} q ON q.{rating.id} = c.{change.rating}
                  JOIN {seat} s ON s.{seat.game} = c.{change.game}
                       AND s.{seat.bot_version} = q.{rating.bot_version}
                  WHERE q.{rating.tournament} = ANY(%s)
                  WINDOW w AS (PARTITION BY c.{change.rating})
                  ORDER BY c.{change.rating}, c.{change.id} DESC) x
            WHERE r.{rating.id} = x.rating""", **names), [ladders])  # fmt: skip
        cursor.execute(build("""
            UPDATE {title_rating} r SET {title_rating.mu} = x.mu,
                {title_rating.sigma} = x.sigma, {title_rating.ordinal} = x.ordinal,
                {title_rating.games} = x.games
            FROM (SELECT DISTINCT ON (c.{title_change.title_rating})
                         c.{title_change.title_rating} AS rating, c.{title_change.mu} AS mu,
                         c.{title_change.sigma} AS sigma,
                         COALESCE(c.{title_change.ordinal},
                                  c.{title_change.mu} - 3 * c.{title_change.sigma}) AS ordinal,
                         COUNT(*) OVER (PARTITION BY c.{title_change.title_rating}) AS games
                  FROM {title_change} c
                  ORDER BY c.{title_change.title_rating}, c.{title_change.at} DESC,
                           c.{title_change.game} DESC) x
            WHERE r.{title_rating.id} = x.rating""", **names))  # fmt: skip
