"""Worlds a bot may believe in: a Praga state rebuilt from one seat's observation, with the
hidden orders (face-down stacks, technology stacks, bridge IV and V piles) sampled.

The search bot (``engine.praga.search``) sees only its observation, as any bot does. At the
start of its turn the observation holds every public fact the rules read next; this module
puts them into a :class:`PragaState` (``public_world``) and deals the tiles the seat has not
seen into the face-down piles in a sampled order (``sample_hidden``). A few facts of the past
that the observation does not show are rebuilt from what it does show: which board edges
and corners already paid (every matching pair between the tiles now on top), and which
upgrades were laid in period I (the period printed on the upgrade tiles on the board).
Tiles that left the game unseen (refreshed rows at the period change, discarded bridge
tiles) are not known either, so the piles are sampled from every unseen tile of their kind.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.rng import Rng

from .city import place_city_tile
from .geometry import ACTIONS
from .turn import start_turn
from .vocabulary import ROW_NAMES


def is_turn_start(obs: dict) -> bool:
    """True at the first menu of the observing seat's own turn (nothing done yet)."""
    ts = obs["turn_state"]
    return (
        obs["active"] == obs["seat"]
        and ts["tile"] == -1
        and not ts["main_action_done"]
        and not ts["extra_action_used"]
        and not ts["refresh_used"]
        and not ts["action_bonus_claims"]
        and not any(ts["lateral_moves"].values())
        and not ts["road_effects"]["free"]
        and not ts["road_effects"]["egg"]
        and ts["placing"] is None
    )


def public_world(title, obs: dict, rule_options: dict | None = None):
    """A state at the turn start ``obs`` shows, hidden piles not yet dealt (see
    :func:`sample_hidden`). ``rule_options`` are the game's (public: the ``start`` message
    gives them); the title's defaults if omitted."""
    n = obs["players"]
    state = title.new_game(n, rule_options, seed=0)
    c = state.components
    key = str(n)
    crane = c.crane
    state.turn_no = obs["turn"]
    state.active = obs["active"]
    state.period = obs["period"]
    players = obs["all_players"]
    state.turns_taken = [p["turns_taken"] for p in players]
    # crane: one step per turn, one more each time the box passes and the platform drops
    state.platform = obs["crane"]["platform"]
    state.crane_rotation = (
        crane["box_start"][key] + state.turn_no + state.platform - crane["platform_start"][key]
    ) % c.wheel_slots
    state.era_crossed = (
        state.period == 1 and max(n, 2) < 3 and state.platform >= crane["era_line"][key]
    )
    state.slot_tile = [-1] * c.wheel_slots
    actions = list(state.tile_actions)
    for tile in obs["crane"]["tiles"]:
        t = tile["tile"]
        position = tile["position"]
        state.slot_tile[(position - state.crane_rotation) % c.wheel_slots] = t
        actions[t] = tuple(ACTIONS.index(a) for a in tile["actions"])
        printed = crane["frame"][position].get("points", 0)
        state.five_point_token[t] = (tile["points"] - printed) // c.past_blue_points
    state.tile_actions = actions
    # display rows (the piles are dealt by sample_hidden)
    display = obs["rows"]["display"]
    state.rows = [
        [-1 if x is None else c.tile_index[x["id"]] for x in display[name]] for name in ROW_NAMES
    ]
    # city and squares
    state.city_tile, state.city_rotation, state.city_cube, state.city_blue = {}, {}, {}, {}
    for b in obs["city"]["buildings"]:
        place_city_tile(state, b["hex"], c.tile_index[b["tile"]], b["rotation"], b["cube"])
    square_index = {sq["id"]: i for i, sq in enumerate(c.squares)}
    for sq in obs["city"]["squares"]:
        state.square_tile[sq["hex"]] = -1 if sq["tile"] is None else square_index[sq["tile"]]
        state.square_done[sq["hex"]] = sq["resolved"]
    # bridge
    iv_index = {x["id"]: i for i, x in enumerate(c.bridge_iv)}
    v_index = {x["id"]: i for i, x in enumerate(c.bridge_v)}
    for i, plank in enumerate(obs["bridge"]["planks"]):
        tile = plank["tile"]
        state.planks[i] = -1 if tile is None else iv_index.get(tile, 100 + v_index.get(tile, 0))
        state.plank_side[i] = c.planks[i]["sides"].index(plank["reward"])
    state.river_tokens = [obs["river"][tok["id"]] for tok in c.production_tokens]
    state.seal_owner = [obs["seals"][seal["id"]] for seal in c.seals]
    state.gold_window_supply = obs["supply"]["gold_windows"]
    state.silver_window_supply = obs["supply"]["silver_windows"]
    # players
    token_index = {tok["id"]: i for i, tok in enumerate(c.production_tokens)}
    for seat, p in enumerate(players):
        _player_into(state, seat, p, token_index, v_index)
    start_turn(state)
    state.view_cache = {}
    state._decision = None
    return state


_SCALARS = {
    "score": "score",
    "gold": "gold",
    "stone": "stone",
    "silver_windows": "silver_windows",
    "gold_windows": "gold_windows",
    "eggs": "eggs",
    "red_tokens": "red_tokens",
    "blue_tokens": "blue_tokens",
    "gold_mine": "gold_mine_pos",
    "quarry": "quarry_pos",
    "technology": "tech_track",
    "university": "university",
    "kings_road": "road_built",
    "cubes": "cubes",
    "wealth_bonuses": "wealth_bonuses",
    "seal_rights": "seal_rights",
    "walls": "walls",
    "upgrades": "upgrades",
}


def _player_into(state, seat: int, p: dict, token_index: dict, v_index: dict) -> None:
    c = state.components
    for field, attr in _SCALARS.items():
        getattr(state, attr)[seat] = p[field]
    state.structure_pos[seat] = [list(p["hunger_wall"]), list(p["cathedral"])]
    state.track_tokens[seat] = [[token_index[x] for x in track] for track in p["production_tokens"]]
    # held before this turn, so usable now (turn acquired: -1)
    state.techs[seat] = [[c.tech_index[t["tech"]], -1, t["used"]] for t in p["technologies"]]
    state.unused_techs[seat] = [
        c.tech_index[t["tech"]] for t in p["technologies"] if t["level"] >= 3 and not t["used"]
    ]
    state.v_tiles[seat] = [v_index[v] for v in p["v_tiles"]]
    size = c.action_board.size
    stacks, tops, rotations = [()] * size, [-1] * size, [0] * size
    for entry in p["action_board"]:
        h = entry["hex"]
        stacks[h] = tuple(c.tile_index[x] for x in entry["tiles"])
        tops[h], rotations[h] = stacks[h][-1], entry["rotation"]
    state.board_stacks[seat] = stacks
    state.board_top[seat], state.board_rotation[seat] = tuple(tops), tuple(rotations)
    state.period1_upgrades[seat] = sum(
        1
        for stack in stacks
        for t in stack
        if c.tiles[t].type == 0 and c.tiles[t].period == 1  # TILE_TYPES[0]: upgrade
    )
    _paid_meetings(state, seat, tops, rotations)


def _paid_meetings(state, seat: int, tops: list, rotations: list) -> None:
    """Every edge pair and corner meeting between tiles now on top counts as paid (they were
    paid when the later of the two was laid), as ``board.place_board_tile`` marks them."""
    c = state.components
    board = c.action_board.board
    used = [0] * c.action_board.size
    pairs = set()
    for h in range(c.action_board.size):
        if tops[h] < 0:
            continue
        info = c.tiles[tops[h]]
        for k in range(6):
            n = board.neighbours[h][k]
            if info.edges[(k - rotations[h]) % 6] is not None and n >= 0 and tops[n] >= 0:
                back = (k + 3) % 6
                if c.tiles[tops[n]].edges[(back - rotations[n]) % 6] is not None:
                    used[h] |= 1 << k
            if info.corners[(k - rotations[h]) % 6] is None:
                continue
            v = board.vertices[h][k]
            for h2, k2 in board.vertex_hexes[v]:
                if h2 == h or tops[h2] < 0:
                    continue
                if c.tiles[tops[h2]].corners[(k2 - rotations[h2]) % 6] is None:
                    continue
                key = ((v * 32 + min(h, h2)) * 32 + max(h, h2)) * 1024
                pairs.add(key + tops[h2])
                pairs.add(key + tops[h])
    state.board_edges_used[seat] = tuple(used)
    state.board_corner_pairs[seat] = frozenset(pairs)


class HiddenPiles:
    """What the observing seat has not seen, per face-down pile, and how many tiles each
    pile holds: everything :func:`sample_hidden` deals from."""

    def __init__(self, world, obs: dict):
        c = world.components
        seen = set()
        for row in world.rows:
            seen.update(t for t in row if t >= 0)
        seen.update(world.city_tile.values())
        for stacks in world.board_stacks:
            for stack in stacks:
                seen.update(stack)
        counts = obs["rows"]["stacks"]
        self.stacks = {}
        for (t, period, special), tiles in c.stacks.items():
            if period == world.period:
                count = counts[f"{ROW_NAMES[t]}_{'special' if special else 'normal'}"]
            else:  # period II piles are whole in period I; period I piles are gone in II
                count = len(tiles) if period > world.period else 0
            self.stacks[(t, period, special)] = ([x for x in tiles if x not in seen], count)
        held = {tid for mine in world.techs for tid, _turn, _used in mine}
        self.techs = {
            level: (
                [i for i, t in enumerate(c.techs) if t["level"] == level and i not in held],
                obs["technology_stacks"][str(level)],
            )
            for level in (1, 2, 3, 4)
        }
        on_planks = set(world.planks)
        self.iv = (
            [i for i in range(len(c.bridge_iv)) if i not in on_planks],
            obs["bridge"]["iv_stack"],
        )
        owned_v = {v for mine in world.v_tiles for v in mine}
        self.v = [
            i for i in range(len(c.bridge_v)) if i not in owned_v and 100 + i not in on_planks
        ]
        self.v_counts = (obs["bridge"]["v_by_bridge"], obs["bridge"]["v_by_cathedral"])


def _deal(rng: Rng, pool: list, count: int) -> list:
    """``count`` tiles of ``pool`` in a uniformly random order (a partial Fisher-Yates)."""
    items = list(pool)
    count = min(count, len(items))
    for i in range(count):
        j = i + rng.below(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items[:count]


def sample_hidden(world, hidden: HiddenPiles, rng: Rng, chance_seed: int):
    """A clone of ``world`` with every face-down pile dealt from the unseen tiles (order and,
    where more are unseen than the pile holds, which ones) and its own future chance."""
    twin = world.clone()
    twin.stacks = {k: _deal(rng, pool, count) for k, (pool, count) in hidden.stacks.items()}
    twin.tech_stacks = {
        level: _deal(rng, pool, count) for level, (pool, count) in hidden.techs.items()
    }
    twin.iv_stack = _deal(rng, *hidden.iv)
    by_bridge, by_cathedral = hidden.v_counts
    v = _deal(rng, hidden.v, by_bridge + by_cathedral)
    twin.v_bridge, twin.v_cathedral = v[:by_bridge], v[by_bridge:]
    twin._chance = Chance(chance_seed)
    twin._decision = None
    return twin


def align_display(world, obs: dict) -> None:
    """Make the world's display rows what ``obs`` shows (tiles drawn since the world was
    dealt): a shown tile comes out of the world's piles, the world's tile goes in its place."""
    c = world.components
    display = obs["rows"]["display"]
    for t, name in enumerate(ROW_NAMES):
        for slot, shown in enumerate(display[name]):
            want = -1 if shown is None else c.tile_index[shown["id"]]
            have = world.rows[t][slot]
            if want == have:
                continue
            world.rows[t][slot] = want
            for pile in world.stacks.values():
                if want in pile:
                    i = pile.index(want)
                    if have >= 0:
                        pile[i] = have
                    else:
                        del pile[i]
                    break
    world._decision = None
