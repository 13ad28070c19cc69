"""The three rows of hex tiles on offer: filling them and refreshing a row (seed §刷新一列)."""

from __future__ import annotations

from .vocabulary import ROW_NAMES


def fill_row(state, t: int) -> None:
    """Fill the empty slots of display row ``t`` from this period's stacks."""
    row = state.rows[t]
    for slot in range(4):
        if row[slot] == -1:
            pile = state.stacks[(t, state.period, slot == 3)]
            if pile:
                row[slot] = pile.pop()


def refresh(state, option: dict) -> None:
    """Seed §刷新一列: once a turn, 1 gold or 1 stone, two tiles of one row to the bottom."""
    seat = state.active
    state.t_refresh_done = True
    if option["pay"] == "gold":
        state.gold[seat] -= 1
    else:
        state.stone[seat] -= 1
    t = ROW_NAMES.index(option["row"])
    for slot in option["slots"]:
        tile = state.rows[t][slot]
        state.rows[t][slot] = -1
        info = state.components.tiles[tile]
        state.stacks[(t, info.period, info.special)].insert(0, tile)
    fill_row(state, t)
