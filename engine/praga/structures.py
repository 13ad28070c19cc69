"""The Hunger Wall and the Cathedral: climbing, lateral moves, landing (seed §向上移动, §横向移动)."""

from __future__ import annotations

from .holdings import can_pay, gain_vp, has_tech, pay
from .vocabulary import STRUCTS


def structure(state, k: int):
    """The Hunger Wall (0) or Cathedral (1) board of this game's variant."""
    variant = state.options["hunger_wall_board" if k == 0 else "cathedral_board"]
    return state.components.structures[STRUCTS[k]][variant]


def crossing_cost(state, seat: int, k: int) -> dict:
    """What the next step up costs: a tier crossing's gold and stone, else nothing."""
    board = structure(state, k)
    row = state.structure_pos[seat][k][0]
    if row + 1 >= board.rows:
        return {}
    here, there = board.tiers[row], board.tiers[row + 1]
    return state.components.crossing_costs[there] if there != here else {}


def can_climb(state, seat: int, k: int, free: bool) -> bool:
    """Whether ``seat`` can step up on structure ``k`` (``free``: ignoring the crossing cost)."""
    board = structure(state, k)
    if state.structure_pos[seat][k][0] + 1 >= board.rows:
        return False
    return free or can_pay(state, seat, crossing_cost(state, seat, k))


def climb(state, seat: int, k: int, free: bool) -> None:
    """One step up (seed §向上移动); crossing a tier costs gold and stone unless free."""
    board = structure(state, k)
    if not free:
        pay(state, seat, crossing_cost(state, seat, k))
    before = board.tiers[state.structure_pos[seat][k][0]]
    state.structure_pos[seat][k][0] += 1
    if has_tech(state, seat, "climb_vp"):
        gain_vp(state, seat, 2)
    top = board.tiers[-1]
    if (
        k == 1
        and board.tiers[state.structure_pos[seat][k][0]] == top
        and before != top
        and state.v_cathedral
    ):
        state.steps.append(("bridge_v", seat, "cathedral"))
    land(state, seat, k)


def lateral(state, seat: int, k: int) -> None:
    """Seed §横向移动: left on the Hunger Wall, right in the Cathedral (columns count along)."""
    board = structure(state, k)
    if state.structure_pos[seat][k][1] + 1 >= board.cols:
        return
    state.structure_pos[seat][k][1] += 1
    land(state, seat, k)


def land(state, seat: int, k: int) -> None:
    """The cell reached: its points and its arrow (side: a lateral move; up: a climb)."""
    row, col = state.structure_pos[seat][k]
    cell = structure(state, k).cells[row][col]
    if "vp" in cell:
        gain_vp(state, seat, cell["vp"])
    arrow = cell.get("arrow")
    if arrow == "side":
        lateral(state, seat, k)
    elif arrow == "up" and row + 1 < structure(state, k).rows:
        if crossing_cost(state, seat, k):
            state.steps.append(("arrow_up", seat, k))
        else:
            climb(state, seat, k, free=True)
