"""The dashboards' queries: SQL aggregates over AnalyticsSeat and AnalyticsFact.

Each query takes a :class:`Selection` (the filters of a page) and returns plain rows (lists
of dicts), never model instances, so that figures and the API are built from the same
numbers and tests can recompute them by brute force. Every statement is one ``GROUP BY``
that PostgreSQL and SQLite both run. docs/analytics.md gives each figure's definition.

A page's results are cached per selection (:func:`cached`); the key carries the newest
stored seat row's id, so storing any game (and so any game of the selection) makes the next
read recompute.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from django.core.cache import cache
from django.db import connection

import engine

SEATS = "games_analyticsseat"
FACTS = "games_analyticsfact"
CACHE_SECONDS = 600


BIGGEST = 2**63 - 1  # ids and counts are stored in 64-bit columns


class SelectionError(ValueError):
    """A filter value a person must correct (the message says which and why)."""


@dataclass(frozen=True)
class Selection:
    """The games a figure rests on: one title and optional filters."""

    title: str
    tournament: int | None = None
    bot: int | None = None
    bot_version: int | None = None
    players: int | None = None
    options: tuple[tuple[str, str], ...] = field(default=())  # (name, JSON or plain text)
    since: dt.date | None = None
    until: dt.date | None = None  # inclusive

    def key(self) -> str:
        return hashlib.sha1(json.dumps(asdict(self), default=str).encode()).hexdigest()


def selection_from(params, title: str | None = None) -> Selection:
    """A Selection from query parameters (``title``, ``tournament``, ``bot``, ``bot_version``,
    ``players``, ``since``, ``until`` and ``option`` given as ``name=value``, repeatable);
    raises SelectionError naming the bad parameter."""
    title = title or params.get("title") or "citadels"
    if title not in engine.titles():
        raise SelectionError(f"title: unknown title {title!r}; one of {engine.titles()}")
    options = []
    for text in params.getlist("option") if hasattr(params, "getlist") else []:
        if not text.strip():  # an empty field of the form: no condition
            continue
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or "\x00" in text:
            raise SelectionError(f"option: write name=value, not {text!r}")
        if value.strip():  # "name=" is the form's "any value"
            options.append((name.strip(), value.strip()))
    return Selection(
        title=title,
        tournament=_whole(params, "tournament"),
        bot=_whole(params, "bot"),
        bot_version=_whole(params, "bot_version"),
        players=_whole(params, "players"),
        options=tuple(sorted(options)),
        since=_date(params, "since"),
        until=_date(params, "until"),
    )


def _whole(params, name: str) -> int | None:
    text = (params.get(name) or "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise SelectionError(f"{name}: a whole number, not {text!r}")
    if int(text) > BIGGEST:
        raise SelectionError(f"{name}: at most {BIGGEST}, not {text}")
    return int(text)


def _date(params, name: str) -> dt.date | None:
    text = (params.get(name) or "").strip()
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise SelectionError(f"{name}: a date written YYYY-MM-DD, not {text!r}") from None


def _option_value(text: str):
    """A rule option's value as the game stored it: JSON where it parses (8, ["I"]), else
    the text itself (A, first_game)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def where(sel: Selection, alias: str = "s") -> tuple[str, list]:
    """The WHERE conditions (without the keyword) that restrict AnalyticsSeat rows ``alias``
    to the selection, and their parameters."""
    from arena.games.models import Game

    clauses, params = [f"{alias}.title = %s"], [sel.title]
    for column, value in (
        ("tournament_id", sel.tournament),
        ("players", sel.players),
        ("bot_version_id", sel.bot_version),
    ):
        if value is not None:
            clauses.append(f"{alias}.{column} = %s")
            params.append(value)
    if sel.bot is not None:
        clauses.append(
            f"{alias}.bot_version_id IN (SELECT id FROM bots_botversion WHERE bot_id = %s)"
        )
        params.append(sel.bot)
    if sel.since is not None:
        clauses.append(f"{alias}.finished_at >= %s")
        params.append(_day_start(sel.since))
    if sel.until is not None:
        clauses.append(f"{alias}.finished_at < %s")
        params.append(_day_start(sel.until + dt.timedelta(days=1)))
    if sel.options:
        games = Game.objects.filter(**{f"options__{k}": _option_value(v) for k, v in sel.options})
        sql, game_params = games.values("id").query.sql_with_params()
        clauses.append(f"{alias}.game_id IN ({sql})")
        params.extend(game_params)
    return " AND ".join(clauses), params


def _day_start(day: dt.date):
    moment = dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC)
    return connection.ops.adapt_datetimefield_value(moment)


def _rows(sql: str, params: list) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        names = [c[0] for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


# -- seats ------------------------------------------------------------------------------


def games_in(sel: Selection) -> int:
    """How many stored games the selection holds."""
    clause, params = where(sel)
    if sel.bot is None and sel.bot_version is None:  # every game has one first seat
        sql = f"SELECT COUNT(*) AS n FROM {SEATS} s WHERE s.seat = 0 AND {clause}"
    else:
        sql = f"SELECT COUNT(DISTINCT s.game_id) AS n FROM {SEATS} s WHERE {clause}"
    return _rows(sql, params)[0]["n"]


def seat_results(sel: Selection) -> list[dict]:
    """Per player count and seat: seat-games, wins (a shared win 1/k), average score and
    faulted seat-games."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT s.players, s.seat, COUNT(*) AS games, SUM(s.win_share) AS wins,
                   AVG(s.score) AS average_score,
                   SUM(CASE WHEN s.faulted THEN 1 ELSE 0 END) AS faulted
            FROM {SEATS} s WHERE {clause}
            GROUP BY s.players, s.seat ORDER BY s.players, s.seat""",
        params,
    )


def seating(sel: Selection) -> list[dict]:
    """Per player count, bot version and seat: how often that version sat there."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT s.players, s.bot_version_id, s.seat, COUNT(*) AS games
            FROM {SEATS} s WHERE {clause}
            GROUP BY s.players, s.bot_version_id, s.seat
            ORDER BY s.players, s.bot_version_id, s.seat""",
        params,
    )


# -- facts ------------------------------------------------------------------------------


def fact_summary(sel: Selection, kind: str) -> list[dict]:
    """Per subject, the facts of ``kind`` at the selection's seats: how many, the sum and
    the average of their values."""
    return fact_summaries(sel, (kind,))[kind]


def fact_summaries(sel: Selection, kinds: tuple[str, ...]) -> dict[str, list[dict]]:
    """:func:`fact_summary` of several kinds in one pass over the facts, by kind."""
    clause, params = where(sel)
    marks = ", ".join(["%s"] * len(kinds))
    found: dict[str, list[dict]] = {kind: [] for kind in kinds}
    for row in _rows(
        f"""SELECT f.kind, f.subject, COUNT(*) AS facts, SUM(f.value) AS total,
                   AVG(f.value) AS average
            FROM {FACTS} f JOIN {SEATS} s ON s.game_id = f.game_id AND s.seat = f.seat
            WHERE f.kind IN ({marks}) AND {clause}
            GROUP BY f.kind, f.subject ORDER BY f.kind, f.subject""",
        [*kinds, *params],
    ):
        found[row.pop("kind")].append(row)
    return found


def fact_outcomes(sel: Selection, kind: str, by_seat: bool = False) -> list[dict]:
    """Per subject (and seat): the seat-games with at least one fact of ``kind`` about it,
    and their wins (a shared win 1/k): "games in which it was held". The facts are first
    grouped per seat-game on their own, then joined to the seats once per seat-game."""
    clause, params = where(sel)
    seat = ", s.seat" if by_seat else ""
    return _rows(
        f"""SELECT h.subject{seat}, COUNT(*) AS games, SUM(s.win_share) AS wins
            FROM (SELECT f.subject, f.game_id, f.seat FROM {FACTS} f WHERE f.kind = %s
                  GROUP BY f.subject, f.game_id, f.seat) AS h
            JOIN {SEATS} s ON s.game_id = h.game_id AND s.seat = h.seat
            WHERE {clause}
            GROUP BY h.subject{seat} ORDER BY h.subject{seat}""",
        [kind, *params],
    )


def score_by_source(sel: Selection) -> list[dict]:
    """Per score source: seat-games and average points, for winners and for the rest."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT f.subject AS source,
                   CASE WHEN s.win_share > 0 THEN 1 ELSE 0 END AS winner,
                   COUNT(*) AS games, AVG(f.value) AS average
            FROM {FACTS} f JOIN {SEATS} s ON s.game_id = f.game_id AND s.seat = f.seat
            WHERE f.kind = 'score' AND {clause}
            GROUP BY f.subject, CASE WHEN s.win_share > 0 THEN 1 ELSE 0 END
            ORDER BY f.subject, winner""",
        params,
    )


def game_fact_seats(sel: Selection, kind: str) -> list[dict]:
    """Per subject of a whole-game fact (a crane configuration), player count and seat:
    seat-games, wins and average score."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT f.subject, s.players, s.seat, COUNT(*) AS games, SUM(s.win_share) AS wins,
                   AVG(s.score) AS average_score
            FROM {FACTS} f JOIN {SEATS} s ON s.game_id = f.game_id
            WHERE f.kind = %s AND f.seat IS NULL AND {clause}
            GROUP BY f.subject, s.players, s.seat ORDER BY f.subject, s.players, s.seat""",
        [kind, *params],
    )


def game_fact_scores(sel: Selection, kind: str, width: int = 10) -> list[dict]:
    """Per subject of a whole-game fact: the selection's scores in bins of ``width``."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT f.subject, (s.score / %s) * %s AS low, COUNT(*) AS seats
            FROM {FACTS} f JOIN {SEATS} s ON s.game_id = f.game_id
            WHERE f.kind = %s AND f.seat IS NULL AND s.score IS NOT NULL AND {clause}
            GROUP BY f.subject, (s.score / %s) * %s ORDER BY f.subject, low""",
        [width, width, kind, *params, width, width],
    )


def fact_details(sel: Selection, kind: str) -> list[dict]:
    """Per subject and detail of ``kind`` (an action tile and the crane zone it was taken
    from): how many, and the average value."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT f.subject, f.detail, COUNT(*) AS facts, AVG(f.value) AS average
            FROM {FACTS} f JOIN {SEATS} s ON s.game_id = f.game_id AND s.seat = f.seat
            WHERE f.kind = %s AND {clause}
            GROUP BY f.subject, f.detail ORDER BY f.subject, f.detail""",
        [kind, *params],
    )


# -- caching ----------------------------------------------------------------------------


def stored_version() -> int:
    """The newest stored seat row's id: changes whenever a game is stored."""
    return _rows(f"SELECT MAX(id) AS v FROM {SEATS}", [])[0]["v"] or 0


def cached(name: str, sel: Selection, compute: Callable[[Selection], dict]) -> dict:
    """``compute(sel)``, cached per page name and selection until a game is stored."""
    key = f"dashboards:{name}:{sel.key()}:{stored_version()}"
    found = cache.get(key)
    if found is None:
        found = compute(sel)
        cache.set(key, found, CACHE_SECONDS)
    return found
