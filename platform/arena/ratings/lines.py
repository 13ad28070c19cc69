"""A bot's rating after each of its rated games, new versions marked: the one reader of it,
for the bot page, a ladder's page and API, and the ratings dashboard.

A line is read from the rating points the totals' fold keeps (``arena.games.totals``: the
rating after a rating's first game, then after each run of up to ``RATING_BLOCK`` games
within a day) and the rating changes written since the last fold, each a point of one
game. The fold runs on the beat, so the changes past its mark are the last few seconds'
games: what a line costs follows the points it has, about one per ``RATING_BLOCK`` games,
not the games played, and no read writes. Given ``most``, the points are thinned in SQL
(every k-th of a bot's series from its first, its last, and each whose version differs
from the point before, where a marker goes), so the rest never reaches Python.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, RatingPoint
from arena.games.totals import FINISHED, FOLDED_MARK, utc_day
from arena.sql import build, placeholders
from arena.tournaments.models import Tournament

from .models import Rating, RatingChange

# A drawn line keeps at most about this many points (and every version change).
MOST_POINTS = 200

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


def _points(vendor: str, versions: str) -> str:
    """The points of the lines of ``versions`` (placeholders: the bots' versions, read
    first, so that the planner sees how few points they have and reads them from the
    versions' index; given as a sub-query, it read every point of the title at 60,000
    points) as rows of RatingPoint's columns: the folded ones and, after them, each rating
    change above the fold's mark (a parameter, read first too: as a sub-query, the planner
    could not tell how few changes lie above it and hashed every game) — one game each.
    Parameters: the versions, the mark, the versions."""
    return build(
        """
        SELECT p.{point.title} AS title, p.{point.players} AS players,
               p.{point.tournament_id} AS tournament_id, p.{point.day} AS day,
               p.{point.bot_version_id} AS bot_version_id, p.{point.rating_id} AS rating_id,
               p.{point.game_id} AS game_id, p.{point.finished_at} AS finished_at,
               p.{point.mu} AS mu, p.{point.sigma} AS sigma, p.{point.ordinal} AS ordinal,
               p.{point.games} AS games
        FROM {point} p
        WHERE p.{point.bot_version_id} IN ({versions})
        UNION ALL
        SELECT t.{tournament.title}, t.{tournament.seats}, r.{rating.tournament},
               {day}, r.{rating.bot_version}, c.{change.rating}, c.{change.game},
               g.{game.finished_at}, c.{change.mu}, c.{change.sigma}, c.{change.ordinal}, 1
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
    )


def _line(points: str, condition: str, kept: str, dated: bool) -> str:
    return build(
        """
        SELECT r.bot_id, b.{bot.name} AS bot, r.bot_version_id, r.version, """
        + ("r.finished_at, " if dated else "")
        + """r.tournament_id, r.game_id, r.mu, r.sigma, r.ordinal, r.games, r.game_index,
               CASE WHEN r.previous_version IS NULL OR r.previous_version <> r.bot_version_id
                    THEN 1 ELSE 0 END AS new_version
        FROM (
            SELECT v.{version.bot} AS bot_id, h.bot_version_id, v.{version.number} AS version,
                   h.tournament_id, h.game_id,
                   h.finished_at, h.mu, h.sigma, h.ordinal, h.games,
                   CAST(SUM(h.games) OVER series AS BIGINT) AS game_index,
                   ROW_NUMBER() OVER series AS point,
                   COUNT(*) OVER (PARTITION BY v.{version.bot}) AS n,
                   LAG(h.bot_version_id) OVER series AS previous_version
            FROM ("""
        + points
        + """) h
            JOIN {version} v ON v.{version.id} = h.bot_version_id
            WHERE """
        + condition
        + """
            WINDOW series AS (PARTITION BY v.{version.bot}
                              ORDER BY h.finished_at, h.game_id, h.rating_id
                              ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) r
        JOIN {bot} b ON b.{bot.id} = r.bot_id
        """
        + kept
        + """
        ORDER BY r.bot_id, r.game_index""",
        **NAMES,
    )


KEPT = """WHERE (r.point - 1) %% ((r.n + %s - 1) / %s) = 0 OR r.point = r.n
             OR r.previous_version IS NULL OR r.previous_version <> r.bot_version_id"""


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
    points, every version change kept; None keeps every point. ``dated=False`` leaves the
    points' finish out (:data:`DATED`), for the pages' charts, which draw points by game:
    read as timestamps (Django's loader of them runs in Python), the finish and the
    version's upload (which nothing read, and no point has now) cost three quarters of a
    line's Python time, the charts of a ladder's tournament page 8 ms (bench/history.py)."""
    if not bots:
        return []
    clause, params = condition or ("1 = 1", [])
    if tournament is not None:
        clause, params = f"({clause}) AND h.tournament_id = %s", [*params, tournament]
    kept, kept_params = ("", []) if most is None else (KEPT, [int(most), int(most)])
    versions = list(BotVersion.objects.filter(bot__in=bots).values_list("pk", flat=True))
    if not versions:
        return []
    sql = _line(_points(connection.vendor, placeholders(len(versions))), clause, kept, dated)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {FOLDED_MARK}")
        mark = cursor.fetchone()[0]
        cursor.execute(sql, [*versions, mark, *versions, *params, *kept_params])
        names = [c[0] for c in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    for row in rows:
        row["new_version"] = bool(row["new_version"])
    return rows
