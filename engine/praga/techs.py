"""Technologies of levels III-IV: one-shot uses, one handler per effect (seed §等级 Ⅲ, §等级 Ⅳ).

Their actions are not the extra action. Levels I-II are lasting effects, read where they act
(``holdings.has_tech``, ``rewards.tech_reward``).
"""

from __future__ import annotations

from .actions import can_perform, perform, produce
from .holdings import gain_vp
from .rewards import gain
from .structures import can_climb
from .vocabulary import BUILDING, ROAD, UPGRADE, WALL


def tech_usable(state, seat: int, tid: int) -> bool:
    """Whether the kept technology ``tid`` would do something now."""
    check = USABLE.get(state.components.techs[tid]["effect"])
    return check is None or check(state, seat)


def use_tech(state, seat: int, tid: int) -> None:
    """Spend the kept technology ``tid``."""
    USES[state.components.techs[tid]["effect"]](state, seat)


def _perform_from_tech(state, seat: int, action: int, discount=None) -> None:
    perform(state, seat, action, special=False, discount=discount)


def _egg_and_road(state, seat: int) -> None:
    gain(state, seat, {"egg": 1})
    if can_perform(state, seat, ROAD, False, "tech"):
        _perform_from_tech(state, seat, ROAD)


def _upgrade_and_points(state, seat: int) -> None:
    gain_vp(state, seat, 3)
    _perform_from_tech(state, seat, UPGRADE)


def _upgrade_and_gold_window(state, seat: int) -> None:
    gain(state, seat, {"goldwin": 1})
    _perform_from_tech(state, seat, UPGRADE)


def _stone_then_gold_production(state, seat: int) -> None:
    gain(state, seat, {"stone": 2})
    produce(state, seat, 0)


def _gold_then_stone_production(state, seat: int) -> None:
    gain(state, seat, {"gold": 2})
    produce(state, seat, 1)


def _push(kind: str, *payload):
    def push(state, seat: int) -> None:
        state.steps.append((kind, seat, *payload))

    return push


# Effect (techs.json) -> what using it does.
USES = {
    "egg_and_road": _egg_and_road,
    "free_climb": _push("choose_structure", "free_climb"),
    "univ4": lambda state, seat: gain(state, seat, {"univ": 4}),
    "upgrade_vp3": _upgrade_and_points,
    "produce_gold_stone2": _stone_then_gold_production,
    "produce_stone_gold2": _gold_then_stone_production,
    "building_discount": lambda state, seat: _perform_from_tech(state, seat, BUILDING, 2),
    "wall_discount": lambda state, seat: _perform_from_tech(state, seat, WALL, 2),
    "any_action": _push("choose_action"),
    "upgrade_goldwin": _upgrade_and_gold_window,
    "square_rewards": _push("choose_square"),
    "track_and_produce": _push("choose_track"),
}
# Effect -> whether it can be used now (absent: always).
USABLE = {
    "free_climb": lambda state, seat: (
        can_climb(state, seat, 0, True) or can_climb(state, seat, 1, True)
    ),
    "upgrade_vp3": lambda state, seat: can_perform(state, seat, UPGRADE, False, "tech"),
    "upgrade_goldwin": lambda state, seat: can_perform(state, seat, UPGRADE, False, "tech"),
    "building_discount": lambda state, seat: can_perform(
        state, seat, BUILDING, False, "tech", discount=2
    ),
    "wall_discount": lambda state, seat: can_perform(state, seat, WALL, False, "tech", discount=2),
    "square_rewards": lambda state, seat: any(t >= 0 for t in state.square_tile.values()),
}
