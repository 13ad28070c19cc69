"""Names and indices the Praga rule modules share: the six actions, the display rows, the
King's Road sections, the two structures, how extra actions are paid."""

from __future__ import annotations

from .geometry import ACTIONS

MINES, QUARRIES, UPGRADE, WALL, BUILDING, ROAD = range(len(ACTIONS))
TILE_ACTION_TYPE = {UPGRADE: 0, WALL: 1, BUILDING: 2}  # action -> display row of its tiles
ROW_NAMES = ("upgrade", "wall", "building")
SECTIONS = ("", "I", "II", "III", "IV", "V")  # King's Road section number -> its numeral
STRUCTS = ("hunger_wall", "cathedral")
LATERAL_KEY = {"wall_left": 0, "cath_right": 1}  # reward icon -> structure moved along
WINDOW_PAYS = ("gold_gold", "gold_silver")  # seed §购买额外行动
END_TURN = {"kind": "end_turn"}
CAP = "cap"  # the university reminder printed on an upgrade's edge
