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

from . import names
from .geometry import ACTIONS, ActionBoard, CityMap

RENDERER = Path(__file__).with_name("view.js")
DATA = Path(__file__).with_name("data")

SEAT_KEYS = ("seat", "you")
PRIVATE_DECISIONS = frozenset({"choose_tech", "bridge_iv", "bridge_v"})

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
    "square_half": "takes half a square reward 广场奖励",
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
        frame["decision"] = _decision(state.decision(), perspective, chosen, observation)
    return frame


def _decision(decision, perspective, chosen, table) -> dict[str, Any]:
    return decision_frame(
        decision,
        DECISION_LABELS.get(decision.kind, decision.kind.replace("_", " ")),
        decision.kind not in PRIVATE_DECISIONS or perspective in ("all", decision.seat),
        lambda option: option_label(option, table),
        chosen,
    )


def _action_tile(option, table) -> str:
    for tile in (table or {}).get("crane", {}).get("tiles", []):
        if tile["tile"] == option.get("tile"):
            actions = " / ".join(names.ACTION_NAMES.get(a, a) for a in tile["actions"])
            cost = f", costs {names.amount('gold', tile['cost'])}" if tile.get("cost") else ""
            points = f", {names.amount('vp', tile['points'])}" if tile.get("points") else ""
            return f"Take the action tile 行动板块 {actions} ({tile['zone']} zone{cost}{points})"
    return "Take an action tile 行动板块 from the crane"


def _pick(option) -> str:
    tile = option.get("tile")
    name = names.tiles().get(tile, "a tile") if isinstance(tile, str) else names.tile_name(tile)
    row = names.ROW_NAMES.get(option.get("row"), "its row")
    return f"Take {name} from the {row}, slot {1 + (option.get('slot') or 0)}"


def _space(option) -> str:
    if "row" in option:
        return f"Build in the city at row {option['row']}, column {option['col']}"
    return f"Place on the action board 行动图板, space {option.get('hex')}"


def _action(key) -> str:
    return names.ACTION_NAMES.get(key, "an action")


def _structure(key) -> str:
    return names.STRUCTURE_NAMES.get(key, "a structure")


# How a person reads each kind of option (``table`` is the observation it was offered in).
OPTION_LABELS = {
    "take_tile": _action_tile,
    "action": lambda o, t: _action(o.get("action")),
    "wheel_bonus": lambda o, t: "Take the wheel bonus 行动轮奖励",
    "action_bonus": lambda o, t: (
        f"Take the upgrade bonus of {_action(o.get('action'))}"
        f" ({'this' if o.get('tile') == 'current' else 'the covered'} upgrade tile)"
    ),
    "extra_action": lambda o, t: (
        f"Buy an extra action 额外行动: {_action(o.get('action'))}"
        f" for {names.WINDOW_PAYS.get(o.get('pay'), 'windows')}"
    ),
    "use_tech": lambda o, t: f"Use {names.techs().get(o.get('tech'), 'a technology 技术')}",
    "refresh": lambda o, t: (
        f"Refresh the {names.ROW_NAMES.get(o.get('row'), 'row')} 刷新: slots "
        + " and ".join(str(1 + s) for s in o.get("slots") or [])
        + f" for {names.amount(o.get('pay'), 1)}"
    ),
    "climb": lambda o, t: f"Climb the {_structure(o.get('structure'))}",
    "lateral": lambda o, t: f"Move along the {_structure(o.get('structure'))}",
    "road_effect": lambda o, t: names.road_effect(
        o.get("section"), o.get("effect"), o.get("choice")
    ),
    "claim_seal": lambda o, t: f"Claim {names.seals().get(o.get('seal'), 'a seal 玺印')}",
    "end_turn": lambda o, t: "End the turn",
    "mine": lambda o, t: (
        "Advance the marker (1 more mine or quarry)" if o.get("mode") == "advance" else "Produce"
    ),
    "token": lambda o, t: f"Take {names.tokens().get(o.get('token'), 'a production token')}",
    "pick": lambda o, t: _pick(o),
    "orient": lambda o, t: f"Turn it {60 * (o.get('rotation') or 0)}°",
    "space": lambda o, t: _space(o),
    "square_reward": lambda o, t: (
        f"Square reward 广场奖励: the {'upper' if o.get('choice') == 0 else 'lower'} one"
    ),
    "bridge_tile": lambda o, t: f"Keep {names.bridge_tiles().get(o.get('tile'), 'a bridge tile')}",
    "plank": lambda o, t: f"Plank {1 + (o.get('plank') or 0)} of Charles Bridge 查理大桥",
    "choose_tech": lambda o, t: f"Keep {names.techs().get(o.get('tech'), 'a technology 技术')}",
    "structure": lambda o, t: _structure(o.get("structure")),
    "arrow_up": lambda o, t: "Pay and cross the tier" if o.get("take") else "Stay",
    "tech_action": lambda o, t: _action(o.get("action")),
    "square": lambda o, t: (
        f"Take both rewards of {names.squares().get(o.get('square'), 'a square')}"
    ),
    "track": lambda o, t: f"A step on the {names.TRACK_NAMES.get(o.get('track'), 'track')}",
    "produce": lambda o, t: f"Produce on the {names.TRACK_NAMES.get(o.get('track'), 'track')}",
    "resource": lambda o, t: f"Take {names.amount(o.get('resource'), 1)}",
    "keep": lambda o, t: (
        f"Keep {names.amount('goldwin', o.get('gold', 0))}"
        f" and {names.amount('silver', o.get('silver', 0))}"
    ),
}


def option_label(option: dict, table: dict | None = None) -> str:
    """How a person reads an option: ``Build a wall 建造城墙``, ``Keep Technology II 技术: ...``
    (``table``, the observation it was offered in, names the action tiles on the crane)."""
    label = OPTION_LABELS.get(option.get("kind"))
    return label(option, table) if label else str(option.get("kind", "?")).replace("_", " ")


@cache
def _data(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def legend(title) -> dict[str, Any]:
    """Static facts the drawing needs once: the city map (axial hex coordinates and the kind
    code of each hex), the action board's hexes, the crane's twelve positions, the tracks'
    sizes, and the names people read (names.py) for every id a frame holds: actions,
    structures, seals, technologies, hex tiles, bridge tiles, production tokens, squares."""
    city = CityMap(_data("city.json"))
    action_board = ActionBoard(_data("player_board.json")["action_board"])
    return {
        "city": [
            {"q": q, "r": r, "code": code, "row": row, "col": col}
            for (q, r), code, (row, col) in zip(
                city.board.coords, city.codes, city.rowcol, strict=True
            )
        ],
        "action_board": [{"q": q, "r": r} for q, r in action_board.board.coords],
        "actions": {a: names.ACTION_NAMES[a] for a in ACTIONS},
        "structures": names.STRUCTURE_NAMES,
        "rows": names.ROW_NAMES,
        "resources": names.RESOURCES,
        "seals": names.seals(),
        "techs": names.techs(),
        "tiles": names.tiles(),
        "bridge": names.bridge_tiles(),
        "tokens": names.tokens(),
        "squares": names.squares(),
        "frame": [f.get("zone") for f in _data("crane.json")["frame"]],
        "tracks": {
            key: {"rows": board["base"]["rows"], "cols": board["base"]["cols"]}
            for key, board in _data("structures.json").items()
            if key in names.STRUCTURE_NAMES
        },
    }
