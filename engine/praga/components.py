"""Praga component data: loaded once from a data folder, indexed by integer ids.

The rules never ask where a value came from (``source`` marks are for people); any folder with
the same file layout replaces the reconstructed data without code changes.
"""

from __future__ import annotations

import json
from pathlib import Path

from .geometry import ACTIONS, ActionBoard, CityMap
from .validation import check
from .vocabulary import CAP

DATA_DIR = Path(__file__).parent / "data"
TILE_TYPES = ("upgrade", "wall", "building")
BOARD_KEYS = ("hunger_wall", "cathedral")


class Tile:
    """One hex tile (upgrade, wall or building) as printed."""

    __slots__ = (
        "index",
        "id",
        "type",
        "period",
        "special",
        "action",
        "action_bonus",
        "cost",
        "reward",
        "edges",
        "corners",
        "hunger_wall",
        "cathedral",
        "cube",
        "crown",
        "cost_total",
        "public",
    )

    def __init__(self, index: int, raw: dict):
        self.index = index
        self.id = raw["id"]
        self.type = TILE_TYPES.index(raw["type"])
        self.period = raw["period"]
        self.special = raw["special"]
        self.action = ACTIONS.index(raw["action"]) if "action" in raw else -1
        self.action_bonus = raw.get("action_bonus", {})
        self.cost = raw.get("cost", {})
        self.reward = raw.get("reward", {})
        # seed §相邻奖励: a cap (学士帽) on an edge is a reminder, not an adjacency reward
        self.edges = [None if icon == CAP else icon for icon in raw["edges"]]
        self.corners = raw["corners"]
        self.hunger_wall = raw.get("hunger_wall", False)
        self.cathedral = raw.get("cathedral", False)
        self.cube = raw.get("cube", False)
        self.crown = raw.get("crown", False)
        self.cost_total = self.cost.get("gold", 0) + self.cost.get("stone", 0)
        self.public = {k: v for k, v in raw.items() if k != "source"}


class Structure:
    """The Hunger Wall or the Cathedral level board (one variant)."""

    __slots__ = ("rows", "cols", "tiers", "row_points", "column_multipliers", "cells", "name")

    def __init__(self, raw: dict):
        self.name = raw["name"]
        self.rows = raw["rows"]
        self.cols = raw["cols"]
        self.tiers = raw["tiers"]
        self.row_points = raw["row_points"]
        self.column_multipliers = raw["column_multipliers"]
        self.cells = raw["cells"]


def _load(folder: Path, name: str) -> dict:
    path = folder / name
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"Praga data file missing: {path}") from None


class Components:
    """Every static fact of the game, from one data folder."""

    def __init__(self, folder: Path | str = DATA_DIR):
        folder = Path(folder)
        self.folder = folder
        self.crane = _load(folder, "crane.json")
        self.wheel_slots = self.crane["wheel_slots"]
        self.past_blue_points = self.crane["past_blue_token_points"]
        raw_tiles = _load(folder, "tiles.json")["tiles"]
        self.tiles = [Tile(i, t) for i, t in enumerate(raw_tiles)]
        self.tile_index = {t.id: t.index for t in self.tiles}
        # stacks[type][period][special] -> tile indices in data order
        self.stacks = {
            (t, p, s): [x.index for x in self.tiles if (x.type, x.period, x.special) == (t, p, s)]
            for t in range(3)
            for p in (1, 2)
            for s in (False, True)
        }
        structures = _load(folder, "structures.json")
        self.crossing_costs = {int(k): v for k, v in structures["crossing_costs"].items()}
        self.structures = {
            key: {name: Structure(raw) for name, raw in structures[key].items()}
            for key in BOARD_KEYS
        }
        self.board = _load(folder, "player_board.json")
        self.gold_track = self._track(self.board["gold_track"])
        self.quarry_track = self._track(self.board["quarry_track"])
        self.tech_top = self.board["tech_track"]["top"]
        self.tech_books = {int(k): v for k, v in self.board["tech_track"]["books"].items()}
        self.univ_top = self.board["university"]["top"]
        self.univ_multipliers = self.board["university"]["multipliers"]
        self.wealth = self.board["wealth"]
        self.cap = self.board["resource_cap"]
        self.action_board = ActionBoard(self.board["action_board"])
        self.city = CityMap(_load(folder, "city.json"))
        misc = _load(folder, "misc.json")
        self.production_tokens = misc["production_tokens"]["tokens"]
        self.seals = misc["seals"]
        self.squares = misc["squares"]["tiles"]
        self.supply = misc["supply"]
        self.egg_scores = {int(k): v for k, v in misc["egg_scores"].items() if k.isdigit()}
        self.wall_scores = {int(k): v for k, v in misc["wall_scores"].items() if k.isdigit()}
        bridge = _load(folder, "bridge.json")
        self.bridge_iv = bridge["iv"]
        self.bridge_v = bridge["v"]
        self.planks = bridge["planks"]
        self.road = _load(folder, "road.json")
        self.techs = _load(folder, "techs.json")["techs"]
        self.tech_index = {t["id"]: i for i, t in enumerate(self.techs)}
        self._check()
        check(self)

    @staticmethod
    def _track(raw: dict) -> dict:
        cells = {int(k): v for k, v in raw["cells"].items()}
        return {"start": raw["start"], "end": max(cells), "cells": cells}

    def _check(self) -> None:
        """Counts the seed gives (§组件); a data set that breaks them is refused."""
        for t in range(3):
            for p in (1, 2):
                normal, special = len(self.stacks[(t, p, False)]), len(self.stacks[(t, p, True)])
                want = (11, 4) if t == 0 else (14, 4)
                if (normal, special) != want:
                    raise ValueError(
                        f"{TILE_TYPES[t]} tiles of period {p}: {normal}+{special}, the seed "
                        f"says {want[0]}+{want[1]}"
                    )
        if len(self.techs) != 24:
            raise ValueError(f"{len(self.techs)} technologies; the seed has 24")
        if len(self.bridge_iv) + len(self.bridge_v) != 12:
            raise ValueError("the seed has 12 bridge tiles")
        if len(self.squares) != 11:
            raise ValueError("the seed has 11 square tiles")
        if sum(t["count"] for t in self.production_tokens) != 8:
            raise ValueError("the seed has 8 production tokens")
        if len(self.seals) != 5:
            raise ValueError("the seed has 5 seals")
        if len(self.planks) != 5:
            raise ValueError("the bridge takes 5 planks (seed §查理大桥)")


_DEFAULT: Components | None = None


def default_components() -> Components:
    """The components shipped in ``engine/praga/data`` (loaded once)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Components()
    return _DEFAULT
