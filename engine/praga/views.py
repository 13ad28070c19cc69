"""What a seat may see (docs/bots/praga.md): every public fact, never a face-down order."""

from __future__ import annotations

from .geometry import ACTIONS

ROWS = ("upgrade", "wall", "building")


def _tile(state, t: int):
    return None if t < 0 else state.c.tiles[t].public


def _cached(state, name: str, key, build):
    """Sections that rarely change are rebuilt only when their key changes (read-only)."""
    cache = state.view_cache
    hit = cache.get(name)
    if hit is not None and hit[0] == key:
        return hit[1]
    value = build()
    cache[name] = (key, value)
    return value


def _action_board(state, s: int) -> list:
    c = state.c
    return [
        {"hex": h, "tiles": [c.tiles[x].id for x in stack], "rotation": state.ab_orient[s][h]}
        for h, stack in enumerate(state.ab_stack[s])
        if stack
    ]


def _technologies(state, s: int) -> list:
    c = state.c
    return [
        {"tech": c.techs[t]["id"], "level": c.techs[t]["level"], "used": used}
        for t, _turn, used in state.techs[s]
    ]


def observation(state, seat: int) -> dict:
    """The observation of ``seat``: boards, tracks, display, crane, everyone's holdings."""
    c = state.c
    players = [
        _cached(state, f"player{s}", _player_key(state, s), lambda s=s: _player(state, s))
        for s in range(state.players)
    ]
    return {
        "seat": seat,
        "players": state.players,
        "solo": state.solo,
        "period": state.period,
        "turn": state.turn_no,
        "active": state.cur,
        "crane": _cached(
            state,
            "crane",
            (state.rot, tuple(state.slot_tile), tuple(state.token5), state.platform),
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
        "river": {tok["id"]: state.river[i] for i, tok in enumerate(c.production_tokens)},
        "seals": {seal["id"]: state.seal_owner[i] for i, seal in enumerate(c.seals)},
        "supply": {"gold_windows": state.goldwin_supply, "silver_windows": state.silver_supply},
        "technology_stacks": {str(k): len(v) for k, v in state.tech_stacks.items()},
        "turn_state": {
            "tile": state.t_tile,
            "wheel_bonus": None
            if state.t_wheel is None
            else c.crane["slot_bonuses"][state.t_wheel],
            "special_available": state.t_special,
            "main_action_done": state.t_main_done,
            "extra_action_used": state.t_extra,
            "refresh_used": state.t_refresh,
            "action_bonus_claims": [ACTIONS[a] for a in state.t_claims],
            "lateral_moves": {"hunger_wall": state.t_lateral[0], "cathedral": state.t_lateral[1]},
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
    c = state.c
    city = c.city
    return {
        "buildings": [
            {
                "hex": h,
                "row": city.rowcol[h][0],
                "col": city.rowcol[h][1],
                "tile": c.tiles[t].id,
                "rotation": state.city_orient[h],
                "cube": state.city_cube.get(h, -1),
            }
            for h, t in sorted(state.city_tile.items())
        ],
        "squares": [
            {
                "hex": sq,
                "row": city.rowcol[sq][0],
                "col": city.rowcol[sq][1],
                "tile": None if t < 0 else c.squares[t]["id"],
                "upper": None if t < 0 else c.squares[t]["upper"],
                "lower": None if t < 0 else c.squares[t]["lower"],
                "resolved": state.square_done[sq],
                "spaces": city.square_spaces[sq],
            }
            for sq, t in sorted(state.square_tile.items())
        ],
    }


def _bridge(state) -> dict:
    c = state.c
    return {
        "planks": [
            {
                "reward": c.planks[i]["sides"][state.plank_side[i]],
                "tile": None
                if x < 0
                else (c.bridge_iv[x]["id"] if x < 100 else c.bridge_v[x - 100]["id"]),
            }
            for i, x in enumerate(state.planks)
        ],
        "iv_stack": len(state.iv_stack),
        "v_by_bridge": len(state.v_bridge),
        "v_by_cathedral": len(state.v_cathedral),
    }


def _crane(state) -> dict:
    c = state.c
    frame = c.crane["frame"]
    crane = []
    for slot, t in enumerate(state.slot_tile):
        if t >= 0:
            f = frame[(slot + state.rot) % 12]
            crane.append(
                {
                    "tile": t,
                    "actions": [ACTIONS[a] for a in state.tile_actions[t]],
                    "position": (slot + state.rot) % 12,
                    "zone": f["zone"],
                    "cost": f.get("cost", 0),
                    "points": f.get("points", 0) + 5 * state.token5[t],
                    "bonus": c.crane["slot_bonuses"][slot],
                }
            )
    crane.sort(key=lambda x: x["position"])
    return {
        "tiles": crane,
        "platform": state.platform,
        "platform_spaces": c.crane["platform_spaces"],
    }


def _player_key(state, s: int) -> tuple:
    p0, p1 = state.pos[s]
    return (
        state.score[s],
        state.gold[s],
        state.stone[s],
        state.silver[s],
        state.goldwin[s],
        state.eggs[s],
        state.red[s],
        state.blue[s],
        state.gold_pos[s],
        state.quarry_pos[s],
        state.tech[s],
        state.univ[s],
        p0[0],
        p0[1],
        p1[0],
        p1[1],
        state.road[s],
        state.cubes[s],
        state.wealth[s],
        len(state.track_tokens[s][0]),
        len(state.track_tokens[s][1]),
        state.seal_rights[s],
        len(state.techs[s]),
        len(state.kept_tech[s]),
        state.walls[s],
        state.upgrades[s],
        len(state.v_tiles[s]),
        state.turns_taken[s],
    )


def _player(state, s: int) -> dict:
    c = state.c
    return {
        "score": state.score[s],
        "gold": state.gold[s],
        "stone": state.stone[s],
        "silver_windows": state.silver[s],
        "gold_windows": state.goldwin[s],
        "eggs": state.eggs[s],
        "red_tokens": state.red[s],
        "blue_tokens": state.blue[s],
        "gold_mine": state.gold_pos[s],
        "quarry": state.quarry_pos[s],
        "technology": state.tech[s],
        "university": state.univ[s],
        "hunger_wall": list(state.pos[s][0]),
        "cathedral": list(state.pos[s][1]),
        "kings_road": state.road[s],
        "cubes": state.cubes[s],
        "wealth_bonuses": state.wealth[s],
        "production_tokens": [
            [c.production_tokens[i]["id"] for i in state.track_tokens[s][k]] for k in (0, 1)
        ],
        "seal_rights": state.seal_rights[s],
        "technologies": _cached(
            state,
            f"techs{s}",
            (len(state.techs[s]), len(state.kept_tech[s])),
            lambda s=s: _technologies(state, s),
        ),
        "action_board": _cached(
            state,
            f"board{s}",
            state.upgrades[s] + state.walls[s],
            lambda s=s: _action_board(state, s),
        ),
        "walls": state.walls[s],
        "upgrades": state.upgrades[s],
        "v_tiles": [c.bridge_v[v]["id"] for v in state.v_tiles[s]],
        "turns_taken": state.turns_taken[s],
    }


PLACING_STEPS = ("orient_upgrade", "wall_space", "orient_wall", "building_space", "orient_building")


def _placing(state):
    """The hex tile being placed (face up, so public) and its hex once chosen."""
    if not state.steps or state.steps[-1][0] not in PLACING_STEPS:
        return None
    step = state.steps[-1]
    tile = state.c.tiles[step[2]]
    if step[0] == "orient_upgrade":
        hex_ = 1 + tile.action
    elif step[0] in ("orient_wall", "orient_building"):
        hex_ = step[3]
    else:
        hex_ = None
    return {"tile": tile.public, "hex": hex_}
