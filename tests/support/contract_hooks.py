"""schemathesis hooks for the API contract: a generated tournament enters real bots.

No JSON Schema can say which ids are ready versions of a title, nor the title's seat range:
left to chance, a generated ``POST tournaments/`` is a 400 and the stateful phase reaches
``start``, ``pause``, ``resume`` and ``cancel`` with made-up ids (404). This hook gives each
positive case of that create real ready versions, a seat count of the title's, small rounds
and no rule options; the name, format, time control and seed stay generated. Negative cases
are left as generated (they must still be refused).

The suite registers it on its schema (tests/integration/api/test_schema_contract.py). For
``schemathesis run`` against a server, name the versions in the environment: another
player's, such as the house bots, since the run withdraws the token's own bots:

    ARENA_CONTRACT_ENTRANTS='{"title": "citadels", "seats": [2, 3], "versions": [1, 2, 3, 10]}' \\
    SCHEMATHESIS_HOOKS=tests.support.contract_hooks .venv/bin/schemathesis run ...
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import schemathesis
from schemathesis import GenerationMode

CREATE = "POST /api/v1/tournaments/"
# Rounds and ladder games kept small: a start creates every planned game.
MAX_ROUNDS = 2
MAX_LADDER_GAMES = 8


@dataclass(frozen=True)
class Entrants:
    """Ready versions of one title and the seat counts to play."""

    title: str
    seats: tuple[int, int]
    versions: tuple[int, ...]

    def __post_init__(self):
        low, high = self.seats
        if not 1 <= low <= high <= len(self.versions):
            raise ValueError(f"{self.seats} seats need at least {high} versions: {self}")

    def into(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with these entrants, the rest of it drawn from what was generated."""
        low, high = self.seats
        seats = low + body.get("seats", 0) % (high - low + 1)
        n = len(self.versions)
        count = seats + body.get("rounds", 0) % (n - seats + 1)
        shift = body.get("decision_ms", 0) % n
        entrants = list(self.versions[shift:] + self.versions[:shift])[:count]
        made = {k: v for k, v in body.items() if k != "options"}
        made.update(title=self.title, seats=seats, entrants=entrants)
        made["rounds"] = 1 + body.get("rounds", 0) % MAX_ROUNDS
        if made.get("format") == "ladder":
            made["ladder_games"] = 1 + body.get("ladder_games", 0) % MAX_LADDER_GAMES
        return made


def enter(entrants: Entrants, register=schemathesis.hook) -> None:
    """Register the hook on ``register`` (a schema's ``hook``, or every schema's)."""

    @register("map_case")
    def tournaments_enter_real_bots(ctx, case):
        meta = case.meta
        positive = meta is None or meta.generation.mode == GenerationMode.POSITIVE
        if ctx.operation.label == CREATE and positive and isinstance(case.body, dict):
            case.body = entrants.into(case.body)
        return case


def _from_environment() -> None:
    given = os.environ.get("ARENA_CONTRACT_ENTRANTS")
    if given:
        raw = json.loads(given)
        enter(Entrants(raw["title"], tuple(raw["seats"]), tuple(raw["versions"])))


_from_environment()
