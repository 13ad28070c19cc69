"""Buildings in the city, blue corner tokens and the squares (seed §建造建筑, §广场奖励)."""

from __future__ import annotations

from .rewards import gain


def cheapest_free_space(state) -> int:
    """The lowest surcharge of a free building space, or -1 when the city is full."""
    city = state.components.city
    for h in city.spaces_by_surcharge:
        if h not in state.city_tile:
            return city.surcharge.get(h, 0)
    return -1


def place_city_tile(state, h: int, tile: int, rotation: int, owner: int) -> int:
    """Put a building in the city; returns the blue corner tokens it earns."""
    city = state.components.city
    state.city_tile[h] = tile
    state.city_rotation[h] = rotation
    if owner >= 0:
        state.city_cube[h] = owner
    info = state.components.tiles[tile]
    tokens = 0
    for k in range(6):
        if info.corners[(k - rotation) % 6] is None:
            continue
        v = city.board.vertices[h][k]
        tokens += state.city_blue.get(v, 0) + (1 if v in city.blue_vertices else 0)
        state.city_blue[v] = state.city_blue.get(v, 0) + 1
    return tokens


def take_both_rewards(state, seat: int, tile: int) -> None:
    """Seed §广场板块: both rewards are one alternative of the upper reward and the lower one."""
    gain(state, seat, state.components.squares[tile]["lower"])
    take_upper_reward(state, seat, tile)


def take_upper_reward(state, seat: int, tile: int) -> None:
    """The upper reward: one of its alternatives (one lateral move, on either structure)."""
    upper = state.components.squares[tile]["upper"]
    if len(upper) == 1:
        gain(state, seat, upper[0])
    else:
        state.steps.append(("square_reward", seat, tile))


def resolve_square(state, square: int, active: int) -> None:
    """Seed §广场奖励: the last building around a square resolves it. Every claimant takes one
    of the tile's two rewards, the one with most cubes (ties: most spent, then all) both."""
    state.square_done[square] = True
    spaces = state.components.city.square_spaces[square]
    count = [0] * state.players
    spent = [0] * state.players
    for h in spaces:
        owner = state.city_cube.get(h, -1)
        if owner >= 0:
            count[owner] += 1
            spent[owner] += state.components.tiles[state.city_tile[h]].cost_total
    t = state.square_tile[square]
    claimants = [p for p in range(state.players) if count[p]]
    if t >= 0 and claimants:
        best = max((count[p], spent[p]) for p in claimants)
        winners = [p for p in claimants if (count[p], spent[p]) == best]
        order = [(active + i) % state.players for i in range(state.players)]
        for p in reversed(order):  # pushed last, decided first: the active seat begins
            if p not in claimants:
                continue
            if p in winners:  # the majority takes both rewards
                take_both_rewards(state, p, t)
            else:  # any other claimant takes one of the two
                state.steps.append(("square_half", p, t))
    for h in spaces:
        owner = state.city_cube.pop(h, -1)
        if owner >= 0:
            state.cubes[owner] += 1
