"""What a seat may see (docs/bots/praga.md): every public fact, never a face-down order."""

from __future__ import annotations

from .geometry import ACTIONS

ROWS = ("upgrade", "wall", "building")


def _tile(state, t: int):
    return None if t < 0 else state.components.tiles[t].public


def _cached(state, name: str, key, build):
    """Sections that rarely change are rebuilt only when their key changes (read-only)."""
    cache = state.view_cache
    hit = cache.get(name)
    if hit is not None and hit[0] == key:
        return hit[1]
    value = build()
    cache[name] = (key, value)
    return value


def _action_board(state, seat: int) -> list:
    components = state.components
    return [
        {
            "hex": h,
            "tiles": [components.tiles[x].id for x in stack],
            "rotation": state.board_rotation[seat][h],
        }
        for h, stack in enumerate(state.board_stacks[seat])
        if stack
    ]


def _technologies(state, seat: int) -> list:
    components = state.components
    return [
        {"tech": components.techs[t]["id"], "level": components.techs[t]["level"], "used": used}
        for t, _turn, used in state.techs[seat]
    ]


def observe(state, seat: int) -> dict:
    """The observation of ``seat``: boards, tracks, display, crane, everyone's holdings."""
    components = state.components
    players = [
        _cached(
            state, f"player{seat}", _player_key(state, seat), lambda seat=seat: _player(state, seat)
        )
        for seat in range(state.players)
    ]
    return {
        "seat": seat,
        "players": state.players,
        "solo": state.solo,
        "period": state.period,
        "turn": state.turn_no,
        "active": state.active,
        "crane": _cached(
            state,
            "crane",
            (
                state.crane_rotation,
                tuple(state.slot_tile),
                tuple(state.five_point_token),
                state.platform,
            ),
            lambda: _crane(state),
        ),
        "rows": _cached(
            state,
            "rows",
            (state.period, *state.rows[0], *state.rows[1], *state.rows[2]),
            lambda: _rows(state),
        ),
        "city": _cached(
            state,
            "city",
            (len(state.city_tile), len(state.city_cube), sum(state.square_done.values())),
            lambda: _city(state),
        ),
        "bridge": _cached(
            state,
            "bridge",
            (*state.planks, len(state.iv_stack), len(state.v_bridge), len(state.v_cathedral)),
            lambda: _bridge(state),
        ),
        "river": {
            tok["id"]: state.river_tokens[i] for i, tok in enumerate(components.production_tokens)
        },
        "seals": {seal["id"]: state.seal_owner[i] for i, seal in enumerate(components.seals)},
        "supply": {
            "gold_windows": state.gold_window_supply,
            "silver_windows": state.silver_window_supply,
        },
        "technology_stacks": {str(k): len(v) for k, v in state.tech_stacks.items()},
        "turn_state": {
            "tile": state.t_tile,
            "wheel_bonus": None
            if state.t_wheel_slot is None
            else components.crane["slot_bonuses"][state.t_wheel_slot],
            "special_available": state.t_special,
            "main_action_done": state.t_main_done,
            "extra_action_used": state.t_extra_done,
            "refresh_used": state.t_refresh_done,
            "action_bonus_claims": [ACTIONS[a] for a in state.t_bonus_claims],
            "lateral_moves": {
                "hunger_wall": state.t_lateral_moves[0],
                "cathedral": state.t_lateral_moves[1],
            },
            "road_effects": {"free": list(state.t_road_free), "egg": list(state.t_road_egg)},
            "placing": _placing(state),
        },
        "you": players[seat] if seat < state.players else None,
        "all_players": players,
    }


def _rows(state) -> dict:
    return {
        "display": {ROWS[t]: [_tile(state, x) for x in state.rows[t]] for t in range(3)},
        "stacks": {
            f"{ROWS[t]}_{'special' if sp else 'normal'}": len(state.stacks[(t, state.period, sp)])
            for t in range(3)
            for sp in (False, True)
        },
    }


def _city(state) -> dict:
    components = state.components
    city = components.city
    return {
        "buildings": [
            {
                "hex": h,
                "row": city.rowcol[h][0],
                "col": city.rowcol[h][1],
                "tile": components.tiles[t].id,
                "rotation": state.city_rotation[h],
                "cube": state.city_cube.get(h, -1),
            }
            for h, t in sorted(state.city_tile.items())
        ],
        "squares": [
            {
                "hex": sq,
                "row": city.rowcol[sq][0],
                "col": city.rowcol[sq][1],
                "tile": None if t < 0 else components.squares[t]["id"],
                "upper": None if t < 0 else components.squares[t]["upper"],
                "lower": None if t < 0 else components.squares[t]["lower"],
                "resolved": state.square_done[sq],
                "spaces": city.square_spaces[sq],
            }
            for sq, t in sorted(state.square_tile.items())
        ],
    }


def _bridge(state) -> dict:
    components = state.components
    return {
        "planks": [
            {
                "reward": components.planks[i]["sides"][state.plank_side[i]],
                "tile": None
                if x < 0
                else (
                    components.bridge_iv[x]["id"] if x < 100 else components.bridge_v[x - 100]["id"]
                ),
            }
            for i, x in enumerate(state.planks)
        ],
        "iv_stack": len(state.iv_stack),
        "v_by_bridge": len(state.v_bridge),
        "v_by_cathedral": len(state.v_cathedral),
    }


def _crane(state) -> dict:
    components = state.components
    frame = components.crane["frame"]
    crane = []
    for slot, t in enumerate(state.slot_tile):
        if t >= 0:
            f = frame[(slot + state.crane_rotation) % state.components.wheel_slots]
            crane.append(
                {
                    "tile": t,
                    "actions": [ACTIONS[a] for a in state.tile_actions[t]],
                    "position": (slot + state.crane_rotation) % state.components.wheel_slots,
                    "zone": f["zone"],
                    "cost": f.get("cost", 0),
                    "points": f.get("points", 0)
                    + components.past_blue_points * state.five_point_token[t],
                    "bonus": components.crane["slot_bonuses"][slot],
                }
            )
    crane.sort(key=lambda x: x["position"])
    return {
        "tiles": crane,
        "platform": state.platform,
        "platform_spaces": components.crane["platform_spaces"],
    }


def _player_key(state, seat: int) -> tuple:
    p0, p1 = state.structure_pos[seat]
    return (
        state.score[seat],
        state.gold[seat],
        state.stone[seat],
        state.silver_windows[seat],
        state.gold_windows[seat],
        state.eggs[seat],
        state.red_tokens[seat],
        state.blue_tokens[seat],
        state.gold_mine_pos[seat],
        state.quarry_pos[seat],
        state.tech_track[seat],
        state.university[seat],
        p0[0],
        p0[1],
        p1[0],
        p1[1],
        state.road_built[seat],
        state.cubes[seat],
        state.wealth_bonuses[seat],
        len(state.track_tokens[seat][0]),
        len(state.track_tokens[seat][1]),
        state.seal_rights[seat],
        len(state.techs[seat]),
        len(state.unused_techs[seat]),
        state.walls[seat],
        state.upgrades[seat],
        len(state.v_tiles[seat]),
        state.turns_taken[seat],
    )


def _player(state, seat: int) -> dict:
    components = state.components
    return {
        "score": state.score[seat],
        "gold": state.gold[seat],
        "stone": state.stone[seat],
        "silver_windows": state.silver_windows[seat],
        "gold_windows": state.gold_windows[seat],
        "eggs": state.eggs[seat],
        "red_tokens": state.red_tokens[seat],
        "blue_tokens": state.blue_tokens[seat],
        "gold_mine": state.gold_mine_pos[seat],
        "quarry": state.quarry_pos[seat],
        "technology": state.tech_track[seat],
        "university": state.university[seat],
        "hunger_wall": list(state.structure_pos[seat][0]),
        "cathedral": list(state.structure_pos[seat][1]),
        "kings_road": state.road_built[seat],
        "cubes": state.cubes[seat],
        "wealth_bonuses": state.wealth_bonuses[seat],
        "production_tokens": [
            [components.production_tokens[i]["id"] for i in state.track_tokens[seat][k]]
            for k in (0, 1)
        ],
        "seal_rights": state.seal_rights[seat],
        "technologies": _cached(
            state,
            f"techs{seat}",
            (len(state.techs[seat]), len(state.unused_techs[seat])),
            lambda seat=seat: _technologies(state, seat),
        ),
        "action_board": _cached(
            state,
            f"board{seat}",
            state.upgrades[seat] + state.walls[seat],
            lambda seat=seat: _action_board(state, seat),
        ),
        "walls": state.walls[seat],
        "upgrades": state.upgrades[seat],
        "v_tiles": [components.bridge_v[v]["id"] for v in state.v_tiles[seat]],
        "turns_taken": state.turns_taken[seat],
    }


PLACING_STEPS = ("orient_upgrade", "wall_space", "orient_wall", "building_space", "orient_building")


def _placing(state):
    """The hex tile being placed (face up, so public) and its hex once chosen."""
    if not state.steps or state.steps[-1][0] not in PLACING_STEPS:
        return None
    step = state.steps[-1]
    tile = state.components.tiles[step[2]]
    if step[0] == "orient_upgrade":
        hex_ = 1 + tile.action
    elif step[0] in ("orient_wall", "orient_building"):
        hex_ = step[3]
    else:
        hex_ = None
    return {"tile": tile.public, "hex": hex_}
