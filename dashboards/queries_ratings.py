"""The Ratings and bots page's queries: SQL aggregates over the games, their seats and the
rating history (not the analytics facts, which dashboards/queries.py reads).

As in queries.py, each query takes a selection and returns plain rows (lists of dicts) that
PostgreSQL and SQLite both compute. Every filter is a condition on the page's totals' key
(tournament, title, players, day), folded from the stored games and the rating changes with
the analytics totals (arena.games.totals; :func:`totals`); a bot or bot-version filter
selects the games it sat in, which the seated totals key by each version seated. Inside
:func:`raw_rows` the queries read the raw rows instead, what the tests compare the totals
with: the games of the selection are one ORM sub-query (:func:`selected_games`) that every
such statement restricts itself to, and where the ratings come from is one function
(:func:`rating_history_source`). Both give the same rows, but for the rating line: a drawn
line is read by the one reader of rating lines (arena.ratings.lines), whose points are runs
of games (:data:`arena.games.totals.RATING_BLOCK`), not games. Every table and column is
named from the models (:func:`sql`). docs/analytics.md gives each figure's definition.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import EmptyResultSet
from django.db.models import Exists, F, OuterRef

from arena.bots.models import Bot, BotVersion
from arena.games.models import (
    Game,
    GameLengthTotal,
    GameSeat,
    GameSeatTotal,
    HeadToHeadTotal,
    LineupTotal,
    SeatedHeadToHeadTotal,
    SeatedLengthTotal,
    SeatedLineupTotal,
    SeatedSeatTotal,
)
from arena.ratings.lines import MOST_POINTS, rating_lines
from arena.ratings.models import Rating, RatingChange
from arena.sql import build

from .queries import Selection, SelectionError, _option_value, _rows, selection_from, where

# How many bots the rating history and the head-to-head matrix draw when none is chosen.
DEFAULT_BOTS = 6
HEAD_TO_HEAD_BOTS = 12
MOST_BOTS = 20  # a picker choice beyond this is refused: the figures would not be readable
# A drawn rating line keeps about this many points (and every version change), as the
# pages' do (``arena.ratings.lines.MOST_POINTS``).
HISTORY_POINTS = MOST_POINTS
# Score and game-length distributions aim at about this many bins.
BINS = 30
# The tables and columns read, named by their models' fields (``arena.sql.build``: no
# table or column name is written here); ``r`` is the totals' table a query reads.
NAMES = {
    "g": Game, "s": GameSeat, "v": BotVersion, "b": Bot, "u": get_user_model(),
    "rating": Rating, "change": RatingChange,
}  # fmt: skip


def sql(template: str, model=None) -> str:
    """``template`` built with :data:`NAMES` and ``model`` as ``r``."""
    return build(template, **NAMES, **({"r": model} if model is not None else {}))


@dataclass(frozen=True)
class RatingsSelection(Selection):
    """A Selection and the bots whose rating history is drawn (the page's bot picker)."""

    bots: tuple[int, ...] = field(default=())


def ratings_selection_from(params, title: str | None = None) -> RatingsSelection:
    """The page's selection: the filters of every page and ``bots`` (repeatable ids)."""
    base = selection_from(params, title)
    texts = params.getlist("bots") if hasattr(params, "getlist") else []
    bots = []
    for text in texts:
        text = text.strip()
        if not text:
            continue
        if not (text.isascii() and text.isdigit()) or int(text) > 2**63 - 1:
            raise SelectionError(f"bots: bot ids are whole numbers, not {text!r}")
        bots.append(int(text))
    if len(bots) > MOST_BOTS:  # counted as given, as the API's schema bounds the list
        raise SelectionError(f"bots: choose at most {MOST_BOTS} bots, not {len(bots)}")
    return RatingsSelection(**base.__dict__, bots=tuple(sorted(set(bots))))


def rating_history_source() -> tuple[str, list]:
    """Where the ratings come from: one row per rated seat-game with ``bot_version_id``,
    ``game_id``, ``mu``, ``sigma`` and ``ordinal`` (μ − 3σ) after that game. Today the
    per-tournament OpenSkill history of arena.ratings; repoint here for another rating."""
    return (
        sql("""SELECT r.{rating.bot_version} AS bot_version_id, c.{change.game} AS game_id,
                      c.{change.mu} AS mu, c.{change.sigma} AS sigma,
                      c.{change.ordinal} AS ordinal
               FROM {change} c JOIN {rating} r ON r.{rating.id} = c.{change.rating}"""),
        [],
    )


def rating_version() -> int:
    """Changes whenever a rating changes: a game can be rated after it was stored (ratings
    are applied in game order), so the page's cache key carries this beside the games."""
    return _rows(sql("SELECT MAX({change.id}) AS v FROM {change}"), [])[0]["v"] or 0


def selected_games(sel: Selection):
    """The finished games of the selection as a queryset: title, tournament, player count,
    rule options, finished date, and (bot / bot version) games in which it sat."""
    games = Game.objects.filter(status=Game.Status.FINISHED, tournament__title=sel.title)
    if sel.tournament is not None:
        games = games.filter(tournament_id=sel.tournament)
    if sel.players is not None:
        games = games.filter(tournament__seats=sel.players)
    if sel.since is not None:
        games = games.filter(finished_at__gte=_day_start(sel.since))
    if sel.until is not None:
        games = games.filter(finished_at__lt=_day_start(sel.until + dt.timedelta(days=1)))
    for name, value in sel.options:
        games = games.filter(**{f"tournament__options__{name}": _option_value(value)})
    seats = GameSeat.objects.filter(game=OuterRef("pk"))
    if sel.bot is not None:
        games = games.filter(Exists(seats.filter(bot_version__bot_id=sel.bot)))
    if sel.bot_version is not None:
        games = games.filter(Exists(seats.filter(bot_version_id=sel.bot_version)))
    return games


def from_totals(sel: Selection) -> bool:
    """Whether the selection's figures are read from the totals (not inside
    :func:`raw_rows`): every filter is a condition on their key (tournament, title, players,
    day; a bot or bot version seated, in the seated totals, :func:`totals`)."""
    return not _RAW.get()


def totals(sel: Selection, plain, seated) -> tuple:
    """The model of the totals the selection reads (``plain``, or ``seated`` with a bot or
    bot-version filter: the games it sat in, keyed by each version seated), and the WHERE
    conditions and parameters that restrict its rows ``r`` to the selection. A bot's games
    are its versions' rows of the bot's first seat in the game."""
    if sel.bot is None and sel.bot_version is None:
        return plain, *where(sel, model=plain)
    clause, params = where(dataclasses.replace(sel, bot=None, bot_version=None), model=seated)
    clauses = [clause]
    if sel.bot_version is not None:
        clauses.append(sql("r.{r.seated_version_id} = %s", seated))
        params.append(sel.bot_version)
    if sel.bot is not None:
        clauses.append(sql(
            "r.{r.seated_version_id} IN (SELECT {v.id} FROM {v} WHERE {v.bot} = %s)", seated
        ))  # fmt: skip
        params.append(sel.bot)
        if sel.bot_version is None:
            clauses.append(sql("r.{r.first_of_bot} = %s", seated))
            params.append(True)
    return seated, " AND ".join(clauses), params


_RAW: contextvars.ContextVar[bool] = contextvars.ContextVar("raw_rows", default=False)


@contextlib.contextmanager
def raw_rows():
    """Within it, every query reads the raw games, seats and rating changes, as a bot
    filter makes it do (the bench times both ways; the tests compare them)."""
    token = _RAW.set(True)
    try:
        yield
    finally:
        _RAW.reset(token)


def _day_start(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC)


def _games(sel: Selection) -> tuple[str, list]:
    """The selection's game ids as SQL for ``IN (…)``."""
    return _sql(selected_games(sel), ("id",))


def _sql(games, columns: tuple[str, ...]) -> tuple[str, list]:
    """The SQL of ``games.values(*columns)`` (whole numbers); a statement of no rows with those columns when
    Django knows the selection is empty without asking (a filter value no column can hold,
    such as a player count beyond the column's range)."""
    try:
        # Without the model's ordering: a sub-query for IN (…) sorted every selected game
        # by its tournament's creation and its number, for nothing (a fifth of the rating
        # history's time at 100,000 seats, bench/dashboards.py).
        sql, params = games.order_by().values(*columns).query.sql_with_params()
    except EmptyResultSet:
        return "SELECT " + ", ".join(
            f"CAST(NULL AS INTEGER) AS {c}" for c in columns
        ) + " WHERE 1 = 0", []
    return sql, list(params)


def _marks(values) -> str:
    return ", ".join(["%s"] * len(values))


# -- games and bots ---------------------------------------------------------------------


def games_in(sel: Selection) -> int:
    """How many finished games the selection holds. From the totals: each player count's
    seat-games over its seats (every game seats them all); the line-ups' totals hold as many
    rows as games on a ladder of many bots, the seats' as many as versions and scores."""
    if from_totals(sel):
        model, clause, params = totals(sel, GameSeatTotal, SeatedSeatTotal)
        return _rows(
            sql(
                """SELECT CAST(COALESCE(SUM(p.seats / p.players), 0) AS BIGINT) AS n
                   FROM (SELECT r.{r.players} AS players, SUM(r.{r.seats}) AS seats
                         FROM {r} r WHERE CLAUSE GROUP BY r.{r.players}) p""",
                model,
            ).replace("CLAUSE", clause),
            params,
        )[0]["n"]
    return selected_games(sel).count()


def seat_counts(sel: Selection) -> list[dict]:
    """The selection's seats in one scan, counted per player count, bot version, final
    score and seat status (with the version's bot, its name, owner and number), and their
    faults: what :func:`bot_games`, :func:`faults`, :func:`score_range` and
    :func:`score_bins` add up, so that the page reads the seats once instead of four times."""
    if from_totals(sel):
        model, clause, params = totals(sel, GameSeatTotal, SeatedSeatTotal)
        counted = sql(
            """SELECT r.{r.players} AS players, r.{r.bot_version_id} AS bot_version_id,
                                r.{r.score} AS score, r.{r.status} AS status,
                                CAST(SUM(r.{r.seats}) AS BIGINT) AS seats,
                                CAST(SUM(r.{r.faults}) AS BIGINT) AS faults
                         FROM {r} r WHERE CLAUSE
                         GROUP BY r.{r.players}, r.{r.bot_version_id}, r.{r.score},
                                  r.{r.status}""",
            model,
        ).replace("CLAUSE", clause)
    else:
        games, params = _sql(
            selected_games(sel).annotate(players=F("tournament__seats")), ("id", "players")
        )
        counted = sql("""SELECT sg.players, s.{s.bot_version} AS bot_version_id,
                                s.{s.score} AS score, s.{s.status} AS status,
                                COUNT(*) AS seats, SUM(s.{s.fault_count}) AS faults
                         FROM {s} s JOIN (GAMES) sg ON sg.id = s.{s.game}
                         GROUP BY sg.players, s.{s.bot_version}, s.{s.score},
                                  s.{s.status}""").replace("GAMES", games)
    return _rows(
        sql("""SELECT c.players, c.bot_version_id, v.{v.bot} AS bot_id, b.{b.name} AS bot,
                      u.{u.username} AS owner, v.{v.number} AS version, c.score, c.status,
                      c.seats, c.faults
               FROM (COUNTED) c
               JOIN {v} v ON v.{v.id} = c.bot_version_id
               JOIN {b} b ON b.{b.id} = v.{v.bot}
               JOIN {u} u ON u.{u.id} = b.{b.owner}""").replace("COUNTED", counted),
        params,
    )


def bot_games(seats: list[dict]) -> list[dict]:
    """Per bot: its name, owner and the seat-games it played, most first, from the
    selection's :func:`seat_counts`."""
    found: dict[int, dict] = {}
    for r in seats:
        bot = found.setdefault(
            r["bot_id"],
            {"bot_id": r["bot_id"], "bot": r["bot"], "owner": r["owner"], "seat_games": 0},
        )
        bot["seat_games"] += r["seats"]
    return sorted(found.values(), key=lambda r: (-r["seat_games"], r["bot_id"]))


# -- ratings ----------------------------------------------------------------------------


def rating_history(sel: Selection, bots: tuple[int, ...], most: int | None = None) -> list[dict]:
    """For each of ``bots``: its rating after each rated game of the selection, in the order
    the games finished (``game_index`` counts the bot's rated games from 1), with the
    version that played it and the tournament whose rating it is; ``games``: the rated
    games the point stands for (1: every game, read from the raw rows).

    Given ``most``, a drawn line: the bots' lines read by :func:`arena.ratings.lines.
    rating_lines` from the rating points (runs of games) within the selection's title,
    tournament, player count, options and days, each bot's thinned to about ``most``
    points with every version change kept. Without it, every rated game of the selection
    from the raw rating changes: what the tests compare the points with."""
    if not bots:
        return []
    if most is not None:
        # A drawn line is the bots' own ratings, read by the one reader of rating lines; a
        # bot (version) filter narrows the games the other figures count, not whose ratings
        # the bots have (a point stands for a run of games, not one the filter can select).
        keyed = dataclasses.replace(sel, bot=None, bot_version=None)
        return rating_lines(bots, condition=where(keyed, "h", every_day_rows=False), most=most)
    source, source_params = rating_history_source()
    games, games_params = _games(sel)
    points = sql(f"""SELECT h.bot_version_id, g.{{g.tournament}} AS tournament_id, h.game_id,
                            g.{{g.finished_at}} AS finished_at, h.mu, h.sigma, h.ordinal,
                            1 AS games, 0 AS rating
                     FROM (SOURCE) h JOIN {{g}} g ON g.{{g.id}} = h.game_id
                     JOIN {{v}} v ON v.{{v.id}} = h.bot_version_id
                     WHERE v.{{v.bot}} IN ({_marks(bots)}) AND h.game_id IN (GAMES)""")
    points = points.replace("SOURCE", source).replace("GAMES", games)
    params = [*source_params, *bots, *games_params]
    # The bot's name is joined to the kept points only, not to the thousands of points a
    # bot's series holds at a million seats (the game's number, which nothing drew, was
    # dropped: looking it up for the kept points was 16 ms of 35 there).
    named = {"bot": sql("b.{b.name}")}
    selected = ", ".join(f"{named.get(c, f'r.{c}')} AS {c}" for c in HISTORY_COLUMNS)
    return _rows(
        sql(f"""SELECT {selected} FROM (
            SELECT v.{{v.bot}} AS bot_id, h.bot_version_id, v.{{v.number}} AS version,
                   h.tournament_id, h.game_id,
                   h.finished_at, h.mu, h.sigma, h.ordinal, h.games,
                   CAST(SUM(h.games) OVER series AS BIGINT) AS game_index,
                   ROW_NUMBER() OVER series AS point,
                   COUNT(*) OVER (PARTITION BY v.{{v.bot}}) AS n,
                   LAG(h.bot_version_id) OVER series AS previous_version
            FROM (POINTS) h
            JOIN {{v}} v ON v.{{v.id}} = h.bot_version_id
            WINDOW series AS (PARTITION BY v.{{v.bot}}
                              ORDER BY h.finished_at, h.game_id, h.rating
                              ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) r
            JOIN {{b}} b ON b.{{b.id}} = r.bot_id
            ORDER BY r.bot_id, r.game_index""").replace("POINTS", points),
        params,
    )


HISTORY_COLUMNS = (
    "bot_id", "bot", "bot_version_id", "version", "tournament_id", "game_id", "finished_at",
    "mu", "sigma", "ordinal", "games", "game_index",
)  # fmt: skip


def head_to_head(sel: Selection, bots: tuple[int, ...]) -> list[dict]:
    """For each ordered pair (A, B) of two different ``bots`` that sat at one table: the games
    they met in, the seat pairs (more than the games where a bot held two seats), how often A
    finished above B and level with B (by the game's ranks; 1 = best)."""
    if len(bots) < 2:
        return []
    marks = _marks(bots)
    if from_totals(sel):
        model, clause, params = totals(sel, HeadToHeadTotal, SeatedHeadToHeadTotal)
        return _rows(
            sql(
                f"""SELECT r.{{r.bot_a}} AS bot_a, r.{{r.bot_b}} AS bot_b,
                           CAST(SUM(r.{{r.games}}) AS BIGINT) AS games,
                           CAST(SUM(r.{{r.pairs}}) AS BIGINT) AS pairs,
                           CAST(SUM(r.{{r.above}}) AS BIGINT) AS above,
                           CAST(SUM(r.{{r.level}}) AS BIGINT) AS level
                    FROM {{r}} r
                    WHERE r.{{r.bot_a}} IN ({marks}) AND r.{{r.bot_b}} IN ({marks}) AND CLAUSE
                    GROUP BY r.{{r.bot_a}}, r.{{r.bot_b}}
                    ORDER BY r.{{r.bot_a}}, r.{{r.bot_b}}""",
                model,
            ).replace("CLAUSE", clause),
            [*bots, *bots, *params],
        )
    games, params = _games(sel)
    return _rows(
        sql(f"""SELECT va.{{v.bot}} AS bot_a, vb.{{v.bot}} AS bot_b,
                   COUNT(DISTINCT a.{{s.game}}) AS games, COUNT(*) AS pairs,
                   SUM(CASE WHEN a.{{s.rank}} < b.{{s.rank}} THEN 1 ELSE 0 END) AS above,
                   SUM(CASE WHEN a.{{s.rank}} = b.{{s.rank}} THEN 1 ELSE 0 END) AS level
            FROM {{s}} a
            JOIN {{s}} b ON b.{{s.game}} = a.{{s.game}} AND b.{{s.seat}} <> a.{{s.seat}}
            JOIN {{v}} va ON va.{{v.id}} = a.{{s.bot_version}}
            JOIN {{v}} vb ON vb.{{v.id}} = b.{{s.bot_version}}
            WHERE a.{{s.game}} IN (GAMES) AND va.{{v.bot}} IN ({marks})
              AND vb.{{v.bot}} IN ({marks}) AND va.{{v.bot}} <> vb.{{v.bot}}
              AND a.{{s.rank}} IS NOT NULL AND b.{{s.rank}} IS NOT NULL
            GROUP BY va.{{v.bot}}, vb.{{v.bot}}
            ORDER BY va.{{v.bot}}, vb.{{v.bot}}""").replace("GAMES", games),
        [*params, *bots, *bots],
    )


def games_met(sel: Selection, bots: tuple[int, ...]) -> int:
    """How many games of the selection seated at least two different ``bots``."""
    if len(bots) < 2:
        return 0
    if from_totals(sel):
        model, clause, params = totals(sel, LineupTotal, SeatedLineupTotal)
        seated = " + ".join(
            [sql("CASE WHEN r.{r.bots} LIKE %s THEN 1 ELSE 0 END", model)] * len(bots)
        )
        return _rows(
            sql("SELECT CAST(COALESCE(SUM(r.{r.games}), 0) AS BIGINT) AS n FROM {r} r ", model)
            + f"WHERE {seated} >= 2 AND {clause}",
            [*(f"%,{int(b)},%" for b in bots), *params],
        )[0]["n"]
    games, params = _games(sel)
    return _rows(
        sql(f"""SELECT COUNT(*) AS n FROM (
                SELECT s.{{s.game}} FROM {{s}} s
                JOIN {{v}} v ON v.{{v.id}} = s.{{s.bot_version}}
                WHERE s.{{s.game}} IN (GAMES) AND v.{{v.bot}} IN ({_marks(bots)})
                GROUP BY s.{{s.game}} HAVING COUNT(DISTINCT v.{{v.bot}}) >= 2) AS m""").replace(
            "GAMES", games
        ),
        [*params, *bots],
    )[0]["n"]


# -- distributions ------------------------------------------------------------------------


def score_range(seats: list[dict]) -> dict:
    """The lowest and highest final score (None when there is none), from the selection's
    :func:`seat_counts`."""
    return _span([r["score"] for r in seats if r["score"] is not None])


def score_bins(seats: list[dict], width: int) -> list[dict]:
    """Per player count: seats whose final score falls in each bin [low, low + width),
    from the selection's :func:`seat_counts`."""
    binned: dict[tuple[int, int], int] = {}
    for r in seats:
        if r["score"] is not None:
            key = (r["players"], _floor(r["score"], width))
            binned[key] = binned.get(key, 0) + r["seats"]
    return [{"players": p, "low": low, "seats": n} for (p, low), n in sorted(binned.items())]


def _span(values: list[int]) -> dict:
    return {"low": min(values), "high": max(values)} if values else {"low": None, "high": None}


def _floor(value: int, width: int) -> int:
    """The lower edge of ``value``'s bin of ``width`` (floored for negative values too)."""
    return value // int(width) * int(width)


def length_counts(sel: Selection) -> list[dict]:
    """The selection's games in one scan, counted per player count and length in actions
    (the record's seal, the same for every title, stored beside the record as
    ``Game.actions`` so that no record is read): games, and the number and sum of their
    match times in ms. What :func:`length_range` and :func:`length_bins` add up."""
    if from_totals(sel):
        model, clause, params = totals(sel, GameLengthTotal, SeatedLengthTotal)
        return _rows(
            sql(
                """SELECT r.{r.players} AS players, r.{r.actions} AS actions,
                          CAST(SUM(r.{r.games}) AS BIGINT) AS games,
                          CAST(SUM(r.{r.timed}) AS BIGINT) AS timed,
                          CAST(SUM(r.{r.match_ms}) AS BIGINT) AS match_ms
                   FROM {r} r WHERE CLAUSE
                   GROUP BY r.{r.players}, r.{r.actions}""",
                model,
            ).replace("CLAUSE", clause),
            params,
        )
    games, params = _sql(
        selected_games(sel).annotate(players=F("tournament__seats")),
        ("players", "actions", "match_ms"),
    )
    return _rows(
        f"""SELECT l.players, l.actions, COUNT(*) AS games, COUNT(l.match_ms) AS timed,
                   SUM(l.match_ms) AS match_ms
            FROM ({games}) l WHERE l.actions IS NOT NULL
            GROUP BY l.players, l.actions""",
        params,
    )


def length_range(lengths: list[dict]) -> dict:
    """The fewest and most actions a selected game took (None when none is recorded), from
    the selection's :func:`length_counts`."""
    return _span([r["actions"] for r in lengths])


def length_bins(lengths: list[dict], width: int) -> list[dict]:
    """Per player count: games whose length in actions falls in each bin, and their average
    match time in ms (None when none was timed); from the selection's :func:`length_counts`."""
    binned: dict[tuple[int, int], list[int]] = {}
    for r in lengths:
        bin_ = binned.setdefault((r["players"], _floor(r["actions"], width)), [0, 0, 0])
        bin_[0] += r["games"]
        bin_[1] += r["timed"]
        bin_[2] += int(r["match_ms"] or 0)
    return [
        {"players": p, "low": low, "games": n, "average_ms": total / timed if timed else None}
        for (p, low), (n, timed, total) in sorted(binned.items())
    ]


# -- faults -------------------------------------------------------------------------------


def faults(seats: list[dict]) -> list[dict]:
    """Per bot version: seat-games, those with a fault (faulted or disqualified) and those
    disqualified, and the faults counted; from the selection's :func:`seat_counts`."""
    found: dict[int, dict] = {}
    for r in seats:
        row = found.setdefault(
            r["bot_version_id"],
            {"bot_id": r["bot_id"], "bot": r["bot"], "bot_version_id": r["bot_version_id"],
             "version": r["version"], "seat_games": 0, "faulted": 0, "disqualified": 0,
             "faults": 0},
        )  # fmt: skip
        row["seat_games"] += r["seats"]
        row["faulted"] += r["seats"] if r["status"] != "ok" else 0
        row["disqualified"] += r["seats"] if r["status"] == "disqualified" else 0
        row["faults"] += int(r["faults"] or 0)
    return sorted(found.values(), key=lambda r: (r["bot"], r["version"]))
