"""Sub-decisions pushed on the step stack: for each kind, its options and its handler."""

from __future__ import annotations

from .actions import can_perform, perform, produce, tile_affordable
from .board import place_board_tile
from .city import place_city_tile, resolve_square, take_both_rewards, take_upper_reward
from .display import fill_row
from .geometry import ACTIONS
from .holdings import can_pay, gain_vp, pay
from .rewards import advance_university, gain, gain_corner_tokens, tech_reward
from .road import points_while_here
from .structures import can_climb, climb, crossing_cost, lateral
from .tracks import advance_track, track_of, track_pos
from .vocabulary import ROW_NAMES, STRUCTS


def keep_windows_options(state, step):
    """Which two windows to keep (seed §回合结束 1)."""
    seat = step[1]
    out = []
    for g in (2, 1, 0):
        if g <= state.gold_windows[seat] and 2 - g <= state.silver_windows[seat]:
            out.append({"kind": "keep", "gold": g, "silver": 2 - g})
    return out


def keep_windows(state, step, option):
    """Keep the chosen windows; the rest go back to the supply."""
    seat = step[1]
    state.gold_window_supply += state.gold_windows[seat] - option["gold"]
    state.silver_window_supply += state.silver_windows[seat] - option["silver"]
    state.gold_windows[seat], state.silver_windows[seat] = option["gold"], option["silver"]


def mine_options(state, step):
    """管理矿场/采石场: advance the track (when not at its end) or produce."""
    seat, track = step[1], step[2]
    out = []
    if track_pos(state, seat, track) < track_of(state, track)["end"]:
        out.append({"kind": "mine", "mode": "advance"})
    out.append({"kind": "mine", "mode": "produce"})
    return out


def mine(state, step, option):
    """+1 and advance, or produce."""
    seat, track = step[1], step[2]
    if option["mode"] == "advance":
        gain(state, seat, {"gold" if track == 0 else "stone": 1})
        advance_track(state, seat, track)
    else:
        produce(state, seat, track)


def token_options(state, step):
    """Production tokens still in the river."""
    return [
        {"kind": "token", "token": tok["id"]}
        for i, tok in enumerate(state.components.production_tokens)
        if state.river_tokens[i]
    ]


def token(state, step, option):
    """Put the chosen token on the track."""
    seat, track = step[1], step[2]
    i = [t["id"] for t in state.components.production_tokens].index(option["token"])
    state.river_tokens[i] -= 1
    state.track_tokens[seat][track].append(i)


def pick_options(state, step):
    """Affordable tiles of the row (the special slot only with the S bonus)."""
    _, seat, t, special, discount = step
    out = []
    for slot in range(4 if special else 3):
        tile = state.rows[t][slot]
        if tile >= 0 and tile_affordable(state, seat, t, tile, discount):
            out.append(
                {
                    "kind": "pick",
                    "row": ROW_NAMES[t],
                    "slot": slot,
                    "tile": state.components.tiles[tile].id,
                }
            )
    return out


def pick(state, step, option):
    """Take the tile: pay and gain, then place it."""
    _, seat, t, special, discount = step
    slot = option["slot"]
    tile = state.rows[t][slot]
    state.rows[t][slot] = -1
    if slot == 3:
        state.t_special = False
        state.t_wheel_slot = None  # the S bonus is used for the tile, not its points
    fill_row(state, t)
    info = state.components.tiles[tile]
    if t == 0:
        state.steps.append(("orient_upgrade", seat, tile))
        return
    cost = dict(info.cost)
    if t == 1 and discount:
        cost["stone"] = max(0, cost.get("stone", 0) - discount)
        discount = 0
    if t == 2 and discount:
        cut = min(discount, cost.get("gold", 0))
        cost["gold"] = cost.get("gold", 0) - cut
        discount -= cut
    pay(state, seat, cost)
    gain(state, seat, info.reward)
    if t == 1:
        state.steps.append(("wall_space", seat, tile))
    else:
        state.steps.append(("building_space", seat, tile, discount))


def orient_upgrade_options(state, step):
    """Six orientations."""
    return [{"kind": "orient", "rotation": o} for o in range(6)]


def orient_upgrade(state, step, option):
    """Seed §升级一个行动: on the matching action hex; the university rises by period."""
    _, seat, tile = step
    info = state.components.tiles[tile]
    h = 1 + info.action
    place_board_tile(state, seat, h, tile, option["rotation"])
    state.upgrades[seat] += 1
    if info.period == 1:
        state.period1_upgrades[seat] += 1
    for _ in range(info.period):
        advance_university(state, seat)


def wall_space_options(state, step):
    """Free wall hexes around the action board."""
    seat = step[1]
    return [
        {"kind": "space", "hex": h}
        for h in state.components.action_board.wall_spaces
        if state.board_top[seat][h] == -1
    ]


def wall_space(state, step, option):
    """The wall's hex; its orientation follows."""
    state.steps.append(("orient_wall", step[1], step[2], option["hex"]))


def orient_wall_options(state, step):
    """Six orientations."""
    return [{"kind": "orient", "rotation": o} for o in range(6)]


def orient_wall(state, step, option):
    """Place the wall: a Hunger Wall icon gives a lateral move."""
    _, seat, tile, h = step
    info = state.components.tiles[tile]
    place_board_tile(state, seat, h, tile, option["rotation"])
    state.walls[seat] += 1
    if info.hunger_wall:
        state.t_lateral_moves[0] += 1
        tech_reward(state, seat, "hunger_wall_wall")
    if points_while_here(state, seat, "while_here_wall"):
        gain_vp(state, seat, points_while_here(state, seat, "while_here_wall"))


def building_space_options(state, step):
    """Free city spaces whose surcharge can be paid."""
    _, seat, tile, discount = step
    city = state.components.city
    out = []
    for h in city.spaces:
        if h not in state.city_tile and state.gold[seat] >= max(
            0, city.surcharge.get(h, 0) - discount
        ):
            out.append(
                {"kind": "space", "hex": h, "row": city.rowcol[h][0], "col": city.rowcol[h][1]}
            )
    return out


def building_space(state, step, option):
    """Pay the surcharge, score the space; the orientation follows."""
    _, seat, tile, discount = step
    city = state.components.city
    h = option["hex"]
    state.gold[seat] -= max(0, city.surcharge.get(h, 0) - discount)
    gain_vp(state, seat, city.space_vp.get(h, 0))
    state.steps.append(("orient_building", seat, tile, h))


def orient_building_options(state, step):
    """Six orientations."""
    return [{"kind": "orient", "rotation": o} for o in range(6)]


def orient_building(state, step, option):
    """Seed §建造建筑: cube, Cathedral icon, crown-?, blue corners, the square."""
    # seed §建造建筑: cube space, Cathedral icon, crown-?, blue corners, square resolution
    _, seat, tile, h = step
    info = state.components.tiles[tile]
    owner = seat if info.cube and state.cubes[seat] > 0 else -1
    if owner >= 0:
        state.cubes[seat] -= 1
    tokens = place_city_tile(state, h, tile, option["rotation"], owner)
    if tokens:
        gain_corner_tokens(state, seat, "blue", tokens)
    if info.cathedral:
        state.t_lateral_moves[1] += 1
        tech_reward(state, seat, "cathedral_building")
    else:
        tech_reward(state, seat, "plain_building")
        bonus = points_while_here(state, seat, "while_here_plain_building")
        if bonus:
            gain_vp(state, seat, bonus)
    square = state.components.city.space_square[h]
    if info.crown:
        gain_vp(
            state,
            seat,
            sum(1 for x in state.components.city.square_spaces[square] if x in state.city_tile),
        )
    if all(x in state.city_tile for x in state.components.city.square_spaces[square]):
        resolve_square(state, square, seat)


def square_half_options(state, step):
    """The upper (0) or the lower (1) reward of the square tile."""
    return [{"kind": "square_reward", "choice": half} for half in (0, 1)]


def square_half(state, step, option):
    """A claimant without the majority: the upper reward (choice 0) or the lower one (1)."""
    _, seat, tile = step
    if option["choice"] == 0:
        take_upper_reward(state, seat, tile)
    else:
        gain(state, seat, state.components.squares[tile]["lower"])


def square_reward_options(state, step):
    """One option per alternative of the square tile's upper reward."""
    upper = state.components.squares[step[2]]["upper"]
    return [{"kind": "square_reward", "choice": i} for i in range(len(upper))]


def square_reward(state, step, option):
    """Which alternative of the upper reward (on the seed's tile: which structure to move on)."""
    _, seat, tile = step
    gain(state, seat, state.components.squares[tile]["upper"][option["choice"]])


def bridge_iv_options(state, step):
    """The three IV bridge tiles drawn."""
    return [
        {"kind": "bridge_tile", "tile": state.components.bridge_iv[i]["id"]}
        for i in sorted(step[2])
    ]


def bridge_iv(state, step, option):
    """Keep one; the others to the bottom; a plank follows while one is free."""
    _, seat, drawn = step
    chosen = [i for i in drawn if state.components.bridge_iv[i]["id"] == option["tile"]][0]
    for i in drawn:
        if i != chosen:
            state.iv_stack.insert(0, i)
    if -1 in state.planks:
        state.steps.append(("plank", seat, "iv", chosen))
    else:
        state.discarded.append(("iv", chosen))
        gain(state, seat, state.components.bridge_iv[chosen]["reward"])


def bridge_v_options(state, step):
    """The V tiles of the pile reached (by the road or the Cathedral's top)."""
    pile = state.v_bridge if step[2] == "bridge" else state.v_cathedral
    return [
        {"kind": "bridge_tile", "tile": state.components.bridge_v[i]["id"]} for i in sorted(pile)
    ]


def bridge_v(state, step, option):
    """Take the V tile; by the road, a plank follows while one is free."""
    _, seat, pile = step
    pile_list = state.v_bridge if pile == "bridge" else state.v_cathedral
    chosen = [i for i in pile_list if state.components.bridge_v[i]["id"] == option["tile"]][0]
    pile_list.remove(chosen)
    state.v_tiles[seat].append(chosen)
    gain(state, seat, state.components.bridge_v[chosen]["reward"])
    if pile == "bridge" and -1 in state.planks:
        state.steps.append(("plank", seat, "v", chosen))


def plank_options(state, step):
    """Free plank spaces of the bridge."""
    return [{"kind": "plank", "plank": i} for i, x in enumerate(state.planks) if x == -1]


def plank(state, step, option):
    """Cover the plank: its reward (and the IV tile's)."""
    _, seat, kind, tile = step
    i = option["plank"]
    state.planks[i] = (0 if kind == "iv" else 100) + tile
    gain(state, seat, state.components.planks[i]["sides"][state.plank_side[i]])
    if kind == "iv":
        gain(state, seat, state.components.bridge_iv[tile]["reward"])


def choose_tech_options(state, step):
    """The three technologies drawn."""
    return [
        {"kind": "choose_tech", "tech": state.components.techs[i]["id"]} for i in sorted(step[2])
    ]


def choose_tech(state, step, option):
    """Keep one; the others to the bottom of their level."""
    _, seat, drawn, level = step
    chosen = state.components.tech_index[option["tech"]]
    for i in drawn:
        if i != chosen:
            state.tech_stacks[level].insert(0, i)
    state.techs[seat].append([chosen, state.turn_no, False])
    if level >= 3:
        state.unused_techs[seat].append(chosen)


def choose_structure_options(state, step):
    """The Hunger Wall or the Cathedral (for a free climb: where one is possible)."""
    _, seat, purpose = step
    out = []
    for k in (0, 1):
        if purpose != "free_climb" or can_climb(state, seat, k, free=True):
            out.append({"kind": "structure", "structure": STRUCTS[k]})
    return out


def choose_structure(state, step, option):
    """Climb for free, or move laterally."""
    _, seat, purpose = step
    k = STRUCTS.index(option["structure"])
    if purpose == "free_climb":
        climb(state, seat, k, free=True)
    else:
        lateral(state, seat, k)


def arrow_up_options(state, step):
    """An up arrow across a tier: stay, or pay the crossing and climb."""
    _, seat, k = step
    out = [{"kind": "arrow_up", "take": False}]
    if can_pay(state, seat, crossing_cost(state, seat, k)):
        out.append({"kind": "arrow_up", "take": True})
    return out


def arrow_up(state, step, option):
    """Climb when taken."""
    _, seat, k = step
    if option["take"]:
        climb(state, seat, k, free=False)


def choose_action_options(state, step):
    """Every action the any-action technology can perform now."""
    seat = step[1]
    return [
        {"kind": "tech_action", "action": ACTIONS[a]}
        for a in range(6)
        if can_perform(state, seat, a, special=False, source="tech")
    ]


def choose_action(state, step, option):
    """Perform it (not the extra action)."""
    perform(state, step[1], ACTIONS.index(option["action"]), special=False, discount=None)


def choose_square_options(state, step):
    """Square tiles on the main board, resolved or not (seed §等级 Ⅳ)."""
    return [
        {"kind": "square", "square": state.components.squares[t]["id"]}
        for sq, t in sorted(state.square_tile.items())
        if t >= 0
    ]


def choose_square(state, step, option):
    """Seed §等级 Ⅳ: both rewards of a square tile on the main board."""
    tile = [i for i, sq in enumerate(state.components.squares) if sq["id"] == option["square"]][0]
    take_both_rewards(state, step[1], tile)


def choose_track_options(state, step):
    """The production tracks not at their end (or none)."""
    seat = step[1]
    return [
        {"kind": "track", "track": name}
        for k, name in enumerate(("gold_mine", "quarry"))
        if track_pos(state, seat, k) < track_of(state, k)["end"]
    ] or [{"kind": "track", "track": "none"}]


def choose_track(state, step, option):
    """Advance it; the production choice follows."""
    seat = step[1]
    state.steps.append(("choose_produce", seat))
    if option["track"] != "none":
        advance_track(state, seat, ("gold_mine", "quarry").index(option["track"]))


def choose_produce_options(state, step):
    """Produce gold or stone."""
    return [{"kind": "produce", "track": "gold_mine"}, {"kind": "produce", "track": "quarry"}]


def choose_produce(state, step, option):
    """Produce."""
    produce(state, step[1], ("gold_mine", "quarry").index(option["track"]))


def road_choice_options(state, step):
    """King's Road tile I: a gold or a stone."""
    return [{"kind": "resource", "resource": "gold"}, {"kind": "resource", "resource": "stone"}]


def road_choice(state, step, option):
    """Gain it."""
    gain(state, step[1], {option["resource"]: 1})


# Step kind -> options(state, step) and handler(state, step, option).
OPTIONS = {
    "keep_windows": keep_windows_options,
    "mine": mine_options,
    "token": token_options,
    "pick": pick_options,
    "orient_upgrade": orient_upgrade_options,
    "wall_space": wall_space_options,
    "orient_wall": orient_wall_options,
    "building_space": building_space_options,
    "orient_building": orient_building_options,
    "square_half": square_half_options,
    "square_reward": square_reward_options,
    "bridge_iv": bridge_iv_options,
    "bridge_v": bridge_v_options,
    "plank": plank_options,
    "choose_tech": choose_tech_options,
    "choose_structure": choose_structure_options,
    "arrow_up": arrow_up_options,
    "choose_action": choose_action_options,
    "choose_square": choose_square_options,
    "choose_track": choose_track_options,
    "choose_produce": choose_produce_options,
    "road_choice": road_choice_options,
}
HANDLERS = {
    "keep_windows": keep_windows,
    "mine": mine,
    "token": token,
    "pick": pick,
    "orient_upgrade": orient_upgrade,
    "wall_space": wall_space,
    "orient_wall": orient_wall,
    "building_space": building_space,
    "orient_building": orient_building,
    "square_half": square_half,
    "square_reward": square_reward,
    "bridge_iv": bridge_iv,
    "bridge_v": bridge_v,
    "plank": plank,
    "choose_tech": choose_tech,
    "choose_structure": choose_structure,
    "arrow_up": arrow_up,
    "choose_action": choose_action,
    "choose_square": choose_square,
    "choose_track": choose_track,
    "choose_produce": choose_produce,
    "road_choice": road_choice,
}
