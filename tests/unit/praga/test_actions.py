"""Scenario tests: the crane, the six actions and the turn's free timing (seed 000)."""

import pytest

from engine import IllegalAction
from engine.core import positions
from engine.praga.rewards import gain
from engine.praga.structures import structure

from .helpers import choose, give_tile_on_crane, has_option, new_game, put_in_row


def take(state, action, perform=True):
    state.apply(give_tile_on_crane(state, action))
    if perform:
        choose(state, kind="action", action=action)


def test_production_pays_the_number_left_of_the_marker_with_every_bonus_and_token():
    # seed §管理矿场 example: marker on 7 produces 6 gold, 2 points and the token's reward
    g = new_game(2, 1)
    g.gold[0] = 0
    g.gold_mine_pos[0] = 7
    g.river_tokens[0] -= 1
    g.track_tokens[0][0] = [0]  # the 2-point token
    positions.reload(g)
    take(g, "mines")
    choose(g, kind="mine", mode="produce")
    assert g.gold[0] == 6
    assert g.score[0] == 2 + 2
    assert g.silver_windows[0] == 1, "reaching 6 gold pays the wealth bonus once"


def test_quarry_production_example_adds_technology_point_and_token():
    # seed §管理采石场 example: marker on 7 -> 6 stone, one technology step, 1 point, token
    g = new_game(2, 1)
    g.stone[0] = 0
    g.quarry_pos[0] = 7
    g.track_tokens[0][1] = [1]  # 1 point + 1 gold token
    g.wealth_bonuses[0] = 2  # the 6-stone wealth bonus already taken
    positions.reload(g)
    take(g, "quarries")
    choose(g, kind="mine", mode="produce")
    assert g.stone[0] == 6
    assert g.tech_track[0] == 1
    assert g.score[0] == 1 + 1


def test_advancing_a_track_gives_one_resource_and_the_token_space_takes_a_river_token():
    g = new_game(2, 1)
    g.gold_mine_pos[0] = 5
    gold = g.gold[0]
    positions.reload(g)
    take(g, "mines")
    choose(g, kind="mine", mode="advance")
    assert g.gold_mine_pos[0] == 6 and g.gold[0] == gold + 1
    assert g.decision().kind == "token"
    river = sum(g.river_tokens)
    choose(g, kind="token", token="vp_gold")
    assert sum(g.river_tokens) == river - 1
    assert [g.components.production_tokens[i]["id"] for i in g.track_tokens[0][0]] == ["vp_gold"]


def test_the_track_end_gives_a_seal_right_that_can_wait_for_a_later_turn():
    g = new_game(2, 1)
    g.quarry_pos[0] = 7
    positions.reload(g)
    take(g, "quarries")
    choose(g, kind="mine", mode="advance")
    assert g.seal_rights[0] == 1
    assert has_option(g, kind="claim_seal", seal="vp6")
    assert not has_option(g, kind="claim_seal", seal="gold2"), "costs 2 silver windows"
    choose(g, kind="end_turn")
    take(g, "mines")  # seat 1
    choose(g, kind="mine", mode="produce")
    choose(g, kind="end_turn")
    choose(g, kind="claim_seal", seal="vp6")
    assert g.seal_owner[3] == 0 and g.seal_rights[0] == 0


def test_red_zone_costs_gold_and_an_unaffordable_tile_cannot_be_taken():
    g = new_game(2, 1)
    frame = g.components.crane["frame"][(g.slot_tile.index(0) + g.crane_rotation) % 12]
    assert frame == {"zone": "red", "cost": 3}, "tile 0 starts on the first red space"
    g.gold[0] = 2
    positions.reload(g)
    assert not has_option(g, kind="take_tile", tile=0)
    g.gold[0] = 3
    positions.reload(g)
    choose(g, kind="take_tile", tile=0)
    assert g.gold[0] == 0


def test_taking_a_tile_from_the_blue_zone_scores_its_points():
    g = new_game(2, 1)
    slot = g.slot_tile.index(5)
    g.slot_tile[slot] = -1
    g.slot_tile[(9 - g.crane_rotation) % 12] = 5  # last blue space: 3 points
    positions.reload(g)
    choose(g, kind="take_tile", tile=5)
    assert g.score[0] == 3


def test_a_tile_past_the_blue_zone_returns_to_green_with_the_five_point_token():
    g = new_game(2, 1)
    slot = g.slot_tile.index(5)
    g.slot_tile[slot] = -1
    g.slot_tile[(9 - g.crane_rotation) % 12] = 5
    positions.reload(g)
    take(g, "mines")
    choose(g, kind="mine", mode="produce")
    choose(g, kind="end_turn")
    position = (g.slot_tile.index(5) + g.crane_rotation) % 12
    assert g.components.crane["frame"][position]["zone"] == "green"
    assert g.five_point_token[5] == 1
    seen = [t for t in g.observation(1)["crane"]["tiles"] if t["tile"] == 5][0]
    assert seen["points"] == 5
    before = g.score[1]
    choose(g, kind="take_tile", tile=5)
    assert g.score[1] == before + 5 and g.five_point_token[5] == 0


def place_crane(g, tile, slot, position):
    """Rotate the wheel so ``slot`` is at ``position`` with ``tile`` on it; others elsewhere."""
    others = [t for t in g.slot_tile if t >= 0 and t != tile]
    g.slot_tile = [-1] * 12
    g.crane_rotation = (position - slot) % 12
    g.slot_tile[slot] = tile
    free = [x for x in range(12) if x != slot and x != 0 and (x + g.crane_rotation) % 12 < 4]
    free += [x for x in range(12) if x not in free and x not in (0, slot)]
    for t, x in zip(others, free, strict=False):
        g.slot_tile[x] = t
    positions.reload(g)


def test_the_wheel_bonus_may_wait_until_later_in_the_turn_and_buys_an_egg_after_payment():
    g = new_game(2, 1)
    slot = next(
        i for i, b in enumerate(g.components.crane["slot_bonuses"]) if b and b["kind"] == "buy_egg"
    )
    place_crane(g, 4, slot, 4)  # tile 4 (wall / mines) on a green space
    g.gold[0] = 0
    positions.reload(g)
    choose(g, kind="take_tile", tile=4)
    assert not has_option(g, kind="wheel_bonus"), "cannot pay yet"
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    choose(g, kind="wheel_bonus")
    assert g.eggs[0] == 1 and g.gold[0] == 3 - 2


def test_special_tiles_only_with_the_wheel_s_bonus_on_the_taken_action_else_its_points():
    g = new_game(2, 1)
    s_slot = next(
        i
        for i, b in enumerate(g.components.crane["slot_bonuses"])
        if b and b["kind"] == "special_or_vp"
    )
    t = 0  # upgrade / mines
    g.slot_tile[g.slot_tile.index(t)] = -1
    g.slot_tile[s_slot] = t
    g.crane_rotation = (5 - s_slot) % 12
    for i, x in enumerate(g.slot_tile):
        if x >= 0 and x != t and (i + g.crane_rotation) % 12 == 5:
            g.slot_tile[i] = -1
            g.slot_tile[(8 - g.crane_rotation) % 12] = x
    g.gold_windows[0], g.silver_windows[0] = 1, 1
    g.gold_window_supply -= 1
    g.silver_window_supply -= 1
    positions.reload(g)
    choose(g, kind="take_tile", tile=t)
    choose(g, kind="extra_action", action="upgrade", pay="gold_silver")
    assert not has_option(g, kind="pick", slot=3), "not with the extra action"
    choose(g, kind="pick", slot=0)
    choose(g, kind="orient", rotation=0)
    choose(g, kind="action", action="upgrade")
    assert has_option(g, kind="pick", slot=3)
    choose(g, kind="pick", slot=3)
    choose(g, kind="orient", rotation=0)
    score = g.score[0]
    choose(g, kind="end_turn")
    assert g.score[0] == score, "the S bonus was used for the tile, so no points"


def test_an_unused_s_bonus_scores_its_points_at_the_end_of_the_turn():
    g = new_game(2, 1)
    s_slot = 1  # special_or_vp, 1 point
    t = 4
    g.slot_tile[g.slot_tile.index(t)] = -1
    g.slot_tile[s_slot] = t
    g.crane_rotation = (5 - s_slot) % 12
    for i, x in enumerate(g.slot_tile):
        if x >= 0 and x != t and (i + g.crane_rotation) % 12 == 5:
            g.slot_tile[i] = -1
            g.slot_tile[(8 - g.crane_rotation) % 12] = x
    positions.reload(g)
    choose(g, kind="take_tile", tile=t)
    score = g.score[0]
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    choose(g, kind="end_turn")
    assert g.score[0] == score + 1


def test_extra_action_needs_two_windows_with_a_gold_one_and_is_once_a_turn():
    g = new_game(2, 1)
    g.silver_windows[0] = 2
    g.silver_window_supply -= 2
    positions.reload(g)
    assert not any(o["kind"] == "extra_action" for o in g.decision().options)
    g.gold_windows[0] = 2
    g.gold_window_supply -= 2
    positions.reload(g)
    pays = {o["pay"] for o in g.decision().options if o["kind"] == "extra_action"}
    assert pays == {"gold_gold", "gold_silver"}
    choose(g, kind="extra_action", action="mines", pay="gold_gold")
    choose(g, kind="mine", mode="produce")
    assert not any(o["kind"] == "extra_action" for o in g.decision().options)
    assert g.gold_windows[0] == 0


def test_refresh_costs_one_gold_or_stone_sends_two_tiles_under_their_stacks_once_a_turn():
    g = new_game(2, 1)
    row = list(g.rows[1])
    choose(g, kind="refresh", row="wall", slots=[0, 3], pay="stone")
    assert g.stone[0] == 1
    assert g.stacks[(1, 1, False)][0] == row[0] and g.stacks[(1, 1, True)][0] == row[3]
    assert g.rows[1][1:3] == row[1:3] and g.rows[1][0] != row[0]
    assert not any(o["kind"] == "refresh" for o in g.decision().options)


def test_end_turn_needs_the_main_action_first():
    g = new_game(2, 1)
    assert not has_option(g, kind="end_turn")
    take(g, "mines", perform=False)
    assert not has_option(g, kind="end_turn")
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    assert has_option(g, kind="end_turn")
    with pytest.raises(IllegalAction):
        g.apply({"kind": "take_tile", "tile": 1})


def test_windows_beyond_two_are_discarded_at_the_end_of_the_turn_by_choice():
    g = new_game(2, 1)
    take(g, "mines")
    choose(g, kind="mine", mode="produce")
    g.gold_windows[0], g.silver_windows[0] = 1, 3
    g.gold_window_supply -= 1
    g.silver_window_supply -= 3
    positions.reload(g)
    choose(g, kind="end_turn")
    d = g.decision()
    assert d.kind == "keep_windows" and d.seat == 0
    assert d.options == [
        {"kind": "keep", "gold": 1, "silver": 1},
        {"kind": "keep", "gold": 0, "silver": 2},
    ]
    choose(g, kind="keep", gold=1, silver=1)
    assert (g.gold_windows[0], g.silver_windows[0]) == (1, 1)
    assert g.silver_window_supply == 14 - 1 and g.active == 1


def test_resources_are_capped_at_nine_and_wealth_bonuses_come_once():
    g = new_game(2, 1)
    g.gold[0] = 8
    gain(g, 0, {"gold": 5})
    assert g.gold[0] == 9
    assert g.wealth_bonuses[0] == 1 | 4
    assert g.silver_windows[0] == 1 and g.gold_windows[0] == 1
    g.gold[0] = 0
    gain(g, 0, {"gold": 9})
    assert g.silver_windows[0] == 1 and g.gold_windows[0] == 1, "each wealth bonus only once"
    assert g.cubes[0] == 2 + 2, "the freed cubes can be used"


def test_wall_action_pays_then_rewards_then_places_around_the_action_board():
    g = new_game(2, 1)
    put_in_row(g, "W102", 0)  # cost 4 stone, reward 6 points (seed example)
    g.stone[0] = 4
    positions.reload(g)
    take(g, "wall")
    choose(g, kind="pick", slot=0)
    assert g.stone[0] == 0 and g.score[0] == 6
    spaces = [o["hex"] for o in g.decision().options]
    assert spaces == list(range(7, 19))
    choose(g, kind="space", hex=9)
    choose(g, kind="orient", rotation=2)
    assert g.board_top[0][9] == g.components.tile_index["W102"] and g.walls[0] == 1
    assert g.t_lateral_moves[0] == 1, "the Hunger Wall icon gives a lateral move to resolve"


def test_an_unaffordable_wall_tile_is_not_offered():
    g = new_game(2, 1)
    put_in_row(g, "W102", 0)
    g.stone[0] = 3
    positions.reload(g)
    take(g, "wall")
    assert not has_option(g, kind="pick", slot=0)


def test_upgrade_goes_on_its_action_hex_and_raises_the_university_by_period():
    g = new_game(2, 1)
    put_in_row(g, "U105", 0)  # period I, Manage Mines
    take(g, "upgrade")
    choose(g, kind="pick", slot=0)
    assert [o["rotation"] for o in g.decision().options] == list(range(6))
    choose(g, kind="orient", rotation=3)
    assert g.board_top[0][1] == g.components.tile_index["U105"]
    assert g.university[0] == 1
    g2 = new_game(2, 1)
    g2.period = 2
    put_in_row(g2, "U204", 0)  # period II
    take(g2, "upgrade")
    choose(g2, kind="pick", slot=0)
    choose(g2, kind="orient", rotation=0)
    assert g2.university[0] == 2


def test_what_ending_the_turn_sets_off_is_decided_before_windows_and_the_next_player():
    g = new_game(2, 1)
    take(g, "mines")
    choose(g, kind="mine", mode="produce")
    board = structure(g, 1)
    assert board.cells[1][2].get("arrow") == "up"
    g.structure_pos[0][1] = [1, 1]
    g.t_lateral_moves[1] = 1  # unresolved: made at the end of the turn, lands on the up arrow
    g.gold[0] = g.stone[0] = 1
    g.gold_windows[0], g.silver_windows[0] = 1, 2
    g.gold_window_supply -= 1
    g.silver_window_supply -= 2
    positions.reload(g)
    choose(g, kind="end_turn")
    assert g.decision().kind == "arrow_up" and g.active == 0
    choose(g, kind="arrow_up", take=True)
    assert g.decision().kind == "keep_windows"
    choose(g, kind="keep", gold=1, silver=1)
    assert g.active == 1 and g.decision().kind == "turn"


def test_a_seal_needs_a_free_cube_and_the_right_waits_until_one_is_free():
    # 000 §玺印: claiming a seal puts one of your cubes on it; without a free cube the right
    # waits (the reminder needs no cube, the seal does)
    g = new_game(2, 1)
    g.seal_rights[0] = 1
    g.cubes[0] = 0
    positions.reload(g)
    assert not has_option(g, kind="claim_seal")
    g.cubes[0] = 1
    positions.reload(g)
    choose(g, kind="claim_seal", seal="vp6")
    assert g.seal_owner[3] == 0 and g.cubes[0] == 0 and g.seal_rights[0] == 0


def test_a_tile_that_leaves_the_blue_zone_twice_is_still_worth_five_not_ten():
    # 000 §回合结束 4: the tile "仍然价值五分" with the single 5-point token on it; the 5 stacks
    # with the blue zone's points when it comes back into the blue zone
    g = new_game(2, 1)
    g.five_point_token[5] = 1  # it already carries the token
    slot = g.slot_tile.index(5)
    g.slot_tile[slot] = -1
    g.slot_tile[(9 - g.crane_rotation) % 12] = 5
    positions.reload(g)
    take(g, "mines")
    choose(g, kind="mine", mode="produce")
    choose(g, kind="end_turn")
    assert g.five_point_token[5] == 1
    place_crane(g, 5, g.slot_tile.index(5), 9)  # back in the blue zone: 3 points
    before = g.score[1]
    choose(g, kind="take_tile", tile=5)
    assert g.score[1] == before + 3 + 5
