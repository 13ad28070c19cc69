"""One scenario per technology tile not covered elsewhere (seed §技术, levels I-IV)."""

from engine.core import positions
from engine.praga.crane import claim_wheel
from engine.praga.rewards import crane_points_tech, gain_corner_tokens
from engine.praga.tracks import advance_track

from .helpers import choose, give_tile_on_crane, new_game, put_in_row


def with_tech(g, tid, seat=0, kept=False, since=-1):
    t = g.components.tech_index[tid]
    g.techs[seat].append([t, since, False])
    if kept:
        g.unused_techs[seat].append(t)
    g.wealth_bonuses = [7] * g.players
    positions.reload(g)
    return t


def test_t1stone_wheel_stone_gives_one_more_and_a_point():
    g = new_game(2, 1)
    with_tech(g, "T1stone")
    g.t_wheel_slot = 2  # wheel slot 2: 1 stone
    stone = g.stone[0]
    claim_wheel(g, 0)
    assert g.stone[0] == stone + 2 and g.score[0] == 1


def test_t1mine_and_t1quarry_score_two_per_track_step():
    g = new_game(2, 1)
    with_tech(g, "T1mine")
    with_tech(g, "T1quarry")
    advance_track(g, 0, 0)
    advance_track(g, 0, 1)
    assert g.score[0] == 4


def test_t1crane_adds_one_point_once_a_turn_when_taking_a_tile_scores():
    g = new_game(2, 1)
    with_tech(g, "T1crane")
    slot = g.slot_tile.index(5)
    g.slot_tile[slot] = -1
    g.slot_tile[(8 - g.crane_rotation) % 12] = 5  # 2 blue points
    positions.reload(g)
    choose(g, kind="take_tile", tile=5)
    assert g.score[0] == 2 + 1


def build(g, text, space=57):
    put_in_row(g, text, 0)
    g.gold[0], g.stone[0] = 9, 9
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "building"))
    choose(g, kind="action", action="building")
    choose(g, kind="pick", slot=0)
    choose(g, kind="space", hex=space)
    choose(g, kind="orient", rotation=0)


def test_t2cath_building_with_the_cathedral_icon_pays_gold_and_a_point():
    g = new_game(4, 1)
    with_tech(g, "T2cath")
    build(g, "B100")  # cost 2 gold, reward 1 silver, Cathedral icon
    assert g.gold[0] == 9 - 2 + 1 and g.score[0] == 1


def test_t2plain_building_without_the_icon_pays_stone_and_a_point():
    g = new_game(4, 1)
    with_tech(g, "T2plain")
    build(g, "B102")  # crown-?, cost 4 gold, reward 2 points
    assert g.stone[0] == 9 + 0 and g.score[0] == 2 + 1 + 1  # stone capped at 9


def test_t2blue_first_blue_token_of_the_turn_pays_gold_and_a_point_once():
    g = new_game(2, 1)
    with_tech(g, "T2blue")
    g.gold[0] = 0
    gain_corner_tokens(g, 0, "blue", 1)
    gain_corner_tokens(g, 0, "blue", 1)
    assert g.gold[0] == 1 and g.score[0] == 1 and g.blue_tokens[0] == 2


def test_t2red_first_red_token_of_the_turn_pays_stone_and_a_point():
    g = new_game(2, 1)
    with_tech(g, "T2red")
    g.stone[0] = 0
    gain_corner_tokens(g, 0, "red", 2)
    assert g.stone[0] == 1 and g.score[0] == 1


def test_t2wall_wall_with_the_hunger_wall_icon_pays_gold_and_a_point():
    g = new_game(2, 1)
    with_tech(g, "T2wall")
    put_in_row(g, "W100", 0)  # Hunger Wall icon, cost 2 stone, 2 points
    g.gold[0], g.stone[0] = 0, 2
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "wall"))
    gold = g.gold[0]
    choose(g, kind="action", action="wall")
    choose(g, kind="pick", slot=0)
    choose(g, kind="space", hex=8)
    choose(g, kind="orient", rotation=0)
    assert g.gold[0] == gold + 1 and g.score[0] >= 2 + 1


def test_t3road_gives_an_egg_and_a_kings_road_action():
    g = new_game(2, 1)
    with_tech(g, "T3road", kept=True)
    choose(g, kind="use_tech", tech="T3road")
    assert g.road_built[0] == 1 and g.eggs[0] == 1


def test_t3climb_moves_up_ignoring_the_crossing_cost():
    g = new_game(2, 1)
    with_tech(g, "T3climb", kept=True)
    g.structure_pos[0][1] = [1, 0]
    g.gold[0] = g.stone[0] = 0
    positions.reload(g)
    choose(g, kind="use_tech", tech="T3climb")
    choose(g, kind="structure", structure="cathedral")
    assert g.structure_pos[0][1][0] == 2


def test_t3upgrade_performs_an_upgrade_and_scores_three():
    g = new_game(2, 1)
    with_tech(g, "T3upgrade", kept=True)
    choose(g, kind="use_tech", tech="T3upgrade")
    assert g.score[0] == 3 and g.decision().kind == "pick"


def test_t3stone_produces_stone_and_gives_two_gold():
    g = new_game(2, 1)
    with_tech(g, "T3stone", kept=True)
    gold, stone = g.gold[0], g.stone[0]
    choose(g, kind="use_tech", tech="T3stone")
    assert (g.gold[0], g.stone[0]) == (gold + 2, stone + 2)


def test_t4building_discounts_the_total_cost_by_two_gold():
    g = new_game(4, 1)
    with_tech(g, "T4building", kept=True)
    put_in_row(g, "B100", 0)  # 2 gold
    g.gold[0] = 1
    positions.reload(g)
    choose(g, kind="use_tech", tech="T4building")
    choose(g, kind="pick", slot=0)
    choose(g, kind="space", hex=1)  # Old Town: +1 gold surcharge, 2 points
    assert g.gold[0] == 0 and g.score[0] == 2


def test_t4wall_discounts_two_stone():
    g = new_game(2, 1)
    with_tech(g, "T4wall", kept=True)
    put_in_row(g, "W102", 0)  # 4 stone
    g.stone[0] = 2
    positions.reload(g)
    choose(g, kind="use_tech", tech="T4wall")
    choose(g, kind="pick", slot=0)
    assert g.stone[0] == 0 and g.score[0] == 6


def test_t4any_performs_any_action_not_counted_as_the_extra_action():
    g = new_game(2, 1)
    with_tech(g, "T4any", kept=True)
    choose(g, kind="use_tech", tech="T4any")
    assert {o["action"] for o in g.decision().options} >= {"mines", "quarries", "upgrade"}
    choose(g, kind="tech_action", action="mines")
    choose(g, kind="mine", mode="produce")
    assert not g.t_extra_done and g.t_bonus_claims == [0]


def test_t4track_advances_a_track_then_produces_either_resource():
    g = new_game(2, 1)
    with_tech(g, "T4track", kept=True)
    choose(g, kind="use_tech", tech="T4track")
    choose(g, kind="track", track="gold_mine")
    stone = g.stone[0]
    choose(g, kind="produce", track="quarry")
    assert g.gold_mine_pos[0] == 5 and g.stone[0] == stone + 2
    assert g.t_bonus_claims == [], "not the Manage action: no upgrade bonus"


def test_t1crane_counts_the_wheels_points_too_but_only_once_a_turn():
    # 000 §等级 Ⅰ: "分数可能来自行动轮或蓝色区域" - the wheel's points (an S bonus taken as
    # points) earn the extra point as well as blue-zone points, at most 1 a turn
    g = new_game(2, 1)
    with_tech(g, "T1crane")
    slot = g.slot_tile.index(5)
    g.slot_tile[slot] = -1
    g.slot_tile[4] = 5  # wheel slot 4: S or 2 points; its frame space is not blue
    positions.reload(g)
    frame = g.components.crane["frame"][(4 + g.crane_rotation) % 12]
    assert not frame.get("points") and not frame.get("cost")
    choose(g, kind="take_tile", tile=5)
    assert g.score[0] == 0
    choose(g, kind="wheel_bonus")
    assert g.score[0] == 2 + 1
    crane_points_tech(g, 0)
    assert g.score[0] == 3, "once a turn"
