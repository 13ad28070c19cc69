"""The gold mine and quarry tracks on the player board (seed §管理矿场, §管理采石场)."""

from __future__ import annotations

from .holdings import gain_vp, has_tech


def track_of(state, k: int) -> dict:
    """The gold mine (0) or quarry (1) track."""
    return state.components.gold_track if k == 0 else state.components.quarry_track


def track_pos(state, seat: int, k: int) -> int:
    """The marker's space of ``seat`` on track ``k``."""
    return state.gold_mine_pos[seat] if k == 0 else state.quarry_pos[seat]


def advance_track(state, seat: int, k: int) -> None:
    """One space along a production track: token and seal spaces, the track technology."""
    track = track_of(state, k)
    position = track_pos(state, seat, k)
    if position >= track["end"]:
        return
    position += 1
    if k == 0:
        state.gold_mine_pos[seat] = position
    else:
        state.quarry_pos[seat] = position
    cell = track["cells"][position]
    if cell.get("token") and any(state.river_tokens):
        state.steps.append(("token", seat, k))
    if cell.get("seal"):
        state.seal_rights[seat] += 1
    if has_tech(state, seat, "track_vp", track="gold_track" if k == 0 else "quarry_track"):
        gain_vp(state, seat, 2)
