"""Scenario tests: King's Road and Charles Bridge, Hunger Wall and Cathedral."""

import pytest

from engine import ConfigError
from engine.core import positions
from engine.praga.structures import climb, lateral, structure

from .helpers import PRAGA, choose, give_tile_on_crane, has_option, new_game


def road(g, eggs=0):
    g.eggs[g.active] = eggs
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "road"))
    choose(g, kind="action", action="road")


def test_street_sections_give_the_free_effect_and_the_egg_effect_only_for_an_egg():
    g = new_game(2, 1)
    road(g, eggs=0)
    assert g.road_built[0] == 1
    g.gold[0] = 3
    positions.reload(g)
    assert has_option(g, kind="road_effect", effect="free")
    assert not has_option(g, kind="road_effect", effect="egg")
    choose(g, kind="road_effect", effect="free")  # section I: pay 1 gold for 4 points
    assert g.score[0] == 4 and g.gold[0] == 2
    g2 = new_game(2, 1)
    road(g2, eggs=1)
    choose(g2, kind="road_effect", effect="egg", choice=0)  # 2 silver windows
    assert g2.eggs[0] == 0 and g2.silver_windows[0] == 2


def test_section_ii_scores_three_per_period_one_upgrade_tile_including_covered_ones():
    g = new_game(2, 1)
    g.road_built[0] = 1
    g.period1_upgrades[0] = 3
    road(g)
    choose(g, kind="road_effect", effect="free")
    assert g.score[0] == 9


def test_section_iv_needs_an_egg_draws_three_keeps_one_and_lays_a_plank():
    g = new_game(2, 1)
    g.road_built[0] = 3
    g.eggs[0] = 0
    positions.reload(g)
    take = give_tile_on_crane(g, "road")
    g.apply(take)
    assert not has_option(g, kind="action", action="road")
    g.eggs[0] = 1
    positions.reload(g)
    stack = list(g.iv_stack)
    choose(g, kind="action", action="road")
    d = g.decision()
    assert d.kind == "bridge_iv" and len(d.options) == 3
    kept = d.options[0]["tile"]
    g.apply(0)
    assert g.eggs[0] == 0
    drawn = stack[-3:]
    returned = [x for x in drawn if g.components.bridge_iv[x]["id"] != kept]
    assert len(g.iv_stack) == 5 and sorted(g.iv_stack[:2]) == sorted(returned)
    assert g.decision().kind == "plank"
    choose(g, kind="plank", plank=0)
    assert g.planks[0] >= 0


def test_a_finished_bridge_gives_only_the_iv_tiles_reward_and_discards_it():
    g = new_game(2, 1)
    g.planks = [100, 101, 102, 103, 104]
    g.road_built[0] = 3
    univ, tech = g.university[0], g.tech_track[0]
    g.iv_stack = [2, 4, 5, 1, 0, 3]  # IV4 (university x3) among the three on top
    road(g, eggs=1)
    assert g.decision().kind == "bridge_iv"
    choose(g, kind="bridge_tile", tile="IV4")
    assert g.decision().kind != "plank"
    assert ("iv", 3) in g.discarded
    assert (g.university[0], g.tech_track[0]) == (univ + 3, tech)


def test_section_v_after_the_bridge_is_finished_keeps_the_tile_in_front_of_the_player():
    g = new_game(2, 1)
    g.planks = [0, 1, 2, 3, 4]
    g.road_built[0] = 4
    road(g, eggs=1)
    assert g.decision().kind == "bridge_v"
    g.apply(0)
    assert len(g.v_tiles[0]) == 1 and g.road_built[0] == 5
    assert g.decision().kind == "turn"
    assert not any(
        o["kind"] == "extra_action" and o["action"] == "road" for o in g.decision().options
    )


def test_replacement_tiles_change_the_egg_free_effects():
    g = new_game(2, 1, kings_road_tiles=["IIa"])
    g.road_built[0] = 1
    g.silver_windows[0] = 2
    g.silver_window_supply -= 2
    road(g)
    choose(g, kind="road_effect", effect="free")
    assert g.score[0] == 4  # 2 points per silver window
    g = new_game(2, 1, kings_road_tiles=["IIb"])
    g.road_built[0] = 2
    g.stone[0] = 9
    g.wealth_bonuses[0] = 7
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "wall"))
    choose(g, kind="action", action="wall")
    choose(g, kind="pick", slot=0)
    score = g.score[0]
    choose(g, kind="space", hex=7)
    choose(g, kind="orient", rotation=0)
    assert g.score[0] == score + 2


def test_kings_road_tile_faces_iia_and_iib_cannot_both_be_chosen():
    with pytest.raises(ConfigError, match="IIa and IIb"):
        PRAGA.options(2, kings_road_tiles=["IIa", "IIb"])


def test_climbing_costs_two_silver_windows_and_crossing_a_tier_costs_gold_and_stone():
    g = new_game(2, 1, hunger_wall_board="base")
    g.silver_windows[0] = 4
    g.silver_window_supply -= 4
    g.gold[0] = g.stone[0] = 0
    positions.reload(g)
    choose(g, kind="climb", structure="hunger_wall")
    assert g.structure_pos[0][0] == [1, 0] and g.silver_windows[0] == 2
    assert not has_option(g, kind="climb", structure="hunger_wall"), "crossing I->II costs"
    g.gold[0] = g.stone[0] = 1
    positions.reload(g)
    choose(g, kind="climb", structure="hunger_wall")
    assert g.structure_pos[0][0][0] == 2 and (g.gold[0], g.stone[0]) == (0, 0)


def test_lateral_moves_score_points_and_follow_side_arrows():
    g = new_game(2, 1, hunger_wall_board="base")
    board = structure(g, 0)
    g.structure_pos[0][0] = [0, 1]
    assert board.cells[0][2] == {"vp": 1}
    lateral(g, 0, 0)
    assert g.structure_pos[0][0] == [0, 2] and g.score[0] == 1
    g.structure_pos[0][0] = [1, 0]
    assert board.cells[1][1].get("arrow") == "side"
    lateral(g, 0, 0)
    assert g.structure_pos[0][0] == [1, 2]


def test_an_up_arrow_across_a_tier_asks_whether_to_pay_the_crossing():
    g = new_game(2, 1, hunger_wall_board="base")
    board = structure(g, 0)
    up = [
        (r, components)
        for r in range(6)
        for components in range(6)
        if board.cells[r][components].get("arrow") == "up"
    ]
    r, components = [x for x in up if board.tiers[x[0]] != board.tiers[min(x[0] + 1, 5)]][0]
    g.structure_pos[0][0] = [r, components - 1]
    g.gold[0] = g.stone[0] = 5
    lateral(g, 0, 0)
    positions.reload(g)
    d = g.decision()
    assert d.kind == "arrow_up" and [o["take"] for o in d.options] == [False, True]
    choose(g, kind="arrow_up", take=True)
    assert g.structure_pos[0][0][0] == r + 1


def test_reaching_the_cathedrals_top_tier_takes_one_of_its_v_tiles():
    g = new_game(2, 1)
    g.structure_pos[0][1] = [3, 0]
    g.gold[0], g.stone[0] = 5, 5
    g.wealth_bonuses[0] = 7
    climb(g, 0, 1, free=False)
    positions.reload(g)
    assert g.decision().kind == "bridge_v"
    assert len(g.decision().options) == 3
    g.apply(0)
    assert len(g.v_tiles[0]) == 1 and len(g.v_cathedral) == 2


def test_alternative_level_boards_are_independent_options():
    g = new_game(2, 1, hunger_wall_board="A", cathedral_board="base")
    assert structure(g, 0).name == "A" and structure(g, 1).name == "base"


def test_seed_cathedral_example_order_climb_onto_an_up_arrow_pay_the_crossing_then_lateral():
    # seed §饥饿之墙和圣维特主教座堂 范例: 2 silver up onto an up arrow, pay 1 gold 1 stone to
    # cross into tier II, then resolve the Cathedral icon's lateral move
    g = new_game(2, 1)
    board = structure(g, 1)
    assert board.cells[1][2].get("arrow") == "up" and board.tiers[1] != board.tiers[2]
    g.structure_pos[0][1] = [0, 2]
    g.silver_windows[0] = 2
    g.silver_window_supply -= 2
    g.gold[0] = g.stone[0] = 1
    g.t_lateral_moves[1] = 1
    positions.reload(g)
    choose(g, kind="climb", structure="cathedral")
    assert g.decision().kind == "arrow_up"
    choose(g, kind="arrow_up", take=True)
    assert g.structure_pos[0][1] == [2, 2] and (g.gold[0], g.stone[0]) == (0, 0)
    choose(g, kind="lateral", structure="cathedral")
    assert g.structure_pos[0][1] == [2, 3]


def test_a_second_road_action_in_a_turn_keeps_the_first_sections_effects_pending():
    # 000 §关于使用时机的说明: the King's Road's immediate effects of this turn are resolved in
    # any order - building the road twice (tile + extra action) must not drop section I's
    g = new_game(2, 1)
    road(g, eggs=2)
    g.gold_windows[0], g.silver_windows[0] = 2, 0
    g.gold_window_supply -= 2
    g.gold[0] = 3
    positions.reload(g)
    choose(g, kind="extra_action", action="road", pay="gold_gold")
    assert g.road_built[0] == 2
    assert has_option(g, kind="road_effect", effect="free", section=1)
    assert has_option(g, kind="road_effect", effect="free", section=2)
    assert has_option(g, kind="road_effect", effect="egg", section=1)
    assert has_option(g, kind="road_effect", effect="egg", section=2)
    choose(g, kind="road_effect", effect="free", section=1)  # section I: 1 gold for 4 points
    assert g.score[0] == 4 and g.gold[0] == 2
    choose(g, kind="road_effect", effect="egg", section=1, choice=0)  # 2 silver windows
    choose(g, kind="road_effect", effect="egg", section=2, choice=0)  # a gold window
    assert g.eggs[0] == 0 and g.silver_windows[0] == 2 and g.gold_windows[0] == 1
    assert not has_option(g, kind="road_effect", effect="egg")
    assert g.observation(0)["turn_state"]["road_effects"] == {"free": [2], "egg": []}
