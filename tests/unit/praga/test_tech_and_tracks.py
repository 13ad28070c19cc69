"""Scenario tests: technology track, Charles University, technologies by level."""

from engine.core import positions
from engine.core.positions import edited
from engine.praga.board import place_board_tile
from engine.praga.crane import claim_wheel
from engine.praga.rewards import advance_tech, gain
from engine.praga.structures import structure
from engine.praga.turn import start_turn

from .helpers import choose, give_tile_on_crane, has_option, new_game, put_in_row


def test_a_book_space_draws_three_of_its_level_keeps_one_and_returns_two_to_the_bottom():
    g = new_game(2, 1)
    pile = list(g.tech_stacks[1])
    advance_tech(g, 0)
    d = g.decision()
    assert d.kind == "choose_tech" and len(d.options) == 3
    kept = d.options[1]["tech"]
    g.apply(1)
    assert [g.components.techs[t]["id"] for t, _, _ in g.techs[0]] == [kept]
    assert len(g.tech_stacks[1]) == len(pile) - 1
    assert sorted(g.tech_stacks[1][:2]) == sorted(
        x for x in pile[-3:] if g.components.techs[x]["id"] != kept
    )


def test_steps_past_the_top_of_technology_and_university_score_two_points_each():
    g = new_game(2, 1)
    g.tech_track[0] = g.components.tech_top
    g.university[0] = g.components.univ_top
    gain(g, 0, {"tech": 1, "univ": 2})
    assert (
        g.score[0] == 6
        and g.tech_track[0] == g.components.tech_top
        and g.university[0] == g.components.univ_top
    )


def test_level_one_and_two_technologies_work_only_from_the_next_turn():
    g = new_game(2, 1)
    climb = g.components.tech_index["T1climb"]

    def taken_this_turn(fields):  # set up through a position, not the state's internals
        fields["techs"][0].append([climb, fields["turn_no"], False])
        fields["silver_windows"][0] = 4
        fields["silver_window_supply"] -= 4

    g = edited(g, taken_this_turn)
    choose(g, kind="climb", structure="cathedral")
    assert g.score[0] == 0
    g = edited(g, lambda fields: fields["techs"][0][0].__setitem__(1, fields["turn_no"] - 1))
    choose(g, kind="climb", structure="cathedral")
    assert g.score[0] == 2 + (structure(g, 1).cells[2][0].get("vp", 0))


def test_level_three_technology_is_kept_and_used_once_later():
    g = new_game(2, 1)
    univ4 = g.components.tech_index["T3univ"]

    def kept(fields):
        fields["techs"][0].append([univ4, 0, False])
        fields["unused_techs"][0].append(univ4)

    g = edited(g, kept)
    choose(g, kind="use_tech", tech="T3univ")
    assert g.university[0] == 4
    assert not has_option(g, kind="use_tech", tech="T3univ")
    assert g.techs[0][0][2] is True


def test_a_technology_action_triggers_the_upgrade_bonus_and_is_not_the_extra_action():
    g = new_game(2, 1)
    t = g.components.tech_index["T4upgrade"]
    g.techs[0].append([t, 0, False])
    g.unused_techs[0].append(t)
    positions.reload(g)
    put_in_row(g, "U105", 0)
    choose(g, kind="use_tech", tech="T4upgrade")
    assert g.gold_windows[0] == 1
    choose(g, kind="pick", slot=0)
    choose(g, kind="orient", rotation=0)
    assert not g.t_extra_done
    assert 2 in g.t_bonus_claims


def test_production_technology_is_not_the_mines_action():
    g = new_game(2, 1)
    t = g.components.tech_index["T3gold"]
    g.techs[0].append([t, 0, False])
    g.unused_techs[0].append(t)
    positions.reload(g)
    gold, stone = g.gold[0], g.stone[0]
    choose(g, kind="use_tech", tech="T3gold")
    assert (g.gold[0], g.stone[0]) == (gold + 3, stone + 2)
    assert g.t_bonus_claims == []


def test_wheel_icon_technology_adds_one_more_and_a_point():
    g = new_game(2, 1)
    t = g.components.tech_index["T1gold"]
    g.techs[0].append([t, -1, False])
    slot = next(
        i
        for i, b in enumerate(g.components.crane["slot_bonuses"])
        if b and b.get("reward") == {"gold": 1}
    )
    g.t_tile = 0
    g.t_wheel_slot = slot
    gold = g.gold[0]
    claim_wheel(g, 0)
    assert g.gold[0] == gold + 2 and g.score[0] == 1


def test_eggs_bought_with_the_egg_technology_give_a_point_and_a_stone():
    g = new_game(2, 1)
    t = g.components.tech_index["T2egg"]
    g.techs[0].append([t, -1, False])
    stone = g.stone[0]
    gain(g, 0, {"egg": 2})
    assert g.eggs[0] == 2 and g.score[0] == 2 and g.stone[0] == stone + 2


def test_square_technology_gives_both_rewards_of_a_chosen_square():
    # 000 §等级 Ⅳ: "两项奖励" - the lower reward and one alternative of the upper one
    g = new_game(4, 1)
    g.square_tile[58] = 1  # P02: upper 2 gold or 2 stone; lower 3 points
    t = g.components.tech_index["T4square"]
    g.techs[0].append([t, 0, False])
    g.unused_techs[0].append(t)
    positions.reload(g)
    choose(g, kind="use_tech", tech="T4square")
    gold, stone, score = g.gold[0], g.stone[0], g.score[0]
    choose(g, kind="square", square="P02")
    assert g.score[0] == score + 3
    choose(g, kind="square_reward", choice=0)
    assert (g.gold[0], g.stone[0]) == (gold + 2, stone)


def test_square_technology_on_the_seed_square_gives_one_move_of_two_and_the_three_gold():
    # 000 §等级 Ⅳ gives "the two rewards drawn on a square tile"; 000 §广场板块 says a player
    # winning both rewards of this tile still makes one move of the two and takes the 3 gold
    g = new_game(4, 1)
    g.square_tile[58] = 0  # P01 (seed)
    t = g.components.tech_index["T4square"]
    g.techs[0].append([t, 0, False])
    g.unused_techs[0].append(t)
    g.wealth_bonuses = [7] * 4
    g.gold[0] = 0
    positions.reload(g)
    choose(g, kind="use_tech", tech="T4square")
    choose(g, kind="square", square="P01")
    assert g.gold[0] == 3
    assert g.decision().kind == "square_reward"
    choose(g, kind="square_reward", choice=0)
    assert g.t_lateral_moves == [1, 0], "one move, the Hunger Wall's, to resolve in the turn"


def test_tile_from_the_crane_then_upgrade_bonus_in_the_seed_turn_example():
    # seed §玩家回合范例: upgrade taken with an upgraded Upgrade action pays its bonus first
    g = new_game(2, 1)
    place_board_tile(
        g, 0, 3, g.components.tile_index["U212"], 0
    )  # Upgrade: +1 gold window, 1 point
    start_turn(g)
    put_in_row(g, "U105", 0)
    g.apply(give_tile_on_crane(g, "upgrade"))
    choose(g, kind="action", action="upgrade")
    choose(g, kind="pick", slot=0)
    choose(g, kind="orient", rotation=0)
    choose(g, kind="action_bonus", action="upgrade", tile="current")
    assert g.gold_windows[0] == 1
