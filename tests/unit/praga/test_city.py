"""Scenario tests: building spaces, Old Town, cubes, crown-? and square resolution."""

from engine.core import positions
from engine.praga.city import place_city_tile, resolve_square

from .helpers import choose, give_tile_on_crane, new_game, put_in_row

SQUARE = 58  # New Town square at row 4, col 10: two building spaces


def from_stack(g, text):
    t = g.components.tile_index[text]
    for pile in g.stacks.values():
        if t in pile:
            pile.remove(t)
    return t


def build(g, text, space, rotation=0, gold=9, stone=9):
    put_in_row(g, text, 0)
    g.gold[g.active], g.stone[g.active] = gold, stone
    g.wealth_bonuses = [7] * g.players  # wealth bonuses already taken: no side effects here
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "building"))
    choose(g, kind="action", action="building")
    choose(g, kind="pick", slot=0)
    choose(g, kind="space", hex=space)
    choose(g, kind="orient", rotation=rotation)


def test_legal_spaces_exclude_road_river_houses_outskirts_squares_and_built_hexes():
    g = new_game(4, 1)
    city = g.components.city
    put_in_row(g, "B100", 0)
    g.gold[0] = 9
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "building"))
    choose(g, kind="action", action="building")
    choose(g, kind="pick", slot=0)
    offered = [o["hex"] for o in g.decision().options]
    assert offered == [h for h in city.spaces if h not in g.city_tile]
    for h in offered:
        assert city.codes[h][0] in "bo"


def test_two_and_three_player_games_start_with_buildings_on_the_marked_spaces():
    assert new_game(4, 1).city_tile == {}
    three = new_game(3, 1)
    marks = three.components.city.prebuilt_mark
    assert sorted(three.city_tile) == sorted(h for h, m in marks.items() if m >= 3)
    two = new_game(2, 1)
    assert sorted(two.city_tile) == sorted(marks)
    for t in two.city_tile.values():
        assert two.components.tiles[t].period == 1 and not two.components.tiles[t].special


def test_square_tiles_per_player_count_leave_marked_squares_empty():
    assert sum(t >= 0 for t in new_game(4, 1).square_tile.values()) == 10
    assert sum(t >= 0 for t in new_game(3, 1).square_tile.values()) == 9
    assert sum(t >= 0 for t in new_game(2, 1).square_tile.values()) == 8


def test_old_town_costs_extra_gold_and_scores_the_printed_points():
    g = new_game(4, 1)
    space = 1  # row 0, col 1: surcharge 1 gold, 2 points
    assert g.components.city.surcharge[space] == 1 and g.components.city.space_vp[space] == 2
    build(g, "B100", space, gold=3)  # tile costs 2 gold
    assert g.gold[0] == 0
    assert g.score[0] == 2


def test_old_town_space_is_not_offered_when_the_surcharge_cannot_be_paid():
    g = new_game(4, 1)
    put_in_row(g, "B100", 0)
    g.gold[0] = 2
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "building"))
    choose(g, kind="action", action="building")
    choose(g, kind="pick", slot=0)
    offered = {o["hex"] for o in g.decision().options}
    assert 1 not in offered and 57 in offered


def test_a_cube_space_takes_a_cube_and_without_cubes_the_building_still_stands():
    g = new_game(4, 1)
    build(g, "B100", 57)
    assert g.city_cube[57] == 0 and g.cubes[0] == 1
    assert g.t_lateral_moves[1] == 1, "the Cathedral icon gives a lateral move"
    g2 = new_game(4, 1)
    g2.cubes[0] = 0
    build(g2, "B100", 57)
    assert 57 not in g2.city_cube and 57 in g2.city_tile


def test_crown_question_scores_one_per_building_around_its_square_including_itself():
    g = new_game(4, 1)
    place_city_tile(g, 54, from_stack(g, "B101"), 0, owner=-1)
    place_city_tile(g, 64, from_stack(g, "B104"), 0, owner=-1)
    build(g, "B102", 66)  # crown-?, square 65 now has 3 buildings
    assert g.score[0] == 2 + 3  # the tile's own reward is 2 points


def test_the_last_building_resolves_the_square_most_cubes_takes_both_rewards():
    # 000 §广场奖励: every claimant takes one of the tile's two rewards, the majority both
    g = new_game(4, 1)
    g.square_tile[SQUARE] = 1  # P02: upper 2 gold or 2 stone; lower 3 points
    place_city_tile(g, 57, from_stack(g, "B103"), 0, owner=1)
    g.cubes[1] -= 1
    g.active = 0
    score = g.score[1]
    build(g, "B104", 69)  # seat 0: one cube too; spend 2+2 vs 1+2 -> seat 1 wins the tie
    assert g.square_done[SQUARE]
    assert g.score[1] == score + 3, "the majority takes the lower reward"
    d = g.decision()
    assert d.kind == "square_half" and d.seat == 0, "the minority takes one of the two"
    score0 = g.score[0]
    choose(g, kind="square_reward", choice=1)  # the lower reward
    assert g.score[0] == score0 + 3
    d = g.decision()
    assert d.kind == "square_reward" and d.seat == 1, "and the majority one upper alternative"
    choose(g, kind="square_reward", choice=1)
    assert g.stone[1] == 2 + 2 and g.gold[1] == 2
    assert g.cubes[0] == 2 and g.cubes[1] == 2, "cubes return after the square is scored"


def test_a_minority_claimant_may_take_the_seed_squares_three_gold_instead_of_a_move():
    # 000 §广场奖励 + §广场板块: "两项奖励之一" - the lower reward (3 gold) is one of the two
    g = new_game(4, 1)
    g.square_tile[SQUARE] = 0  # P01 (seed)
    place_city_tile(g, 57, from_stack(g, "B103"), 0, owner=1)
    g.cubes[1] -= 1
    g.active = 0
    build(g, "B104", 69)  # seat 1 has the majority on spending
    assert g.decision().kind == "square_half" and g.decision().seat == 0
    g.gold[0] = 0
    choose(g, kind="square_reward", choice=1)
    assert g.gold[0] == 3
    assert g.decision().kind == "square_reward" and g.decision().seat == 1


def test_a_full_tie_on_cubes_and_spending_gives_every_tied_player_both_rewards():
    g = new_game(4, 1)
    g.square_tile[SQUARE] = 1  # P02: upper 2 gold or 2 stone; lower 3 points
    place_city_tile(g, 57, from_stack(g, "B103"), 0, owner=1)  # 2 gold + 2 stone
    g.cubes[1] -= 1
    scores = list(g.score)
    build(g, "B110", 69, gold=9, stone=2)  # B110: 2 gold + 2 stone too
    assert g.components.tiles[g.components.tile_index["B110"]].cost_total == 4
    assert g.score[1] == scores[1] + 3
    pending = [(step[0], step[1]) for step in g.steps if step[0].startswith("square")]
    assert pending == [("square_reward", 1), ("square_reward", 0)], "both took both rewards"


def test_the_seed_square_gives_its_majority_one_move_of_two_and_three_gold():
    g = new_game(4, 1)
    g.square_tile[SQUARE] = 0  # P01 (seed): move on the Hunger Wall or Cathedral; 3 gold below
    build(g, "B100", 57, gold=9)
    g.gold[0] = 0
    g.cubes[1] -= 1
    g.square_done[SQUARE] = False
    resolve_square(g, SQUARE, 0)
    assert g.gold[0] == 3
    assert g.decision().kind == "square_reward"


def test_a_square_move_waits_for_the_player_on_turn_but_another_claimant_moves_at_once():
    # 000 §关于使用时机的说明: lateral moves "from building a tile or other sources" are
    # resolved in any order within the turn, so the player on turn may climb first; a claimant
    # who is not on turn has no turn to wait for and moves at once (docs/rules/praga.md)
    g = new_game(4, 1)
    g.square_tile[SQUARE] = 0  # P01 (seed): a move on the Hunger Wall or the Cathedral
    place_city_tile(g, 57, from_stack(g, "B103"), 0, owner=1)
    g.cubes[1] -= 1
    build(g, "B110", 69, gold=9, stone=2)  # a tie on cubes and spending: both are majority
    assert g.decision().kind == "square_reward" and g.decision().seat == 0
    pending = g.t_lateral_moves[1]  # B110's own Cathedral icon, if it has one
    choose(g, kind="square_reward", choice=1)  # seat 0: the Cathedral
    assert g.structure_pos[0][1] == [0, 0], "waits for seat 0's choice of moment"
    assert g.t_lateral_moves[1] == pending + 1
    assert g.decision().seat == 1
    choose(g, kind="square_reward", choice=0)  # seat 1: the Hunger Wall, now
    assert g.structure_pos[1][0][1] >= 1
    while g.steps:  # whatever seat 1's landing set off
        g.apply(g.decision().options[0])
    choose(g, kind="lateral", structure="cathedral")
    assert g.structure_pos[0][1][1] >= 1 and g.t_lateral_moves[1] == pending
