"""Skill-adjusted effects: how much holding a Citadels character, or sitting at a seat of a
Praga crane configuration, changes the chance to win, compared within each bot version.

A raw win rate mixes a category's strength with the strength of whoever took it (a strong
bot may favour the Architect). Here every bot version at a player count is a stratum: its seat-games
with the category against its other seat-games of the selection. The Mantel-Haenszel common odds
ratio over those strata is the category's effect for a bot of fixed strength (the logistic
model logit P(win) = version effect + category effect, estimated without fitting one
coefficient per version); a version that always, or never, took the category tells nothing
and adds nothing. The effect is shown as a change in win rate at the selection's win rate
without the category, with its 95 % interval (docs/analytics.md)."""

from __future__ import annotations

from engine.core.stats import mantel_haenszel, rate_at_odds_ratio

from .queries import FACTS, GAME_FACTS, SEATS, Selection, _rows, where


def effect(strata: list[tuple[float, float, float, float]], base: float) -> dict:
    """The adjusted effect on the win rate (and its interval) at the win rate ``base``."""
    found = mantel_haenszel(strata)
    if found is None or not 0 < base < 1:
        return {"adjusted_effect": None, "adjusted_low": None, "adjusted_high": None}
    ratio, low, high = found
    return {
        "adjusted_effect": rate_at_odds_ratio(base, ratio) - base,
        "adjusted_low": rate_at_odds_ratio(base, low) - base,
        "adjusted_high": rate_at_odds_ratio(base, high) - base,
    }


def stratified(held: list[dict], versions: dict, key) -> dict:
    """Per category (``key`` of a held row): its effect over the versions' strata. ``held``
    rows carry bot_version_id, games and wins with the category; ``versions`` maps a version
    (and whatever else ``key`` keys its totals by) to its (games, wins) of the selection."""
    strata: dict = {}
    without: dict = {}
    for r in held:
        games, wins = r["games"], float(r["wins"] or 0)
        total_games, total_wins = versions[key(r, version=True)]
        rest_games, rest_wins = total_games - games, total_wins - wins
        strata.setdefault(key(r), []).append(
            (wins, games - wins, rest_wins, rest_games - rest_wins)
        )
        counted = without.setdefault(key(r), [0.0, 0.0])
        counted[0], counted[1] = counted[0] + rest_games, counted[1] + rest_wins
    return {
        k: effect(s, without[k][1] / without[k][0] if without[k][0] else 0.0)
        for k, s in strata.items()
    }


def character_effects(sel: Selection) -> dict[str, dict]:
    """Per character: its skill-adjusted effect on the win rate of the seat-games holding it."""
    clause, params = where(sel)
    held = _rows(
        f"""SELECT r.{FACTS.subject}, r.{FACTS.players}, r.{FACTS.bot_version_id},
                   CAST(SUM(r.{FACTS.subject_games}) AS BIGINT) AS games, SUM(r.{FACTS.subject_wins}) AS wins
            FROM {FACTS} r WHERE r.{FACTS.kind} = 'held' AND {clause}
            GROUP BY r.{FACTS.subject}, r.{FACTS.players}, r.{FACTS.bot_version_id}""",
        params,
    )

    def key(r, version=False):
        return (r["players"], r["bot_version_id"]) if version else r["subject"]

    return stratified(held, version_totals(clause, params), key)


def version_totals(clause: str, params: list) -> dict[tuple, tuple]:
    """Per player count and bot version: its seat-games and wins in the selection (a
    stratum: a win is likelier at three players than at five)."""
    return {
        (r["players"], r["bot_version_id"]): (r["games"], float(r["wins"] or 0))
        for r in _rows(
            f"""SELECT r.{SEATS.players}, r.{SEATS.bot_version_id}, CAST(SUM(r.{SEATS.games}) AS BIGINT) AS games,
                       SUM(r.{SEATS.wins}) AS wins
                FROM {SEATS} r WHERE {clause} GROUP BY r.{SEATS.players}, r.{SEATS.bot_version_id}""",
            params,
        )
    }


def configuration_effects(sel: Selection) -> dict[tuple, dict]:
    """Per crane configuration, player count and seat (from 0): the skill-adjusted effect of
    sitting there on the win rate, against the version's other seat-games at that count."""
    clause, params = where(sel)
    held = _rows(
        f"""SELECT r.{GAME_FACTS.subject}, r.{GAME_FACTS.players}, r.{GAME_FACTS.seat}, r.{GAME_FACTS.bot_version_id},
                   CAST(SUM(r.{GAME_FACTS.games}) AS BIGINT) AS games, SUM(r.{GAME_FACTS.wins}) AS wins
            FROM {GAME_FACTS} r WHERE r.{GAME_FACTS.kind} = 'configuration' AND {clause}
            GROUP BY r.{GAME_FACTS.subject}, r.{GAME_FACTS.players}, r.{GAME_FACTS.seat}, r.{GAME_FACTS.bot_version_id}""",
        params,
    )

    def key(r, version=False):
        if version:
            return (r["players"], r["bot_version_id"])
        return (r["subject"], r["players"], r["seat"])

    return stratified(held, version_totals(clause, params), key)
