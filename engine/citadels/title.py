"""The Citadels title: facts, options and the state class."""

from engine.core.contract import Title

from .options import OPTION_SPECS
from .state import CitadelsState


class Citadels(Title):
    """Citadels (富饒之城) with the Dark City characters and districts, 2 to 8 players."""

    id = "citadels"
    name = "Citadels"
    rules_version = "1"
    min_players = 2
    max_players = 8
    option_specs = OPTION_SPECS
    state_class = CitadelsState


CITADELS = Citadels()
