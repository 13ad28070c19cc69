"""Per-title analytics rows, read generically from the engine result's details and stats.

The titles put what the dashboards need into ``result["details"][seat]`` and
``result["stats"]``; these readers accept the shapes the titles use and store nothing (rather
than fail) when a title does not report a figure, so a game is never lost over analytics.
"""

from __future__ import annotations

import json
from typing import Any

from arena.sql import insert_rows, to_json

from .models import CitadelsCharacterHeld, PragaCraneConfiguration


def store_analytics(
    cursor, game_id: int, result: dict[str, Any], title: str, options: dict
) -> None:
    """The title's analytics rows for a game being stored (one multi-row INSERT, raw SQL on
    the worker's path: see ``arena.sql``)."""
    if title == "citadels":
        _store_characters(cursor, game_id, result)
    elif title == "praga":
        _store_crane_configuration(cursor, game_id, result, options)


def characters_by_round(result: dict[str, Any]) -> list[tuple[int, int, str]]:
    """(seat, round, character) triples, rounds from 1; a seat holding two characters in a
    round (2-3 players) gives two. Read from ``stats["characters_by_round"]`` (round, then
    seat, then the characters held) or, per seat, ``details[seat]["characters"]``."""
    rows: list[tuple[int, int, str]] = []
    by_round = (result.get("stats") or {}).get("characters_by_round")
    if isinstance(by_round, list):
        for rnd, seats in enumerate(by_round, start=1):
            for seat, held in enumerate(seats or []):
                rows.extend((seat, rnd, str(name)) for name in _names(held))
        return rows
    for seat, details in enumerate(result.get("details") or []):
        for rnd, held in enumerate((details or {}).get("characters") or [], start=1):
            rows.extend((seat, rnd, str(name)) for name in _names(held))
    return rows


def _names(held: Any) -> list:
    if isinstance(held, list):
        return [h for h in held if h]
    return [held] if held else []


def _store_characters(cursor, game_id: int, result: dict[str, Any]) -> None:
    winners = set(result.get("winners") or [])
    rows = [
        (game_id, seat, rnd, name, seat in winners)
        for seat, rnd, name in characters_by_round(result)
    ]
    insert_rows(
        cursor, CitadelsCharacterHeld, ["game_id", "seat", "round", "character", "won"], rows
    )


def crane_configuration(result: dict[str, Any], options: dict[str, Any]) -> tuple[str, dict]:
    """A label such as ``crane_order=first_game, crane_side=A`` and its parts: every ``crane*``
    figure the game reports in its stats, else the ``crane*`` rule options it was played with."""
    stats = result.get("stats") or {}
    parts = {k: v for k, v in sorted(stats.items()) if k.startswith("crane")}
    if not parts:
        parts = {k: v for k, v in sorted(options.items()) if k.startswith("crane")}
    label = ", ".join(
        f"{k}={v if isinstance(v, str | int) else json.dumps(v, separators=(',', ':'))}"
        for k, v in parts.items()
    )
    return label[:200], parts


def _store_crane_configuration(cursor, game_id: int, result: dict[str, Any], options) -> None:
    label, parts = crane_configuration(result, options or {})
    if label:
        insert_rows(
            cursor,
            PragaCraneConfiguration,
            ["game_id", "configuration", "details"],
            [(game_id, label, to_json(parts))],
            # A second delivery writes it again before learning the game was stored (and
            # rolls back): the one row per game must not make that an error.
            " ON CONFLICT (game_id) DO UPDATE SET configuration = excluded.configuration,"
            " details = excluded.details",
        )
