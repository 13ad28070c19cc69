"""Shared helpers of the Praga tests: games, invariants, and forcing a position."""

from __future__ import annotations

import json

from engine import make_bot, title
from engine.core import positions
from engine.praga.geometry import ACTIONS

PRAGA = title("praga")
VARIANTS = [
    {},
    {"crane_side": "B", "crane_order": "random"},
    {"kings_road_tiles": ["I", "IIa", "III"], "hunger_wall_board": "A", "cathedral_board": "B"},
    {"kings_road_tiles": ["IIb"], "hunger_wall_board": "B", "cathedral_board": "A"},
]


def new_game(players=2, seed=1, **options):
    return PRAGA.new_game(players, options, seed)


def option(state, **match):
    """The one pending option whose fields include ``match`` (fails loudly otherwise)."""
    found = [o for o in state.decision().options if all(o.get(k) == v for k, v in match.items())]
    assert found, f"no option {match} among {state.decision().options}"
    return found[0]


def choose(state, **match):
    return state.apply(option(state, **match))


def has_option(state, **match) -> bool:
    return any(all(o.get(k) == v for k, v in match.items()) for o in state.decision().options)


def tile_id(state, tile_id_text: str) -> int:
    return state.components.tile_index[tile_id_text]


def put_in_row(state, tile_text: str, slot: int) -> int:
    """Move a tile from wherever it waits (a stack) into a display slot."""
    t = tile_id(state, tile_text)
    info = state.components.tiles[t]
    for pile in state.stacks.values():
        if t in pile:
            pile.remove(t)
    old = state.rows[info.type][slot]
    if old >= 0:
        state.stacks[
            (info.type, state.components.tiles[old].period, state.components.tiles[old].special)
        ].append(old)
    state.rows[info.type][slot] = t
    positions.reload(state)
    return t


def give_tile_on_crane(state, action: str) -> dict:
    """Take (free) a crane tile that offers ``action`` and return the take option."""
    a = ACTIONS.index(action)
    for o in state.decision().options:
        if o["kind"] == "take_tile" and a in state.tile_actions[o["tile"]]:
            return o
    raise AssertionError(f"no crane tile with {action}")


def located_tiles(state) -> list[int]:
    """Every hex tile's index, wherever it is (a tile may appear once only)."""
    out = []
    for pile in state.stacks.values():
        out += pile
    for row in state.rows:
        out += [t for t in row if t >= 0]
    out += list(state.city_tile.values())
    for mine in state.board_stacks:
        for stack in mine:
            out += stack
    out += [t for kind, t in state.discarded if kind == "tile"]
    for step in state.steps:
        if step[0] in (
            "orient_upgrade",
            "wall_space",
            "orient_wall",
            "building_space",
            "orient_building",
        ):
            out.append(step[2])
    return out


def check_invariants(state) -> None:
    """Resources within caps, supplies conserved, every component in exactly one place."""
    components = state.components
    for seat in range(state.players):
        assert 0 <= state.gold[seat] <= 9 and 0 <= state.stone[seat] <= 9
        assert (
            state.silver_windows[seat] >= 0
            and state.gold_windows[seat] >= 0
            and state.eggs[seat] >= 0
        )
        assert state.cubes[seat] >= 0
        assert (
            0 <= state.tech_track[seat] <= components.tech_top
            and 0 <= state.university[seat] <= components.univ_top
        )
        assert state.road_built[seat] <= 5
    assert state.silver_window_supply + sum(state.silver_windows) == components.supply["silver"]
    assert state.gold_window_supply + sum(state.gold_windows) == components.supply["goldwin"]
    tiles = located_tiles(state)
    assert sorted(tiles) == list(range(len(components.tiles))), "hex tiles not conserved"
    techs = [t for pile in state.tech_stacks.values() for t in pile]
    techs += [e[0] for mine in state.techs for e in mine]
    techs += [t for step in state.steps if step[0] == "choose_tech" for t in step[2]]
    assert sorted(techs) == list(range(24)), "technologies not conserved"
    iv = list(state.iv_stack) + [x for x in state.planks if 0 <= x < 100]
    iv += [t for kind, t in state.discarded if kind == "iv"]
    iv += [t for step in state.steps if step[0] == "bridge_iv" for t in step[2]]
    iv += [step[3] for step in state.steps if step[0] == "plank" and step[2] == "iv"]
    assert sorted(iv) == list(range(6)), "bridge IV tiles not conserved"
    v = list(state.v_bridge) + list(state.v_cathedral) + [x for mine in state.v_tiles for x in mine]
    assert sorted(v) == list(range(6)), "bridge V tiles not conserved"
    on_crane = sorted(t for t in state.slot_tile if t >= 0)
    held = [] if state.t_tile < 0 else [state.t_tile]
    assert sorted(on_crane + held) == list(range(6)) or state.over
    assert state.slot_tile[components.crane["box_slot"]] == -1


def play_checked(players, seed, options, check_every=True):
    """A random game with invariants checked after every decision; returns the final state."""
    state = PRAGA.new_game(players, options, seed)
    bots = [make_bot("praga", "random", seed * 10 + i) for i in range(players)]
    while not state.is_over():
        d = state.decision()
        assert d.options, f"decision {d.kind} has no options"
        for o in d.options:
            assert isinstance(o, dict) and "kind" in o
        state.apply(bots[d.seat].choose(None, d.kind, d.options))
        if check_every:
            check_invariants(state)
    return state


def roundtrip(value):
    return json.loads(json.dumps(value))
