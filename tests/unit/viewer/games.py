"""Finished games of both titles played by the built-in bots, shared by the viewer tests."""

from functools import cache

import engine

CITADELS_BOTS = ["builder", "aggressor", "random", "builder", "random", "aggressor", "random"]
PRAGA_BOTS = ["climber", "builder", "random", "random"]
DARK_CITY = {
    "dark_city_characters": ["witch", "tax_collector", "wizard", "emperor", "abbot",
                             "alchemist", "navigator", "diplomat"],
    "rank9": "artist",
}  # fmt: skip


@cache
def citadels_record(seed: int = 5, dark_city: bool = False) -> dict:
    state = engine.play_game("citadels", CITADELS_BOTS, seed, DARK_CITY if dark_city else None)
    return state.record()


@cache
def praga_record(seed: int = 5) -> dict:
    return engine.play_game("praga", PRAGA_BOTS, seed).record()


def states_of(record: dict):
    """(state, action) at each decision of ``record``, as the viewer steps through it."""
    from engine.core.view import states

    return states(record)
