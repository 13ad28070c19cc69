"""The Citadels title: facts, options and the state class."""

from engine.core.contract import Title

from . import components
from .options import OPTION_SPECS
from .state import CitadelsState


class Citadels(Title):
    """Citadels (富饒之城) with the Dark City characters and districts, 2 to 8 players."""

    id = "citadels"
    name = "Citadels"
    # Bumped whenever the same record can play out differently (rules or option defaults).
    rules_version = "2"
    min_players = 2
    max_players = 8
    option_specs = OPTION_SPECS
    state_class = CitadelsState

    def analytics(self, state):
        """Draft, characters' fates, districts and score by source (see .analytics)."""
        from .analytics import facts

        return facts(state)

    def display_names(self) -> dict[str, str]:
        """Characters and districts: ``King 國王``, ``Palace 宮殿`` (data/*.json)."""
        tables = (
            (components.CHARACTER_IDS, components.CHARACTER_NAMES, components.CHARACTER_ZH),
            (components.DISTRICT_IDS, components.DISTRICT_NAMES, components.DISTRICT_ZH),
        )
        return {
            i: f"{name} {zh}"
            for ids, names, zhs in tables
            for i, name, zh in zip(ids, names, zhs, strict=True)
        }


CITADELS = Citadels()
