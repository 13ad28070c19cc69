"""Scenario tests: round counting, period change, game end, final scoring, ties, solo."""

import json
import shutil

import pytest

from engine import make_bot
from engine.praga import PragaTitle
from engine.praga.crane import rotate_crane
from engine.praga.scoring import final_scoring, result

from .helpers import PRAGA, choose, give_tile_on_crane, new_game


def run_until(state, stop):
    bots = [make_bot("praga", "random", 3 + i) for i in range(state.players)]
    while not state.is_over() and not stop(state):
        d = state.decision()
        state.apply(bots[d.seat].choose(None, d.kind, d.options))


@pytest.mark.parametrize("players, turn", [(2, 16), (3, 26), (4, 31)])
def test_the_period_changes_at_the_middle_of_the_game(players, turn):
    g = new_game(players, 5)
    run_until(g, lambda seat: seat.period == 2)
    assert g.turn_no == turn
    for row in g.rows:
        assert all(g.components.tiles[t].period == 2 for t in row if t >= 0)
    assert all(not pile for k, pile in g.stacks.items() if k[1] == 1)


def test_two_players_change_period_at_the_star_some_turns_after_the_platform_line():
    g = new_game(2, 5)
    run_until(g, lambda seat: seat.era_crossed)
    assert g.turn_no == 10 and g.period == 1, "cube crossed the line: period I goes on"
    run_until(g, lambda seat: seat.period == 2)
    assert g.turn_no == 16
    arrow = (g.components.crane["arrow_slot"] + g.crane_rotation) % 12
    assert arrow == g.components.crane["star_position"]


def test_the_cube_drops_once_a_wheel_turn_and_the_game_ends_on_the_hourglass():
    g = new_game(3, 2)
    drops = []
    platform = g.platform
    bots = [make_bot("praga", "random", i) for i in range(3)]
    while not g.is_over():
        d = g.decision()
        g.apply(bots[d.seat].choose(None, d.kind, d.options))
        if g.platform != platform:
            drops.append(g.turn_no)
            platform = g.platform
    assert drops == [4, 15, 26, 37, 48]
    # seed §游戏结束 example: after the first player's 13th turn, 4, 4 and 3 turns remain
    assert drops[-2] == 3 * 12 + 1
    assert g.turns_taken == [16, 16, 16]


def test_final_scoring_every_step_with_the_seeds_examples():
    g = new_game(2, 1)
    seat = 0
    g.tech_track[seat], g.university[seat] = (
        7,
        8,
    )  # seed §学术得分: 7 steps at the top of the university: 21
    g.structure_pos[seat][1] = [5, 3]  # seed §3: top Cathedral row 13; 4th column: red tokens x3
    g.red_tokens[seat] = 3
    g.structure_pos[seat][0] = [0, 0]
    g.walls[seat] = 4
    g.eggs[seat] = 4
    g.gold[seat], g.stone[seat] = 5, 8
    g.seal_owner[2] = seat  # gold + stone -> 3 points a pair: 15 (seed §玺印 example)
    g.v_tiles[seat] = [0]  # V1: university height (8 at the top, seed example)
    g.square_tile[58] = 1  # P02, lower reward 3 points
    g.city_cube[57] = seat
    g.city_tile[57] = g.components.tile_index["B100"]
    g.score[seat] = 10
    details = final_scoring(g)[seat]
    assert details["squares"] == 3
    assert details["academic"] == 21
    assert details["structure_rows"] == 13 + 0
    assert details["corner_tokens"] == 9
    assert details["walls"] == 10
    assert details["seals"] == 15
    assert details["v_tiles"] == 8
    assert details["eggs"] == 10
    assert g.score[seat] == 10 + 3 + 21 + 13 + 9 + 10 + 15 + 8 + 10


@pytest.mark.parametrize("walls, points", [(2, 0), (3, 4), (4, 10), (5, 10), (6, 18), (9, 18)])
def test_walls_score_four_ten_or_eighteen(walls, points):
    g = new_game(2, 1)
    g.walls[0] = walls
    assert final_scoring(g)[0]["walls"] == points


@pytest.mark.parametrize("eggs, points", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (7, 10)])
def test_remaining_eggs_score_one_three_six_ten(eggs, points):
    g = new_game(2, 1)
    g.eggs[0] = eggs
    assert final_scoring(g)[0]["eggs"] == points


def test_academic_points_are_zero_in_the_lowest_three_university_spaces():
    g = new_game(2, 1)
    g.tech_track[0], g.university[0] = 7, 2
    assert final_scoring(g)[0]["academic"] == 0


@pytest.mark.parametrize(
    "final, setup, points",
    [
        ("gold_mines", lambda g: g.gold_mine_pos.__setitem__(0, 9), 8),
        ("quarries", lambda g: g.quarry_pos.__setitem__(0, 8), 7),
        ("rows2", lambda g: g.structure_pos[0].__setitem__(0, [2, 0]), 6 + 2),
        ("upgrades3", lambda g: g.upgrades.__setitem__(0, 4), 12),
        ("walls2", lambda g: g.walls.__setitem__(0, 2), 4),
    ],
)
def test_v_tile_final_abilities(final, setup, points):
    g = new_game(2, 1)
    setup(g)
    g.v_tiles[0] = [[v["final"] for v in g.components.bridge_v].index(final)]
    assert final_scoring(g)[0]["v_tiles"] == points


def test_seals_split_gold_and_stone_the_best_way():
    g = new_game(2, 1)
    g.seal_owner[0] = 0  # gold -> 2
    g.seal_owner[2] = 0  # gold + stone -> 3
    g.gold[0], g.stone[0] = 4, 2
    assert final_scoring(g)[0]["seals"] == 2 * 3 + 2 * 2


def test_a_tie_goes_to_the_later_player_in_turn_order():
    g = new_game(3, 1)
    g.final = [{}, {}, {}]
    g.score = [50, 50, 40]
    r = result(g)
    assert r["winners"] == [1] and r["ranks"] == [2, 1, 3]


def test_solo_game_the_automa_takes_the_tile_furthest_along_after_each_turn():
    g = new_game(1, 3)
    assert g.decision().seat == 0
    g.apply(give_tile_on_crane(g, "mines"))
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    after_mine = g.clone()
    rotate_crane(after_mine, after_mine.t_tile)
    furthest = max(
        (seat for seat, t in enumerate(after_mine.slot_tile) if t >= 0),
        key=lambda seat: (seat + after_mine.crane_rotation) % 12,
    )
    taken = after_mine.slot_tile[furthest]
    choose(g, kind="end_turn")
    assert g.turn_no == 2 and g.turns_taken == [1]
    assert g.slot_tile[(0 - g.crane_rotation) % 12] == taken, (
        "the automa's tile is back at red start"
    )
    run_until(g, lambda seat: False)
    assert g.turns_taken == [16] and g.turn_no == 32
    assert len(g.result()["scores"]) == 1


def test_an_alternative_component_folder_replaces_the_data_without_code_changes(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(PRAGA.components.folder, folder)
    board = (folder / "player_board.json").read_text()
    (folder / "player_board.json").write_text(
        board.replace('"gold": 2,\n  "stone": 2', '"gold": 5,\n  "stone": 1')
    )
    crane = (folder / "crane.json").read_text().replace('"cost": 3', '"cost": 4')
    (folder / "crane.json").write_text(crane)
    title = PragaTitle(folder)
    g = title.new_game(2, seed=4)
    assert (g.gold[0], g.stone[0]) == (5, 1)
    assert g.components.crane["frame"][0]["cost"] == 4
    run_until(g, lambda seat: False)
    assert g.turns_taken == [16, 16]


def test_a_data_folder_that_breaks_the_seeds_counts_is_refused(tmp_path):
    folder = tmp_path / "data"
    shutil.copytree(PRAGA.components.folder, folder)
    data = json.loads((folder / "techs.json").read_text())
    data["techs"].pop()
    (folder / "techs.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="24"):
        PragaTitle(folder)


def test_solo_the_automa_takes_the_tile_in_the_blue_zone_and_it_returns_to_red_start():
    # 000 §单人变体: after the player's turn the opponent takes the tile furthest along (nearest
    # the blue zone) and puts it back by the normal rules - so it lands on the red start and
    # the player's own tile, returned just before, is pushed one space further along
    g = new_game(1, 3)
    g.apply(give_tile_on_crane(g, "mines"))
    mine = g.t_tile
    frame = g.components.crane["frame"]
    blue = max(p for p, f in enumerate(frame) if f["zone"] == "blue")
    target = [t for t in g.slot_tile if t >= 0][0]
    g.slot_tile[g.slot_tile.index(target)] = -1
    g.slot_tile[(blue - 1 - g.crane_rotation) % 12] = target  # one short of the last blue space
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    score = g.score[0]
    choose(g, kind="end_turn")
    positions = {t: (slot + g.crane_rotation) % 12 for slot, t in enumerate(g.slot_tile) if t >= 0}
    assert positions[target] == 0, "the automa's tile is back on the red start"
    assert positions[mine] > 0 and frame[positions[mine]]["zone"] == "red"
    assert g.score[0] == score and g.turns_taken == [1]
