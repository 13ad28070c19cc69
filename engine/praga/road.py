"""The King's Road and its bridge sections (seed §建造国王大道, §查理大桥)."""

from __future__ import annotations

from .holdings import can_pay, gain_vp, pay
from .rewards import gain
from .vocabulary import SECTIONS


def build_road(state, seat: int) -> None:
    """Seed §建造国王大道: sections I-III give two effects (one needs an egg); IV and V
    cost an egg and are the bridge."""
    nxt = state.road_built[seat] + 1
    state.road_built[seat] = nxt
    if nxt <= 3:
        # 000 §关于使用时机的说明: a section's effects wait in any order, even behind
        # the next section's when the road is built twice in a turn
        state.t_road_free += (nxt,)
        state.t_road_egg += (nxt,)
        return
    state.eggs[seat] -= 1
    if nxt == 4:
        drawn = [state.iv_stack.pop() for _ in range(min(3, len(state.iv_stack)))]
        if drawn:
            state.steps.append(("bridge_iv", seat, drawn))
    elif state.v_bridge:
        state.steps.append(("bridge_v", seat, "bridge"))


def free_effect(state, section: int) -> dict:
    """The egg-free effect of a King's Road section, or the replacement tile laid over it."""
    name = SECTIONS[section]
    replaced = state.options["kings_road_tiles"]
    for tile in replaced:
        if tile.startswith(name) and tile.rstrip("ab") == name:
            return state.components.road["replacement_tiles"][tile]
    return state.components.road["sections"][name]["free"]


def free_effect_payable(state, seat: int, section: int) -> bool:
    """Whether the section's free effect can be taken now (the while-here kinds never are)."""
    free = free_effect(state, section)
    if free["kind"] == "pay_for_vp":
        return can_pay(state, seat, free["cost"])
    return free["kind"] in FREE_EFFECTS


def apply_free_effect(state, seat: int, section: int) -> None:
    """Take the section's egg-free effect."""
    free = free_effect(state, section)
    FREE_EFFECTS[free["kind"]](state, seat, free)


def _pay_for_points(state, seat: int, free: dict) -> None:
    pay(state, seat, free["cost"])
    gain_vp(state, seat, free["vp"])


# Free effect kind (road.json) -> handler(state, seat, effect). The ``while_here_*`` kinds
# are no effect to take: they score while the marker stands there (points_while_here).
FREE_EFFECTS = {
    "pay_for_vp": _pay_for_points,
    "gain": lambda state, seat, free: gain(state, seat, free["reward"]),
    "per_period1_upgrade": lambda state, seat, free: gain_vp(
        state, seat, free["vp"] * state.period1_upgrades[seat]
    ),
    "per_silver": lambda state, seat, free: gain_vp(
        state, seat, free["vp"] * state.silver_windows[seat]
    ),
}
# Replacement-tile kinds that score while the marker is on the section (points_while_here).
WHILE_HERE = ("while_here_upgrade", "while_here_wall", "while_here_plain_building")
# Kinds taken without being chosen when the turn ends (everything but paying).
TAKEN_AT_END = ("gain", "per_period1_upgrade", "per_silver")


def points_while_here(state, seat: int, kind: str) -> int:
    """Points of a King's Road replacement tile active while the marker is on it."""
    section = state.road_built[seat]
    if not 1 <= section <= 3:
        return 0
    free = free_effect(state, section)
    return free["vp"] if free["kind"] == kind else 0
