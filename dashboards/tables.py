"""Each dashboard's numbers as named tables (plain lists of dicts), built from the queries
and the statistics module: what the figures draw, the pages list and the API exports."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import engine
from engine.core.stats import chi_square_homogeneity, wilson_interval

from . import adjusted, queries, queries_ratings, tables_ratings
from .pages import PAGES
from .queries import Selection

# Seating is called unbalanced when a bot version's seat counts differ by more than this
# share of their mean (and by more than one game) at some player count.
BALANCE_TOLERANCE = 0.1
# Citadels kinds that say something happened to the character a seat held.
SUFFERED = ("killed", "robbed", "bewitched", "taxed")


def _rate(wins: float, games: int) -> dict:
    low, high = wilson_interval(wins, games)
    return {
        "win_rate": wins / games if games else None,
        "win_rate_low": low if games else None,
        "win_rate_high": high if games else None,
    }


def _seat_outcome(r: dict) -> dict:
    """A seat's row of a seat query: seats numbered from 1, wins, win rate with its Wilson
    interval, the fair rate 1/players and the average score."""
    wins = float(r["wins"] or 0)
    return {
        "players": r["players"],
        "seat_number": r["seat"] + 1,  # people count seats from 1
        "games": r["games"],
        "wins": wins,
        **_rate(wins, r["games"]),
        "fair": 1 / r["players"],
        "average_score": _float(r["average_score"]),
    }


def seats(sel: Selection) -> dict:
    """Seat win rates with Wilson intervals, the fair line, the chi-square test per player
    count, average scores, and whether seating was balanced."""
    results = queries.seat_results(sel)
    rows = [{**_seat_outcome(r), "faulted": r["faulted"]} for r in results]
    tests = []
    for players in sorted({r["players"] for r in rows}):
        at = [r for r in rows if r["players"] == players]
        statistic, dof, p = chi_square_homogeneity(
            [r["wins"] for r in at], [r["games"] for r in at]
        )
        tests.append(
            {
                "players": players,
                "games": at[0]["games"],
                "chi_square": statistic,
                "dof": dof,
                "p_value": p,
            }  # fmt: skip
        )
    return {
        "games": queries.games_in(sel),
        "seats": rows,
        "seat_test": tests,
        "unbalanced": unbalanced(queries.seating(sel)),
    }


def unbalanced(seating: list[dict]) -> list[dict]:
    """Bot versions whose games at some player count did not put them at every seat about
    equally often (see BALANCE_TOLERANCE)."""
    counts: dict[tuple[int, int], dict[int, int]] = {}
    for r in seating:
        counts.setdefault((r["players"], r["bot_version_id"]), {})[r["seat"]] = r["games"]
    found = []
    for (players, version), by_seat in sorted(counts.items()):
        per_seat = [by_seat.get(seat, 0) for seat in range(players)]
        mean = sum(per_seat) / players
        spread = max(per_seat) - min(per_seat)
        if spread > max(1, BALANCE_TOLERANCE * mean):
            found.append({"players": players, "bot_version_id": version, "seat_games": per_seat})
    return found


@cache
def citadels_characters() -> list[dict]:
    """The characters of Citadels by rank, from the title's data: id, rank, set."""
    import engine.citadels

    data = Path(engine.citadels.__file__).with_name("data") / "characters.json"
    return [
        {"id": c["id"], "rank": c["rank"], "set": c["set"]}
        for c in json.loads(data.read_text())["characters"]
    ]


def characters(sel: Selection) -> dict:
    """Per Citadels character: pick rate when available, average pick position, win rate
    when held and its difference to the seat-games it was not held, points gained in the
    rounds held, how often it suffered each power; and the character x seat win rates."""
    names = engine.title(sel.title).display_names()
    seat_totals = queries.seat_results(sel)
    all_games = sum(r["games"] for r in seat_totals)
    all_wins = sum(float(r["wins"] or 0) for r in seat_totals)
    summaries = {
        kind: {r["subject"]: r for r in rows}
        for kind, rows in queries.fact_summaries(
            sel, ("held", "offered", "pick", "last_seen", *SUFFERED)
        ).items()
    }
    held, offered, picks = summaries["held"], summaries["offered"], summaries["pick"]
    suffered = {k: summaries[k] for k in SUFFERED}
    outcomes = {r["subject"]: r for r in queries.fact_outcomes(sel, "held")}
    effects = adjusted.character_effects(sel)
    rows = []
    for c in citadels_characters():
        name, rounds = c["id"], held.get(c["id"], {}).get("facts", 0)
        out = outcomes.get(name, {"games": 0, "wins": 0})
        games, wins = out["games"], float(out["wins"] or 0)
        rest_games, rest_wins = all_games - games, all_wins - wins
        rate = _rate(wins, games)
        rest = wins / games - rest_wins / rest_games if games and rest_games else None
        row = {
            "character": name,
            "name": names.get(name, name),
            "rank": c["rank"],
            "set": c["set"],
            "offered": offered.get(name, {}).get("facts", 0),
            "pick_rate": _ratio(
                offered.get(name, {}).get("total"), offered.get(name, {}).get("facts")
            ),
            "taken_at": _float(picks.get(name, {}).get("average")),
            "last_seen_at": _float(summaries["last_seen"].get(name, {}).get("average")),
            "rounds_held": rounds,
            "games_held": games,
            **rate,
            "improvement_when_held": rest,
            "points_per_round_held": _float(held.get(name, {}).get("average")),
            **(effects.get(name) or adjusted.effect([], 0)),
        }
        for kind in SUFFERED:
            row[f"{kind}_rate"] = _ratio(suffered[kind].get(name, {}).get("facts"), rounds)
        rows.append(row)
    by_seat = [
        {
            "character": r["subject"],
            "name": names.get(r["subject"], r["subject"]),
            "seat_number": r["seat"] + 1,  # people count seats from 1
            "games": r["games"],
            **_rate(float(r["wins"] or 0), r["games"]),
        }
        for r in queries.fact_outcomes(sel, "held", by_seat=True)
    ]
    return {
        "games": queries.games_in(sel),
        "characters": rows,
        "character_seats": by_seat,
        "score_sources": score_sources(sel),
    }


def cranes(sel: Selection) -> dict:
    """Per Praga crane configuration: win rate by seat, the score distribution; which crane
    zone each action tile is taken from; score by source for winners and the rest."""
    effects = adjusted.configuration_effects(sel)
    rows = [
        {
            "configuration": r["subject"],
            **_seat_outcome(r),
            **(effects.get((r["subject"], r["players"], r["seat"])) or adjusted.effect([], 0)),
        }
        for r in queries.game_fact_seats(sel, "configuration")
    ]
    scores = [
        {"configuration": r["subject"], "score_from": r["low"], "seats": r["seats"]}
        for r in queries.game_fact_scores(sel, "configuration")
    ]
    zones = [
        {
            "tile": r["subject"],
            "zone": r["detail"],
            "taken": r["facts"],
            "average_value": _float(r["average"]),
        }  # fmt: skip
        for r in queries.fact_details(sel, "take")
    ]
    return {
        "games": queries.games_in(sel),
        "configuration_seats": rows,
        "configuration_scores": scores,
        "zones": zones,
        "score_sources": score_sources(sel),
    }


def score_sources(sel: Selection) -> list[dict]:
    """Average points per score source, winners beside the rest."""
    return [
        {
            "source": r["source"],
            "group": "winners" if r["winner"] else "the rest",
            "seat_games": r["games"],
            "average": _float(r["average"]),
        }  # fmt: skip
        for r in queries.score_by_source(sel)
    ]


def _float(value) -> float | None:
    return None if value is None else float(value)


def _ratio(part, whole) -> float | None:
    return float(part or 0) / whole if whole else None


PAGE_TABLES = {
    "seats": seats,
    "characters": characters,
    "cranes": cranes,
    "ratings": tables_ratings.ratings,
}
# Pages whose numbers can change without a game being stored (a game rated later): their
# cache key also carries this.
CHANGED_BY = {"ratings": queries_ratings.rating_version}


def version(name: str) -> tuple:
    """What a page's numbers change with: the games folded and, for the ratings page, the
    ratings (the API's cached answers carry it in their key, ``dashboards.api``)."""
    changed = CHANGED_BY.get(name)
    return (queries.totals_version(), changed() if changed is not None else None)


def page(name: str, sel: Selection) -> dict:
    """A page's tables, cached until a game is stored (or rated, for the ratings page)."""
    changed = CHANGED_BY.get(name)
    key = name if changed is None else f"{name}:{changed()}"
    return queries.cached(key, sel, PAGE_TABLES[name])


def selection(name: str, params, title: str | None) -> Selection:
    """The selection a page's query parameters make (raises SelectionError)."""
    if PAGES[name].picks_bots:
        return queries_ratings.ratings_selection_from(params, title)
    return queries.selection_from(params, title)
