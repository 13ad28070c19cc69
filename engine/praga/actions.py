"""The six actions: whether one can be performed and performing it (seed §执行行动)."""

from __future__ import annotations

from .city import cheapest_free_space
from .holdings import gain_vp
from .rewards import gain
from .road import build_road, points_while_here
from .tracks import track_of, track_pos
from .vocabulary import MINES, QUARRIES, ROAD, TILE_ACTION_TYPE, UPGRADE, WALL


def main_possible(state, seat: int) -> bool:
    """Whether either action of the taken tile can still be performed."""
    return any(
        can_perform(state, seat, a, special=state.t_special, source="tile")
        for a in state.tile_actions[state.t_tile]
    )


def can_perform(state, seat: int, a: int, special: bool, source: str, discount=None) -> bool:
    """Whether ``seat`` may perform action ``a`` now (from a tile, an extra action or a technology)."""
    if a in (MINES, QUARRIES):
        return True
    if a == ROAD:
        nxt = state.road_built[seat] + 1
        return nxt <= 5 and (nxt <= 3 or state.eggs[seat] >= 1)
    t = TILE_ACTION_TYPE[a]
    slots = 4 if special else 3
    if a == WALL and all(
        state.board_top[seat][h] >= 0 for h in state.components.action_board.wall_spaces
    ):
        return False
    return any(
        state.rows[t][i] >= 0 and tile_affordable(state, seat, t, state.rows[t][i], discount or 0)
        for i in range(slots)
    )


def tile_affordable(state, seat: int, t: int, tile: int, discount: int) -> bool:
    """Whether ``seat`` can pay for ``tile`` of display row ``t`` (a building also needs a free space)."""
    if t == 0:
        return True
    cost = state.components.tiles[tile].cost
    gold, stone = cost.get("gold", 0), cost.get("stone", 0)
    if t == 1:
        return state.gold[seat] >= gold and state.stone[seat] >= max(0, stone - discount)
    cheapest = cheapest_free_space(state)
    if cheapest < 0:
        return False
    return state.stone[seat] >= stone and state.gold[seat] >= max(0, gold + cheapest - discount)


def perform(state, seat: int, a: int, special: bool, discount) -> None:
    """One action, from the tile, an extra action or a technology (seed §执行行动)."""
    state.t_bonus_claims.append(a)  # the upgrade bonus, now or retroactively (seed §升级)
    if a == UPGRADE and points_while_here(state, seat, "while_here_upgrade"):
        gain_vp(state, seat, points_while_here(state, seat, "while_here_upgrade"))
        state.steps.append(("road_choice", seat))
    if a in (MINES, QUARRIES):
        state.steps.append(("mine", seat, a))
    elif a == ROAD:
        build_road(state, seat)
    else:
        state.steps.append(("pick", seat, TILE_ACTION_TYPE[a], special, discount or 0))


def produce(state, seat: int, k: int) -> None:
    """Production with every bonus left of the marker and the track's tokens."""
    track = track_of(state, k)
    position = track_pos(state, seat, k)
    gain(state, seat, {"gold" if k == 0 else "stone": track["cells"][position]["production"]})
    for p in range(track["start"], position + 1):
        bonus = track["cells"][p].get("bonus")
        if bonus:
            gain(state, seat, bonus)
    for tok in state.track_tokens[seat][k]:
        gain(state, seat, state.components.production_tokens[tok]["reward"])
