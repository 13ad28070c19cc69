"""The names people read for Praga's components and options: English, with the Chinese names
the seed (rules 000) uses. The viewer shows these, never the ids of records and data files
(``U110``, ``T3road``, ``IV1``, ``gold_silver``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

DATA = Path(__file__).with_name("data")

# 000 §执行行动: the six actions' headings.
ACTION_NAMES = {
    "mines": "Manage mines 管理矿场",
    "quarries": "Manage quarries 管理采石场",
    "upgrade": "Upgrade an action 升级一个行动",
    "wall": "Build a wall 建造城墙",
    "building": "Build a building 建造建筑",
    "road": "Build the King's Road 建造国王大道",
}
STRUCTURE_NAMES = {"hunger_wall": "Hunger Wall 饥饿之墙", "cathedral": "Cathedral 主教座堂"}
TRACK_NAMES = {
    "gold_mine": "gold mine track 金矿轨",
    "gold_track": "gold mine track 金矿轨",
    "quarry": "quarry track 采石场轨",
    "quarry_track": "quarry track 采石场轨",
    "none": "no track",
}
ROW_NAMES = {"upgrade": "upgrade row 升级板块列", "wall": "wall row 城墙板块列",
             "building": "building row 建筑板块列"}  # fmt: skip
# Reward and cost keys of the data files, as "<n> <name>".
RESOURCES = {
    "gold": ("gold 金币", "gold 金币"),
    "stone": ("stone 石头", "stone 石头"),
    "silver": ("silver window 银色窗户", "silver windows 银色窗户"),
    "goldwin": ("gold window 金色窗户", "gold windows 金色窗户"),
    "vp": ("point 分", "points 分"),
    "egg": ("egg 鸡蛋", "eggs 鸡蛋"),
    "tech": ("technology step 技术轨", "technology steps 技术轨"),
    "univ": ("university step 查理大学轨", "university steps 查理大学轨"),
    "cap": ("university step 查理大学轨", "university steps 查理大学轨"),
    "wall_left": (
        "step left on the Hunger Wall 饥饿之墙",
        "steps left on the Hunger Wall 饥饿之墙",
    ),
    "cath_right": ("step right on the Cathedral 主教座堂", "steps right on the Cathedral 主教座堂"),
    "gold_track": ("gold mine step 金矿轨", "gold mine steps 金矿轨"),
    "quarry_track": ("quarry step 采石场轨", "quarry steps 采石场轨"),
    "red": ("red token 红色奖励指示物", "red tokens 红色奖励指示物"),
    "blue": ("blue token 蓝色奖励指示物", "blue tokens 蓝色奖励指示物"),
}
LEVELS = {1: "I", 2: "II", 3: "III", 4: "IV"}
# 000 §技术 等级 Ⅰ–Ⅳ: what each technology does.
TECH_EFFECTS = {
    "wheel_extra": lambda t: f"wheel bonus of {amount(t['icon'], 1)}: 1 more and 1 point",
    "track_vp": lambda t: f"2 points a step on the {TRACK_NAMES[t['track']]}",
    "climb_vp": lambda t: "2 points a step up the Hunger Wall or the Cathedral",
    "crane_vp": lambda t: "1 more point when taking an action tile scores",
    "cathedral_building": lambda t: (
        f"a building with the Cathedral icon gives {reward(t['reward'])}"
    ),
    "corner_token": lambda t: (
        f"a {t['colour']} corner token gives {reward(t['reward'])} (once a turn)"
    ),
    "plain_building": lambda t: (
        f"a building without the Cathedral icon gives {reward(t['reward'])}"
    ),
    "egg_gain": lambda t: f"each egg gained gives {reward(t['reward'])}",
    "hunger_wall_wall": lambda t: f"a wall with the Hunger Wall icon gives {reward(t['reward'])}",
    "egg_and_road": lambda t: "1 egg and Build the King's Road",
    "free_climb": lambda t: "one step up, no tier cost",
    "univ4": lambda t: "4 university steps",
    "upgrade_vp3": lambda t: "Upgrade an action and 3 points",
    "produce_gold_stone2": lambda t: "produce gold and 2 stone",
    "produce_stone_gold2": lambda t: "produce stone and 2 gold",
    "building_discount": lambda t: "Build a building 2 gold cheaper",
    "wall_discount": lambda t: "Build a wall 2 stone cheaper",
    "any_action": lambda t: "any action",
    "upgrade_goldwin": lambda t: "Upgrade an action and 1 gold window",
    "square_rewards": lambda t: "both rewards of a square tile",
    "track_and_produce": lambda t: "a step on a mine or quarry track, then produce",
}
SEAL_SCORES = {
    "per_gold": "{} points per gold at the end",
    "per_stone": "{} points per stone at the end",
    "per_gold_and_stone": "{} points per gold and stone pair at the end",
    "points": "{} points",
}
FINALS = {
    "university_height": "at the end, the university height",
    "upgrades3": "at the end, 3 points per upgrade tile",
    "walls2": "at the end, 2 points per wall tile",
    "gold_mines": "at the end, the number of mines",
    "quarries": "at the end, the number of quarries",
    "rows2": "at the end, 2 points per Hunger Wall and Cathedral row",
}
WINDOW_PAYS = {"gold_gold": "2 gold windows 金色窗户", "gold_silver": "1 gold and 1 silver window"}


def amount(key: str, n: int) -> str:
    """``2 points 分``, ``1 silver window 银色窗户``."""
    one, many = RESOURCES.get(key, (key.replace("_", " "), key.replace("_", " ")))
    return f"{n} {one if n == 1 else many}"


def reward(values: dict | None) -> str:
    """A reward or a cost: ``1 gold 金币 + 2 points 分`` (``nothing`` when empty)."""
    if not values:
        return "nothing"
    return " + ".join(amount(k, v) for k, v in values.items())


@cache
def _data(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def tile_name(tile: dict) -> str:
    """A hex tile (a dict of ``tiles.json``): ``Upgrade tile 升级板块 (for Manage quarries
    管理采石场, bonus 1 gold 金币, period I)``, ``Wall tile 城墙板块 (costs 3 stone 石头, ...)``."""
    kind = tile.get("type")
    special = " (special 特殊)" if tile.get("special") else ""
    period = f", period {LEVELS.get(tile.get('period'), tile.get('period'))}"
    if kind == "upgrade":
        return (
            f"Upgrade tile 升级板块{special} (for {ACTION_NAMES.get(tile.get('action'), '?')},"
            f" bonus {reward(tile.get('action_bonus'))}{period})"
        )
    name = {"wall": "Wall tile 城墙板块", "building": "Building tile 建筑板块"}.get(kind, "Tile")
    icons = [
        text
        for key, text in (("hunger_wall", "Hunger Wall icon"), ("cathedral", "Cathedral icon"))
        if tile.get(key)
    ]
    return (
        f"{name}{special} (costs {reward(tile.get('cost'))}, gives {reward(tile.get('reward'))}"
        + "".join(f", {i}" for i in icons)
        + period
        + ")"
    )


@cache
def tiles() -> dict[str, str]:
    """Every hex tile's id to its name."""
    return {t["id"]: tile_name(t) for t in _data("tiles.json")["tiles"]}


@cache
def techs() -> dict[str, str]:
    """Every technology's id to ``Technology II 技术: a building with ... gives ...``."""
    return {
        t["id"]: f"Technology {LEVELS[t['level']]} 技术: {TECH_EFFECTS[t['effect']](t)}"
        for t in _data("techs.json")["techs"]
    }


@cache
def bridge_tiles() -> dict[str, str]:
    """Every bridge tile's id (``IV1``, ``V3``) to its name (000 §桥面板块)."""
    out = {}
    for stack, colour in (("iv", "silver IV 银色"), ("v", "gold V 金色")):
        for t in _data("bridge.json")[stack]:
            parts = [reward(t["reward"])] if t.get("reward") else []
            if t.get("final"):
                parts.append(FINALS.get(t["final"], t["final"].replace("_", " ")))
            out[t["id"]] = f"Bridge tile 桥面板块 ({colour}): " + "; ".join(parts or ["nothing"])
    return out


@cache
def tokens() -> dict[str, str]:
    """Every production token's id to ``Production token 生产指示物: 2 points 分``."""
    return {
        t["id"]: f"Production token 生产指示物: {reward(t['reward'])}"
        for t in _data("misc.json")["production_tokens"]["tokens"]
    }


@cache
def squares() -> dict[str, str]:
    """Every square tile's id to its two rewards (000 §广场板块)."""
    return {
        t["id"]: "Square tile 广场板块: upper "
        + " or ".join(reward(r) for r in t["upper"])
        + f"; lower {reward(t['lower'])}"
        for t in _data("misc.json")["squares"]["tiles"]
    }


@cache
def seals() -> dict[str, str]:
    """Every seal's id to ``Seal 玺印: 2 points per gold at the end (costs 2 silver windows)``."""
    out = {}
    for s in _data("misc.json")["seals"]:
        ((kind, n),) = s["score"].items()
        cost = f" (costs {reward(s['cost'])})" if s["cost"] else ""
        out[s["id"]] = f"Seal 玺印: {SEAL_SCORES[kind].format(n)}{cost}"
    return out


def road_effect(section: int, effect: str, choice: int | None) -> str:
    """A King's Road section's effect (000 §国王大道; data/road.json)."""
    numeral = LEVELS.get(section, str(section))
    data = _data("road.json")["sections"].get(numeral, {})
    if effect == "egg":
        options = data.get("egg") or []
        what = reward(options[choice]) if choice is not None and choice < len(options) else "?"
        return f"King's Road 国王大道 section {numeral}: pay 1 egg 鸡蛋 for {what}"
    free = data.get("free") or {}
    kinds = {
        "pay_for_vp": lambda: (
            f"pay {reward(free.get('cost'))} for {amount('vp', free.get('vp', 0))}"
        ),
        "per_period1_upgrade": lambda: f"{amount('vp', free.get('vp', 0))} per period I upgrade",
        "gain": lambda: reward(free.get("reward")),
    }
    what = kinds.get(free.get("kind"), lambda: "its effect")()
    return f"King's Road 国王大道 section {numeral}: {what}"
