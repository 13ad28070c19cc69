"""What the game viewer draws of a Praga position, per perspective (docs/viewer.md).

Built only from the State's public contract (``observation``, ``decision``, ``is_over``,
``result``) and the static component data. Praga hides nothing in front of the players but
the order of face-down stacks, which no observation contains, so the public view is an
observation with its seat-specific parts removed (``seat`` and ``you``, a copy of one entry
of ``all_players``); a seat's view is exactly its observation; the full view is the public
one. What differs is a decision's options: the three technologies drawn (``choose_tech``) and
the bridge tiles drawn (``bridge_iv``, ``bridge_v``) are seen only by the deciding seat, so
other perspectives see only the one chosen (it is then face up).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.view import decision_frame

from .geometry import ACTION_BOARD, ACTIONS, CityMap

RENDERER = Path(__file__).with_name("view.js")
DATA = Path(__file__).with_name("data")

SEAT_KEYS = ("seat", "you")
PRIVATE_DECISIONS = frozenset({"choose_tech", "bridge_iv", "bridge_v"})

ACTION_NAMES = {
    "mines": "Manage mines 管理矿场",
    "quarries": "Manage quarries 管理采石场",
    "upgrade": "Upgrade an action 升级一个行动",
    "wall": "Build a wall 建造城墙",
    "building": "Build a building 建造建筑",
    "road": "Build the King's Road 建造国王大道",
}
STRUCTURE_NAMES = {"hunger_wall": "Hunger Wall 饥饿之墙", "cathedral": "Cathedral 主教座堂"}
SEAL_NAMES = {
    "gold2": "2 gold",
    "stone2": "2 stone",
    "pair3": "3 points per pair",
    "vp6": "6 points",
    "vp4": "4 points",
}
DECISION_LABELS = {
    "turn": "plays the turn 回合",
    "mine": "manages a mine or quarry",
    "token": "takes a production token",
    "pick": "takes a hex tile",
    "orient_upgrade": "turns the upgrade tile",
    "orient_wall": "turns the wall tile",
    "orient_building": "turns the building tile",
    "wall_space": "places the wall",
    "building_space": "places the building",
    "square_reward": "takes a square reward 广场奖励",
    "bridge_iv": "keeps a bridge tile (IV)",
    "bridge_v": "chooses a bridge tile (V)",
    "plank": "chooses a plank of Charles Bridge 查理大桥",
    "choose_tech": "keeps a technology 技术",
    "choose_structure": "chooses Hunger Wall or Cathedral",
    "arrow_up": "crosses a tier or stays",
    "choose_action": "chooses any action",
    "choose_square": "chooses a square tile",
    "choose_track": "chooses a track",
    "choose_produce": "chooses what to produce",
    "road_choice": "King's Road: gold or stone",
    "keep_windows": "keeps two windows 窗户",
}


def view(state, perspective, chosen: dict | None = None) -> dict[str, Any]:
    """The frame of ``state`` for ``perspective`` ("public", a seat, or "all");
    ``chosen`` is the option the record applies next, marked where the perspective sees it."""
    seat = perspective if isinstance(perspective, int) else None
    observation = state.observation(seat if seat is not None else 0)
    if seat is None:
        observation = {k: v for k, v in observation.items() if k not in SEAT_KEYS}
    frame = {"table": observation, "decision": None, "result": None}
    if state.is_over():
        result = state.result()
        frame["result"] = {k: result[k] for k in ("scores", "ranks", "winners", "details")}
    else:
        frame["decision"] = _decision(state.decision(), perspective, chosen)
    return frame


def _decision(decision, perspective, chosen) -> dict[str, Any]:
    return decision_frame(
        decision,
        DECISION_LABELS.get(decision.kind, decision.kind.replace("_", " ")),
        decision.kind not in PRIVATE_DECISIONS or perspective in ("all", decision.seat),
        option_label,
        chosen,
    )


def _reward(reward: dict | None) -> str:
    if not reward:
        return ""
    return ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in reward.items())


def tile_name(tile: Any) -> str:
    """A hex tile as people read it: ``Upgrade tile U100 (quarries)``, ``Wall tile W201``."""
    if isinstance(tile, dict):
        kind = tile.get("type", "")
        extra = tile.get("action") or _reward(tile.get("reward"))
        name = f"{kind.capitalize()} tile {tile.get('id')}"
        return f"{name} ({extra})" if extra else name
    return f"tile {tile}"


def option_label(option: dict) -> str:
    """How a person reads an option: ``Take action tile 3``, ``Build a wall 建造城墙``."""
    kind = option.get("kind")
    get = option.get
    labels = {
        "take_tile": lambda: f"Take action tile {get('tile')} from the crane",
        "action": lambda: ACTION_NAMES.get(get("action"), str(get("action"))),
        "wheel_bonus": lambda: "Take the wheel bonus",
        "action_bonus": lambda: f"Upgrade bonus of {get('action')} ({get('tile')} tile)",
        "extra_action": lambda: (
            f"Buy an extra action: {ACTION_NAMES.get(get('action'), '')}"
            f" for {str(get('pay')).replace('_', ' + ')}"
        ),
        "use_tech": lambda: f"Use technology {get('tech')}",
        "refresh": lambda: (
            f"Refresh {get('row')} slots {'+'.join(map(str, get('slots') or []))} for {get('pay')}"
        ),
        "climb": lambda: f"Climb the {STRUCTURE_NAMES.get(get('structure'), '')}",
        "lateral": lambda: f"Move along the {STRUCTURE_NAMES.get(get('structure'), '')}",
        "road_effect": lambda: (
            f"King's Road section {get('section')}: {get('effect')} effect {get('choice')}"
        ),
        "claim_seal": lambda: f"Claim the seal 玺印 {SEAL_NAMES.get(get('seal'), get('seal'))}",
        "end_turn": lambda: "End the turn",
        "mine": lambda: "Advance the marker" if get("mode") == "advance" else "Produce",
        "token": lambda: f"Take production token {get('token')}",
        "pick": lambda: f"Take {tile_name(get('tile'))} ({get('row')} row, slot {get('slot')})",
        "orient": lambda: f"Turn it {60 * (get('rotation') or 0)}°",
        "space": lambda: (
            f"On hex {get('hex')}"
            + (f" (row {get('row')}, column {get('col')})" if "row" in option else "")
        ),
        "square_reward": lambda: f"Square reward {'upper' if get('choice') == 0 else 'lower'}",
        "bridge_tile": lambda: f"Bridge tile {get('tile')}",
        "plank": lambda: f"Plank {get('plank')}",
        "choose_tech": lambda: f"Technology {get('tech')}",
        "structure": lambda: STRUCTURE_NAMES.get(get("structure"), str(get("structure"))),
        "arrow_up": lambda: "Pay and cross the tier" if get("take") else "Stay",
        "tech_action": lambda: ACTION_NAMES.get(get("action"), str(get("action"))),
        "square": lambda: f"Square tile {get('square')}",
        "track": lambda: f"Track: {str(get('track')).replace('_', ' ')}",
        "produce": lambda: f"Produce on the {str(get('track')).replace('_', ' ')} track",
        "resource": lambda: f"Take {get('resource')}",
        "keep": lambda: f"Keep {get('gold')} gold and {get('silver')} silver windows",
    }
    label = labels.get(kind)
    return label() if label else json.dumps(option, ensure_ascii=False)


@cache
def _data(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def legend(title) -> dict[str, Any]:
    """Static facts the drawing needs once: the city map (axial hex coordinates and the kind
    code of each hex), the action board's hexes, the names of actions, structures, seals and
    technologies, and the crane's twelve positions."""
    city = CityMap(_data("city.json"))
    techs = {
        t["id"]: f"{t['id']}: level {t['level']}, {t['effect'].replace('_', ' ')}"
        + (f" ({t['icon']})" if t.get("icon") else "")
        for t in _data("techs.json")["techs"]
    }
    return {
        "city": [
            {"q": q, "r": r, "code": code, "row": row, "col": col}
            for (q, r), code, (row, col) in zip(
                city.board.coords, city.codes, city.rowcol, strict=True
            )
        ],
        "action_board": [{"q": q, "r": r} for q, r in ACTION_BOARD.board.coords],
        "actions": {a: ACTION_NAMES[a] for a in ACTIONS},
        "structures": STRUCTURE_NAMES,
        "seals": SEAL_NAMES,
        "techs": techs,
        "frame": [f.get("zone") for f in _data("crane.json")["frame"]],
        "tracks": {
            key: {"rows": board["base"]["rows"], "cols": board["base"]["cols"]}
            for key, board in _data("structures.json").items()
            if key in STRUCTURE_NAMES
        },
    }
