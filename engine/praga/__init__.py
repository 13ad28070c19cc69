"""Praga Caput Regni (Delicious Games, 2020) for 1-4 players, to the rules of seed 000.

Components come from ``engine/praga/data`` (each entry marked seed / public / reconstructed,
see docs/rules/praga-components.md); :class:`PragaTitle` can load any other data folder.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.contract import Title
from engine.core.errors import ConfigError
from engine.core.options import Option
from engine.core.registry import register

from .components import Components, default_components
from .state import PragaState

RULES_VERSION = "000-2"  # 000-2: level II obtainable, no cap reward, square rewards (issue 15)


class PragaTitle(Title):
    """The title: facts, named variants, and the component set its games use."""

    id = "praga"
    name = "Praga Caput Regni"
    rules_version = RULES_VERSION
    min_players = 1
    max_players = 4
    option_specs = (
        Option("crane_side", "side of the six action tiles (seed §调整游戏内容)", ("A", "B"), "A"),
        Option(
            "crane_order",
            "action tiles on the crane: the seed's first-game order or shuffled",
            ("first_game", "random"),
            "first_game",
        ),
        Option(
            "kings_road_tiles",
            "King's Road replacement tiles laid over the egg-free effects (IIa and IIb are the "
            "two faces of one section II tile)",
            ("I", "IIa", "IIb", "III"),
            (),
            is_list=True,
        ),
        Option(
            "hunger_wall_board",
            "Hunger Wall level tiles: printed board or alternative set A / B",
            ("base", "A", "B"),
            "base",
        ),
        Option(
            "cathedral_board",
            "Cathedral level tiles: printed board or alternative set A / B",
            ("base", "A", "B"),
            "base",
        ),
    )
    state_class = PragaState

    def __init__(self, data_dir: Path | str | None = None):
        self.components = default_components() if data_dir is None else Components(data_dir)

    def bot(self, name: str, seed: int = 0):
        """A built-in bot (``climber``, ``builder``, ``tuned``, ``search``) that reads this
        title's component set."""
        bots = _builtin_bots()
        if name not in bots:
            raise ConfigError(f"unknown bot {name!r}; built-in bots are {', '.join(sorted(bots))}")
        return bots[name](seed, self.components)

    def analytics(self, state):
        """Crane configuration, tiles taken by zone and score by source (see .analytics)."""
        from .analytics import facts

        return facts(state)

    def display_names(self) -> dict[str, str]:
        """Actions, structures and every component id of the shipped data (tiles, technologies,
        bridge tiles, production tokens, squares, seals): ``Build a wall 建造城墙`` (names.py)."""
        from . import names

        return {
            **names.ACTION_NAMES,
            **names.STRUCTURE_NAMES,
            **names.tiles(),
            **names.techs(),
            **names.bridge_tiles(),
            **names.tokens(),
            **names.squares(),
            **names.seals(),
        }

    def _check_options(self, players, options):
        if "IIa" in options["kings_road_tiles"] and "IIb" in options["kings_road_tiles"]:
            raise ConfigError(
                "kings_road_tiles: IIa and IIb are two faces of the same tile; choose one"
            )


PRAGA = PragaTitle()


def _builtin_bots() -> dict:
    """Each built-in bot's class by name: the rule-of-thumb bots and the search bot, which
    builds on one of them (loaded on first use: the rules alone need neither)."""
    from .bots import BOTS
    from .search import SearchBot

    return {**BOTS, "search": SearchBot}


def _bots() -> dict:
    return {name: _factory(name, make.thinks) for name, make in _builtin_bots().items()}


def _factory(name: str, thinks: bool):
    """A registry factory that makes the bot with this title's components, and says whether
    it spends a budget on each decision (``Bot.thinks``: quick games leave it out)."""

    def make(seed: int = 0):
        return PRAGA.bot(name, seed)

    make.thinks = thinks
    return make


register(PRAGA, _bots())
