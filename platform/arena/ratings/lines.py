"""A bot's rating after each of its rated games, new versions marked: the one reader of it,
for the bot page, a ladder's page and API, and the ratings dashboard.

A line is read from the rating points the totals' fold keeps (``arena.games.totals``: the
rating after a rating's first game, then after each run of up to ``RATING_BLOCK`` games
within a day) and the rating changes written since the last fold, each a point of one
game. The fold runs on the beat, so the changes past its mark are the last few seconds'
games: what a line costs follows the points it has, about one per ``RATING_BLOCK`` games,
not the games played, and no read writes. Given ``most``, the points are read at the
coarsest level that still has about ``most`` of them (:func:`_levels`) and thinned in SQL
before the window that numbers a bot's games (:data:`THINNED`), so a drawn line reads at
most about four times the points it draws, however long the history.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, RatingPoint
from arena.games.totals import FINISHED, FOLDED_MARK, rating_run_sizes, utc_day
from arena.sql import build, placeholders
from arena.tournaments.models import Tournament

from .models import Rating, RatingChange

# A drawn line keeps about this many points (and each rating's first and last): one every 4
# to 11 pixels of the 350-1,100 the charts are wide, on a phone or a desktop. A line's
# points are most of what a rating chart costs once its bots have played thousands of
# games; 200 a line had the pages and dashboards that draw them 2-3.5 times slower at 1 M
# games than at 10 k (docs/performance.md). Every game's rating is in the API.
MOST_POINTS = 100

COLUMNS = (
    "bot_id", "bot", "bot_version_id", "version", "tournament_id", "game_id", "finished_at",
    "mu", "sigma", "ordinal", "games", "game_index", "new_version",
)  # fmt: skip
"""A point's fields: ``games`` is how many rated games it stands for (the run's last one is
``game_id``), ``game_index`` how many of the bot's rated games of the line it has reached,
``new_version`` whether its version differs from the point before (the first point's
included). Without ``dated``, a point has no ``finished_at`` (:data:`DATED`)."""
DATED = ("finished_at",)

NAMES = {
    "point": RatingPoint, "change": RatingChange, "rating": Rating, "game": Game,
    "tournament": Tournament, "version": BotVersion, "bot": Bot,
}  # fmt: skip


def _points(vendor: str, levels: list[int], versions: str) -> str:
    """The points of the lines (the folded ones at the level each bot's versions are read
    at: for each of ``levels``, how many versions are read at it) and, after them, each
    rating change of ``versions`` (placeholders) above the fold's mark (a parameter) — one
    game each — as rows of RatingPoint's columns. The bots' versions and the mark are read
    first, so that the planner sees how few points and changes they have: given as
    sub-queries, it read every point of the title at 60,000 points and hashed every game.
    Parameters: each level and its versions, the mark, the versions."""
    read = " OR ".join(
        build("(p.{point.level} = %s AND p.{point.bot_version_id} IN (", **NAMES)
        + placeholders(count)
        + "))"
        for count in levels
    )
    return build(
        """
        SELECT p.{point.title} AS title, p.{point.players} AS players,
               p.{point.tournament_id} AS tournament_id, p.{point.day} AS day,
               p.{point.bot_version_id} AS bot_version_id, p.{point.rating_id} AS rating_id,
               p.{point.game_id} AS game_id, p.{point.finished_at} AS finished_at,
               p.{point.mu} AS mu, p.{point.sigma} AS sigma, p.{point.ordinal} AS ordinal,
               p.{point.games} AS games, p.{point.rated} AS rated
        FROM {point} p
        WHERE READ
        UNION ALL
        SELECT t.{tournament.title}, t.{tournament.seats}, r.{rating.tournament},
               {day}, r.{rating.bot_version}, c.{change.rating}, c.{change.game},
               g.{game.finished_at}, c.{change.mu}, c.{change.sigma}, c.{change.ordinal}, 1, NULL
        FROM {change} c JOIN {rating} r ON r.{rating.id} = c.{change.rating}
        JOIN {tournament} t ON t.{tournament.id} = r.{rating.tournament}
        JOIN {game} g ON g.{game.id} = c.{change.game}
        WHERE c.{change.id} > %s AND g.{game.status} = {finished}
          AND g.{game.finished_at} IS NOT NULL
          AND r.{rating.bot_version} IN ({versions})""",
        day=utc_day(f"g.{Game._meta.get_field('finished_at').column}", vendor),
        finished=FINISHED,
        versions=versions,
        **NAMES,
    ).replace("READ", read)


def _levels(versions: dict[int, int], condition: str, params: list, most: int) -> dict:
    """The versions (``versions``: each one's bot) read at each level of rating points: a
    bot's at the coarsest level whose runs are no longer than its line's step (its games
    within ``condition`` over ``most``), so that its line reads at most about
    ``RATING_LEVEL_FACTOR`` times the points it draws. Its games are counted on the
    coarsest points (each level holds every folded game once): a few per rating."""
    sizes = rating_run_sizes()
    sql = build(
        """SELECT h.{point.bot_version_id}, CAST(SUM(h.{point.games}) AS BIGINT)
           FROM {point} h WHERE h.{point.level} = %s AND h.{point.bot_version_id} IN (""",
        **NAMES,
    )
    sql += placeholders(len(versions)) + f") AND ({condition}) "
    sql += build("GROUP BY h.{point.bot_version_id}", **NAMES)
    games: dict[int, int] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [len(sizes) - 1, *versions, *params])
        for version, counted in cursor.fetchall():
            games[versions[version]] = games.get(versions[version], 0) + counted
    levels: dict[int, list[int]] = {}
    for version, bot in versions.items():
        step = -(-games.get(bot, 0) // max(1, most))
        level = max((n for n, size in enumerate(sizes) if size <= step), default=0)
        levels.setdefault(level, []).append(version)
    return levels


def _line(points: str, condition: str, dated: bool, thinned: bool) -> str:
    """The points of the lines (``sel``: the points within ``condition``), the ones
    :data:`EVERY` or :data:`THINNED` keeps numbered by the window over each bot's series:
    each point stands for ``run`` games, and ``game_index`` counts them."""
    return build(
        """
        WITH sel AS (
            SELECT h.*, v.{version.bot} AS bot_id, v.{version.number} AS version
            FROM ("""
        + points
        + """) h
            JOIN {version} v ON v.{version.id} = h.bot_version_id
            WHERE """
        + condition
        + "), "
        + (THINNED if thinned else EVERY)
        + """
        SELECT r.bot_id, b.{bot.name} AS bot, r.bot_version_id, r.version, """
        + ("r.finished_at, " if dated else "")
        + """r.tournament_id, r.game_id, r.mu, r.sigma, r.ordinal, r.run AS games,
               r.game_index,
               CASE WHEN r.previous_version IS NULL OR r.previous_version <> r.bot_version_id
                    THEN 1 ELSE 0 END AS new_version
        FROM (
            SELECT k.*, CAST(SUM(k.run) OVER series AS BIGINT) AS game_index,
                   LAG(k.bot_version_id) OVER series AS previous_version
            FROM kept k
            WINDOW series AS (PARTITION BY k.bot_id
                              ORDER BY k.finished_at, k.game_id, k.rating_id
                              ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) r
        JOIN {bot} b ON b.{bot.id} = r.bot_id
        ORDER BY r.bot_id, r.game_index""",
        **NAMES,
    )


EVERY = "kept AS (SELECT s.*, s.games AS run FROM sel s)"
"""Every point, each standing for its own games."""

THINNED = """
        ranges AS (
            SELECT rating_id, MIN(rated - games) AS before_first, MAX(rated) AS last_rated
            FROM sel WHERE rated IS NOT NULL GROUP BY rating_id),
        steps AS (
            SELECT bot_id, (CAST(SUM(games) AS BIGINT) + %s - 1) / %s AS step
            FROM sel GROUP BY bot_id),
        kept AS (
            SELECT s.*,
                   CASE WHEN s.rated IS NULL THEN s.games
                        ELSE s.rated - COALESCE(LAG(s.rated) OVER (
                            PARTITION BY s.rating_id, s.rated IS NULL ORDER BY s.rated),
                            g.before_first) END AS run
            FROM sel s JOIN steps k ON k.bot_id = s.bot_id
            LEFT JOIN ranges g ON g.rating_id = s.rating_id
            WHERE s.rated IS NULL OR s.rated = g.last_rated
               OR s.rated - s.games = g.before_first
               OR s.rated / k.step > (s.rated - s.games) / k.step)"""
"""The lines thinned to about ``most`` points a bot (the statement's last two
parameters) before the window that numbers each bot's games: a bot's step is its selected
games over ``most``, and a point is kept where its rating's count of games (``rated``)
passes a multiple of the step, where its rating's selection starts or ends, or when it is a
change not folded yet. A kept point stands for its rating's games since the kept point
before it, so each bot's last point still counts all its games.

Windowing every point first and keeping every k-th after cost most of a line at a million
games (4,900 points windowed for six bots' 1,000 drawn, bench/history.py). The games are
numbered along each rating; where a bot's ratings overlap in time (versions on two
tournaments), a kept point may not yet count another rating's games that finished before
it."""


def rating_lines(
    bots: Sequence[int],
    *,
    tournament: int | None = None,
    condition: tuple[str, list] | None = None,
    most: int | None = MOST_POINTS,
    dated: bool = True,
) -> list[dict]:
    """For each of ``bots`` (ids): its rating after its rated games, in the order they
    finished, as dicts of :data:`COLUMNS` ordered by bot and ``game_index``. Only the
    ratings of ``tournament`` (a ladder's) if given; ``condition`` is SQL on ``h`` (the
    points: ``title``, ``players``, ``tournament_id``, ``day``, ``bot_version_id``) and its
    parameters, the dashboards' filters. ``most``: thin each bot's line to about that many
    points, each version's first and last kept (:data:`THINNED`); None keeps every point.
    ``dated=False`` leaves the points' finish out (:data:`DATED`), for the pages' charts,
    which draw points by game: read as timestamps (Django's loader of them runs in Python),
    the finish and the version's upload (which nothing read, and no point has now) cost
    three quarters of a line's Python time, the charts of a ladder's tournament page 8 ms
    (bench/history.py)."""
    if not bots:
        return []
    clause, params = condition or ("1 = 1", [])
    if tournament is not None:
        clause, params = f"({clause}) AND h.tournament_id = %s", [*params, tournament]
    versions = dict(BotVersion.objects.filter(bot__in=bots).values_list("pk", "bot_id"))
    if not versions:
        return []
    levels = {0: list(versions)} if most is None else _levels(versions, clause, params, most)
    points = _points(
        connection.vendor, [len(v) for v in levels.values()], placeholders(len(versions))
    )
    sql = _line(points, clause, dated, thinned=most is not None)
    kept_params = [] if most is None else [max(1, int(most))] * 2
    read = [value for level, chosen in levels.items() for value in (level, *chosen)]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {FOLDED_MARK}")
        mark = cursor.fetchone()[0]
        cursor.execute(sql, [*read, mark, *versions, *params, *kept_params])
        names = [c[0] for c in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    for row in rows:
        row["new_version"] = bool(row["new_version"])
    return rows
