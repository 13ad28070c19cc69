"""The dashboards' queries: SQL aggregates over the analytics totals (arena.games.totals).

Each query takes a :class:`Selection` (the filters of a page) and returns plain rows (lists
of dicts), never model instances, so that figures and the API are built from the same
numbers and tests can recompute them by brute force. Every statement is one ``GROUP BY``
over a total table that PostgreSQL and SQLite both run; the games stored are folded into the
totals on the beat (arena.games.totals), never by a read. docs/analytics.md gives each
figure's definition.

A page's results are cached per selection (:func:`cached`); the key carries the number of
games folded, so a fold that adds any game (and so any game of the selection) makes the next
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
from arena.games import totals
from arena.games.models import (
    ALL_DAYS,
    AnalyticsFactTotal,
    AnalyticsGameFactTotal,
    AnalyticsSeatTotal,
)
from arena.sql import build, names

# The totals read, as models in f-strings: ``{SEATS}`` is the table, ``{SEATS.games}`` a
# column (arena.sql.names: every table and column is named from the models).
SEATS = names(AnalyticsSeatTotal)
FACTS = names(AnalyticsFactTotal)
GAME_FACTS = names(AnalyticsGameFactTotal)
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
    if not (text.isascii() and text.isdigit()):  # "²" is a digit int() cannot read
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


def where(
    sel: Selection, alias: str = "r", model=AnalyticsSeatTotal, every_day_rows: bool = True
) -> tuple[str, list]:
    """The WHERE conditions (without the keyword) that restrict the total rows ``alias``
    (of ``model``, whose columns they name: every total keeps the filters' columns under
    the same fields) to the selection, and their parameters. Without dates, the totals'
    rows of every day (``arena.games.models.ALL_DAYS``), unless ``every_day_rows`` is
    false (rows that are not totals: rating points). A rule option is a condition
    on the tournaments' options: a tournament's games share them (``create_tournament``
    writes them into every game)."""
    from arena.bots.models import BotVersion
    from arena.tournaments.models import Tournament

    names = {"r": model, "v": BotVersion}
    clauses, params = [build(f"{alias}.{{r.title}} = %s", **names)], [sel.title]
    for column, value in (
        ("tournament_id", sel.tournament),
        ("players", sel.players),
        ("bot_version_id", sel.bot_version),
    ):
        if value is not None:
            clauses.append(build(f"{alias}.{{r.{column}}} = %s", **names))
            params.append(value)
    if sel.bot is not None:
        clauses.append(build(
            f"{alias}.{{r.bot_version_id}} IN (SELECT {{v.id}} FROM {{v}} WHERE {{v.bot}} = %s)",
            **names,
        ))  # fmt: skip
        params.append(sel.bot)
    if sel.since is None and sel.until is None:
        if every_day_rows:
            clauses.append(build(f"{alias}.{{r.day}} = %s", **names))
            params.append(connection.ops.adapt_datefield_value(ALL_DAYS))
    else:
        # The rows of every day come before the first day (ALL_DAYS): left out.
        since = sel.since or ALL_DAYS + dt.timedelta(days=1)
        for bound, day in ((">=", since), ("<=", sel.until)):
            if day is not None:
                clauses.append(build(f"{alias}.{{r.day}} {bound} %s", **names))
                params.append(connection.ops.adapt_datefield_value(day))
    if sel.options:
        chosen = Tournament.objects.filter(
            **{f"options__{k}": _option_value(v) for k, v in sel.options}
        )
        sql, chosen_params = chosen.values("id").query.sql_with_params()
        # The ORM's SQL is added after build(): it is not a template.
        clauses.append(build(f"{alias}.{{r.tournament_id}} IN (", **names) + sql + ")")
        params.extend(chosen_params)
    return " AND ".join(clauses), params


def _rows(sql: str, params: list) -> list[dict]:
    """The rows of a query over the totals (folded on the beat: a read never writes)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        names = [c[0] for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


# -- seats ------------------------------------------------------------------------------


def games_in(sel: Selection) -> int:
    """How many stored games the selection holds: each game once, at seat 0, or at the
    first seat of the chosen version (bot) in it."""
    clause, params = where(sel)
    if sel.bot_version is not None:
        counted = f"r.{SEATS.version_games}"
    elif sel.bot is not None:
        counted = f"r.{SEATS.bot_games}"
    else:
        counted, clause = f"r.{SEATS.games}", f"r.{SEATS.seat} = 0 AND {clause}"
    return _rows(
        f"SELECT CAST(COALESCE(SUM({counted}), 0) AS BIGINT) AS n FROM {SEATS} r WHERE {clause}",
        params,
    )[0]["n"]


def seat_results(sel: Selection) -> list[dict]:
    """Per player count and seat: seat-games, wins (a shared win 1/k), average score and
    faulted seat-games."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT r.{SEATS.players}, r.{SEATS.seat}, CAST(SUM(r.{SEATS.games}) AS BIGINT) AS games, SUM(r.{SEATS.wins}) AS wins,
                   SUM(r.{SEATS.score_total}) * 1.0 / NULLIF(SUM(r.{SEATS.scored}), 0) AS average_score,
                   CAST(SUM(r.{SEATS.faulted}) AS BIGINT) AS faulted
            FROM {SEATS} r WHERE {clause}
            GROUP BY r.{SEATS.players}, r.{SEATS.seat} ORDER BY r.{SEATS.players}, r.{SEATS.seat}""",
        params,
    )


def seating(sel: Selection) -> list[dict]:
    """Per player count, bot version and seat: how often that version sat there."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT r.{SEATS.players}, r.{SEATS.bot_version_id}, r.{SEATS.seat}, CAST(SUM(r.{SEATS.games}) AS BIGINT) AS games
            FROM {SEATS} r WHERE {clause}
            GROUP BY r.{SEATS.players}, r.{SEATS.bot_version_id}, r.{SEATS.seat}
            ORDER BY r.{SEATS.players}, r.{SEATS.bot_version_id}, r.{SEATS.seat}""",
        params,
    )


# -- facts ------------------------------------------------------------------------------


def fact_summary(sel: Selection, kind: str) -> list[dict]:
    """Per subject, the facts of ``kind`` at the selection's seats: how many, the sum and
    the average of their values."""
    return fact_summaries(sel, (kind,))[kind]


def fact_summaries(sel: Selection, kinds: tuple[str, ...]) -> dict[str, list[dict]]:
    """:func:`fact_summary` of several kinds in one statement, by kind."""
    clause, params = where(sel)
    marks = ", ".join(["%s"] * len(kinds))
    found: dict[str, list[dict]] = {kind: [] for kind in kinds}
    for row in _rows(
        f"""SELECT r.{FACTS.kind}, r.{FACTS.subject}, CAST(SUM(r.{FACTS.facts}) AS BIGINT) AS facts, CAST(SUM(r.{FACTS.total}) AS BIGINT) AS total,
                   SUM(r.{FACTS.total}) * 1.0 / CAST(SUM(r.{FACTS.facts}) AS BIGINT) AS average
            FROM {FACTS} r WHERE r.{FACTS.kind} IN ({marks}) AND {clause}
            GROUP BY r.{FACTS.kind}, r.{FACTS.subject} ORDER BY r.{FACTS.kind}, r.{FACTS.subject}""",
        [*kinds, *params],
    ):
        found[row.pop("kind")].append(row)
    return found


def fact_outcomes(sel: Selection, kind: str, by_seat: bool = False) -> list[dict]:
    """Per subject (and seat): the seat-games with at least one fact of ``kind`` about it,
    and their wins (a shared win 1/k): "games in which it was held"."""
    clause, params = where(sel)
    seat = f", r.{FACTS.seat}" if by_seat else ""
    return _rows(
        f"""SELECT r.{FACTS.subject}{seat}, CAST(SUM(r.{FACTS.subject_games}) AS BIGINT) AS games, SUM(r.{FACTS.subject_wins}) AS wins
            FROM {FACTS} r WHERE r.{FACTS.kind} = %s AND {clause}
            GROUP BY r.{FACTS.subject}{seat} ORDER BY r.{FACTS.subject}{seat}""",
        [kind, *params],
    )


def score_by_source(sel: Selection) -> list[dict]:
    """Per score source: seat-games and average points, for winners and for the rest."""
    clause, params = where(sel)
    found = []
    for r in _rows(
        f"""SELECT r.{FACTS.subject} AS source, CAST(SUM(r.{FACTS.facts}) AS BIGINT) AS facts, CAST(SUM(r.{FACTS.total}) AS BIGINT) AS total,
                   CAST(SUM(r.{FACTS.winner_facts}) AS BIGINT) AS winner_facts, CAST(SUM(r.{FACTS.winner_total}) AS BIGINT) AS winner_total
            FROM {FACTS} r WHERE r.{FACTS.kind} = 'score' AND {clause}
            GROUP BY r.{FACTS.subject} ORDER BY r.{FACTS.subject}""",
        params,
    ):
        rest = (r["facts"] - r["winner_facts"], r["total"] - r["winner_total"])
        for winner, (games, total) in enumerate((rest, (r["winner_facts"], r["winner_total"]))):
            if games:
                found.append(
                    {"source": r["source"], "winner": winner, "games": games,
                     "average": total / games}
                )  # fmt: skip
    return found


def game_fact_seats(sel: Selection, kind: str) -> list[dict]:
    """Per subject of a whole-game fact (a crane configuration), player count and seat:
    seat-games, wins and average score."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT r.{GAME_FACTS.subject}, r.{GAME_FACTS.players}, r.{GAME_FACTS.seat}, CAST(SUM(r.{GAME_FACTS.games}) AS BIGINT) AS games, SUM(r.{GAME_FACTS.wins}) AS wins,
                   SUM(r.{GAME_FACTS.score} * r.{GAME_FACTS.games}) * 1.0
                       / NULLIF(SUM(CASE WHEN r.{GAME_FACTS.score} IS NULL THEN 0 ELSE r.{GAME_FACTS.games} END), 0)
                       AS average_score
            FROM {GAME_FACTS} r WHERE r.{GAME_FACTS.kind} = %s AND {clause}
            GROUP BY r.{GAME_FACTS.subject}, r.{GAME_FACTS.players}, r.{GAME_FACTS.seat} ORDER BY r.{GAME_FACTS.subject}, r.{GAME_FACTS.players}, r.{GAME_FACTS.seat}""",
        [kind, *params],
    )


def game_fact_scores(sel: Selection, kind: str, width: int = 10) -> list[dict]:
    """Per subject of a whole-game fact: the selection's scores in bins of ``width``."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT r.{GAME_FACTS.subject}, (r.{GAME_FACTS.score} / %s) * %s AS low, CAST(SUM(r.{GAME_FACTS.games}) AS BIGINT) AS seats
            FROM {GAME_FACTS} r
            WHERE r.{GAME_FACTS.kind} = %s AND r.{GAME_FACTS.score} IS NOT NULL AND {clause}
            GROUP BY r.{GAME_FACTS.subject}, (r.{GAME_FACTS.score} / %s) * %s ORDER BY r.{GAME_FACTS.subject}, low""",
        [width, width, kind, *params, width, width],
    )


def fact_details(sel: Selection, kind: str) -> list[dict]:
    """Per subject and detail of ``kind`` (an action tile and the crane zone it was taken
    from): how many, and the average value."""
    clause, params = where(sel)
    return _rows(
        f"""SELECT r.{FACTS.subject}, r.{FACTS.detail}, CAST(SUM(r.{FACTS.facts}) AS BIGINT) AS facts,
                   SUM(r.{FACTS.total}) * 1.0 / CAST(SUM(r.{FACTS.facts}) AS BIGINT) AS average
            FROM {FACTS} r WHERE r.{FACTS.kind} = %s AND {clause}
            GROUP BY r.{FACTS.subject}, r.{FACTS.detail} ORDER BY r.{FACTS.subject}, r.{FACTS.detail}""",
        [kind, *params],
    )


# -- caching ----------------------------------------------------------------------------


def totals_version() -> int:
    """How many games were folded: changes whenever the totals do."""
    return totals.folded_games()


def cached(name: str, sel: Selection, compute: Callable[[Selection], dict]) -> dict:
    """``compute(sel)``, cached per page name and selection until a fold adds games."""
    key = f"dashboards:{name}:{sel.key()}:{totals_version()}"
    found = cache.get(key)
    if found is None:
        found = compute(sel)
        cache.set(key, found, CACHE_SECONDS)
    return found
