"""Scenario tests: setup for 1-4 players (seed §设置, §行动起重机设置, §玩家图板设置) and variants."""

import pytest

from engine import ConfigError
from engine.core import positions
from engine.praga.geometry import ACTIONS

from .helpers import PRAGA, choose, new_game


def crane_order(g):
    """Action tiles from the start of the red zone, clockwise."""
    out = []
    for position in range(12):
        t = g.slot_tile[(position - g.crane_rotation) % 12]
        if t >= 0:
            out.append(g.tile_actions[t])
    return out


def test_first_game_crane_order_from_the_red_zone_is_upgrade_wall_building_twice():
    g = new_game(4, 1)
    firsts = [ACTIONS[pair[0]] for pair in crane_order(g)]
    assert firsts == ["upgrade", "wall", "building", "upgrade", "wall", "building"]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_all_six_tiles_start_in_the_red_and_green_zones_never_on_the_box(players):
    g = new_game(players, 3, crane_order="random")
    zones = []
    for slot, t in enumerate(g.slot_tile):
        if t >= 0:
            zones.append(g.components.crane["frame"][(slot + g.crane_rotation) % 12]["zone"])
    assert len(zones) == 6 and set(zones) <= {"red", "green"}
    assert g.slot_tile[g.components.crane["box_slot"]] == -1


def test_side_b_uses_the_less_regular_pairs_each_action_twice():
    g = new_game(3, 1, crane_side="B", crane_order="random")
    pairs = [tuple(ACTIONS[a] for a in p) for p in g.tile_actions]
    assert pairs != [tuple(ACTIONS[a] for a in p) for p in new_game(3, 1).tile_actions]
    counts = {a: sum(a in p for p in pairs) for a in ACTIONS}
    assert set(counts.values()) == {2}


def test_random_crane_order_differs_between_seeds():
    orders = {tuple(crane_order(new_game(4, seed, crane_order="random"))) for seed in range(8)}
    assert len(orders) > 1


@pytest.mark.parametrize("players, tokens", [(1, 4), (2, 4), (3, 6), (4, 8)])
def test_production_tokens_in_the_river_by_player_count(players, tokens):
    assert sum(new_game(players, 1).river_tokens) == tokens


def test_bridge_stacks_iv_face_down_and_v_split_three_by_the_bridge_three_by_the_cathedral():
    g = new_game(4, 9)
    assert len(g.iv_stack) == 6
    assert len(g.v_bridge) == 3 and len(g.v_cathedral) == 3
    assert sorted(g.v_bridge + g.v_cathedral) == list(range(6))


def test_players_start_with_two_gold_two_stone_and_the_seeds_track_spaces():
    g = new_game(4, 1)
    assert g.gold == [2] * 4 and g.stone == [2] * 4
    assert g.quarry_pos == [3] * 4 and g.gold_mine_pos == [4] * 4
    assert g.tech_track == [0] * 4 and g.university == [0] * 4
    assert g.structure_pos == [[[0, 0], [0, 0]]] * 4
    assert g.cubes == [2] * 4, "11 cubes: 4 tracks, 3 wealth spaces, 2 structures; 2 aside"


def test_each_row_shows_three_normal_tiles_and_one_special_of_period_one():
    g = new_game(4, 1)
    for t, row in enumerate(g.rows):
        infos = [g.components.tiles[x] for x in row]
        assert [i.special for i in infos] == [False, False, False, True]
        assert all(i.period == 1 and i.type == t for i in infos)
    assert all(len(g.tech_stacks[level]) == 6 for level in (1, 2, 3, 4))


def test_solo_is_set_up_like_two_players_and_the_player_starts():
    solo, two = new_game(1, 4), new_game(2, 4)
    assert solo.crane_rotation == two.crane_rotation and solo.platform == two.platform
    assert len(solo.city_tile) == len(two.city_tile)
    assert solo.decision().seat == 0


def test_unknown_options_and_values_are_refused_with_the_allowed_ones():
    with pytest.raises(ConfigError, match="crane_side"):
        PRAGA.options(2, crane_side="C")
    with pytest.raises(ConfigError, match="unknown option"):
        PRAGA.options(2, crane="A")
    with pytest.raises(ConfigError, match="1 to 4"):
        PRAGA.options(5)


def test_refresh_and_extra_action_may_come_before_taking_a_tile():
    # seed §关于使用时机的说明: any order within the turn
    g = new_game(2, 1)
    g.gold_windows[0] = 2
    g.gold_window_supply -= 2
    positions.reload(g)
    choose(g, kind="refresh", row="upgrade", slots=[0, 1], pay="gold")
    choose(g, kind="extra_action", action="mines", pay="gold_gold")
    choose(g, kind="mine", mode="produce")
    assert g.t_tile == -1
    assert any(o["kind"] == "take_tile" for o in g.decision().options)
