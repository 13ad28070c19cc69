"""Tiles on a player's action board: adjacency and corner rewards (seed §相邻奖励, §角落奖励)."""

from __future__ import annotations

from .rewards import gain, gain_corner_tokens


def place_board_tile(state, seat: int, h: int, tile: int, rotation: int) -> None:
    """Seed §相邻奖励 and §角落奖励 on the action board (edges used once per tile side)."""
    info = state.components.tiles[tile]
    board = state.components.action_board.board
    state.board_stacks[seat][h] += (tile,)
    tops, orients, used = (
        list(state.board_top[seat]),
        list(state.board_rotation[seat]),
        list(state.board_edges_used[seat]),
    )
    tops[h], orients[h], used[h] = tile, rotation, 0
    state.board_top[seat], state.board_rotation[seat] = tuple(tops), tuple(orients)
    for k in range(6):
        icon = info.edges[(k - rotation) % 6]
        n = board.neighbours[h][k]
        if icon is None or n < 0 or tops[n] < 0:
            continue
        back = (k + 3) % 6
        other = state.components.tiles[tops[n]].edges[(back - orients[n]) % 6]
        if other is None or used[n] >> back & 1:
            continue
        used[h] |= 1 << k
        used[n] |= 1 << back
        gain(state, seat, {icon: 1})
        gain(state, seat, {other: 1})
    state.board_edges_used[seat] = tuple(used)
    tokens = 0
    pairs = set(state.board_corner_pairs[seat])
    for k in range(6):
        if info.corners[(k - rotation) % 6] is None:
            continue
        v = board.vertices[h][k]
        for h2, k2 in board.vertex_hexes[v]:
            if h2 == h or tops[h2] < 0:
                continue
            if state.components.tiles[tops[h2]].corners[(k2 - orients[h2]) % 6] is None:
                continue
            # 000 §升级一个行动: a used connection never pays again, a brand-new one does.
            # A meeting of two spaces at a corner is used while one of the two tiles
            # that were paid for it is still on top (so covering either side renews it
            # only when both sides have been covered since)
            key = ((v * 32 + min(h, h2)) * 32 + max(h, h2)) * 1024
            if key + tops[h2] not in pairs:
                pairs.add(key + tops[h2])
                pairs.add(key + tile)
                tokens += 1
    state.board_corner_pairs[seat] = frozenset(pairs)
    if tokens:
        gain_corner_tokens(state, seat, "red", tokens)
