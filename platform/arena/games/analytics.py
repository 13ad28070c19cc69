"""Per-title analytics rows, read generically from the engine result's details and stats.

The titles put what the dashboards need into ``result["details"][seat]`` and
``result["stats"]``; these readers accept the shapes the titles use and store nothing (rather
than fail) when a title does not report a figure, so a game is never lost over analytics.
"""

from __future__ import annotations

import json
from typing import Any

from .models import CitadelsCharacterHeld, Game, PragaCraneConfiguration


def store_analytics(game: Game, result: dict[str, Any], title: str) -> None:
    if title == "citadels":
        _store_characters(game, result)
    elif title == "praga":
        _store_crane_configuration(game, result)


def characters_by_round(result: dict[str, Any]) -> list[tuple[int, int, str]]:
    """(seat, round, character) triples; a seat holding two characters in a round gives two."""
    rows: list[tuple[int, int, str]] = []
    for seat, details in enumerate(result.get("details") or []):
        held = (details or {}).get("characters") or (details or {}).get("characters_by_round")
        for rnd, chars in enumerate(held or [], start=1):
            if isinstance(chars, dict):
                rnd = int(chars.get("round", rnd))
                chars = chars.get("characters", chars.get("character"))
            for name in chars if isinstance(chars, list) else [chars]:
                if name:
                    rows.append((seat, rnd, str(name)))
    return rows


def _store_characters(game: Game, result: dict[str, Any]) -> None:
    winners = set(result.get("winners") or [])
    CitadelsCharacterHeld.objects.bulk_create(
        CitadelsCharacterHeld(game=game, seat=seat, round=rnd, character=name, won=seat in winners)
        for seat, rnd, name in characters_by_round(result)
    )


def crane_configuration(result: dict[str, Any]) -> tuple[str, dict] | None:
    stats = result.get("stats") or {}
    for key in ("crane_configuration", "cranes", "crane"):
        if key in stats:
            value = stats[key]
            if isinstance(value, str):
                return value, {"value": value}
            if isinstance(value, dict) and "label" in value:
                return str(value["label"]), value
            return json.dumps(value, sort_keys=True, separators=(",", ":"))[:200], {"value": value}
    return None


def _store_crane_configuration(game: Game, result: dict[str, Any]) -> None:
    found = crane_configuration(result)
    if found is not None:
        label, details = found
        PragaCraneConfiguration.objects.create(game=game, configuration=label, details=details)
