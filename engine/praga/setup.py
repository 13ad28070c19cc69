"""Setting up a game (seed §设置, §行动起重机设置, §玩家图板设置)."""

from __future__ import annotations

from .city import place_city_tile
from .display import fill_row
from .geometry import ACTIONS
from .turn import start_turn


def setup_game(state) -> None:
    """Every component in its starting place, then the first turn (seed §设置)."""
    components = state.components = state.title.components
    chance = state._chance
    opts = state.options
    state.solo = state.players == 1
    n = state.players
    key = str(n)
    state.turn_no = 0
    state.turns_taken = [0] * n
    state.active = 0
    state.period = 1
    state.over = False
    # crane (seed §行动起重机设置)
    side = components.crane["tiles_b" if opts["crane_side"] == "B" else "tiles_a"]["pairs"]
    state.tile_actions = [(ACTIONS.index(a), ACTIONS.index(b)) for a, b in side]
    order = list(range(len(side)))
    if opts["crane_order"] == "random":
        chance.shuffle(order)
    state.crane_rotation = components.crane["box_start"][key]
    state.slot_tile = [-1] * components.wheel_slots
    position = 0
    for t in order:
        while (position - state.crane_rotation) % components.wheel_slots == components.crane[
            "box_slot"
        ]:
            position += 1
        state.slot_tile[(position - state.crane_rotation) % components.wheel_slots] = t
        position += 1
    state.crane_setup = tuple(order)  # for analytics: the action-tile order from red start
    state.five_point_token = [0] * len(side)
    state.platform = components.crane["platform_start"][key]
    state.era_crossed = False
    # hex tile stacks (seed §设置 12) and rows: three normal slots then the special one
    state.stacks = {}
    for k, tiles in components.stacks.items():
        pile = list(tiles)
        if k[1] == 1:
            chance.shuffle(pile)
        state.stacks[k] = pile
    state.rows = [[-1, -1, -1, -1] for _ in range(3)]
    # city: pre-built buildings at 2-3 players (seed §设置 13), then squares (§设置 7)
    city = components.city
    state.city_tile = {}
    state.city_rotation = {}
    state.city_cube = {}
    state.city_blue = {}
    for h in city.spaces:
        mark = city.prebuilt_mark.get(h)
        if mark is not None and max(n, 2) <= mark:
            tile = state.stacks[(2, 1, False)].pop()
            place_city_tile(state, h, tile, 0, owner=-1)
    state.square_tile = {}
    state.square_done = {}
    for colour in ("a", "b"):
        spaces = [
            square
            for square in city.squares
            if city.square_colour[square] == colour and city.square_min_players[square] <= max(n, 2)
        ]
        tiles = [i for i, sq in enumerate(components.squares) if sq["colour"] == colour]
        chance.shuffle(tiles)
        for square in spaces:
            state.square_tile[square] = tiles.pop() if tiles else -1
    for square in city.squares:
        state.square_tile.setdefault(square, -1)
        state.square_done[square] = False
    for t in range(3):
        fill_row(state, t)
    # bridge (seed §设置 2-4), production tokens (5), technologies (8)
    state.iv_stack = list(range(len(components.bridge_iv)))
    chance.shuffle(state.iv_stack)
    v = list(range(len(components.bridge_v)))
    chance.shuffle(v)
    half = len(v) // 2
    state.v_bridge, state.v_cathedral = v[:half], v[half:]
    state.planks = [-1] * len(components.planks)
    state.plank_side = [chance.below(2) for _ in components.planks]
    state.river_tokens = [
        tok["count"] if max(n, 2) >= tok["min_players"] else 0
        for tok in components.production_tokens
    ]
    state.tech_stacks = {}
    for level in (1, 2, 3, 4):
        pile = [i for i, t in enumerate(components.techs) if t["level"] == level]
        chance.shuffle(pile)
        state.tech_stacks[level] = pile
    state.seal_owner = [-1] * len(components.seals)
    state.gold_window_supply = components.supply["goldwin"]
    state.silver_window_supply = components.supply["silver"]
    state.discarded = []
    # players (seed §玩家图板设置)
    start = components.board["start"]
    state.score = [0] * n
    state.gold = [start["gold"]] * n
    state.stone = [start["stone"]] * n
    state.silver_windows = [0] * n
    state.gold_windows = [0] * n
    state.eggs = [0] * n
    state.red_tokens = [0] * n
    state.blue_tokens = [0] * n
    state.gold_mine_pos = [components.gold_track["start"]] * n
    state.quarry_pos = [components.quarry_track["start"]] * n
    state.tech_track = [0] * n
    state.university = [0] * n
    state.structure_pos = [[[0, 0], [0, 0]] for _ in range(n)]  # [structure][row, column]
    state.road_built = [0] * n
    state.cubes = [components.board["cubes"] - components.board["cubes_on_board_at_start"]] * n
    state.wealth_bonuses = [0] * n  # bits: 1 gold6, 2 stone6, 4 nine
    state.track_tokens = [[[], []] for _ in range(n)]
    state.seal_rights = [0] * n
    state.techs = [[] for _ in range(n)]  # [tech, turn acquired, used]
    # action boards are tuples, replaced on write: a clone copies only the outer lists
    size = components.action_board.size
    state.board_top = [(-1,) * size for _ in range(n)]
    state.board_rotation = [(0,) * size for _ in range(n)]
    state.board_edges_used = [(0,) * size for _ in range(n)]
    state.board_stacks = [[()] * size for _ in range(n)]  # tuples: cheap to copy
    state.board_corner_pairs = [frozenset() for _ in range(n)]
    state.walls = [0] * n
    state.upgrades = [0] * n
    state.period1_upgrades = [0] * n
    state.v_tiles = [[] for _ in range(n)]
    state.unused_techs = [[] for _ in range(n)]
    state.final = None
    state.steps = []
    state.view_cache = {}
    start_turn(state)
