"""Scenario tests: upgrade bonuses (retroactive, old or new), adjacency and corner bonuses."""

from engine.core import positions
from engine.praga.board import place_board_tile
from engine.praga.city import place_city_tile
from engine.praga.turn import start_turn

from .helpers import PRAGA, choose, give_tile_on_crane, has_option, new_game, put_in_row


def windows(g, gold=0, silver=0):
    g.gold_windows[0] += gold
    g.gold_window_supply -= gold
    g.silver_windows[0] += silver
    g.silver_window_supply -= silver
    positions.reload(g)


def rotation_for(tile, printed, board):
    return (board - printed) % 6


def test_an_upgraded_action_pays_its_bonus_every_time_it_is_taken():
    g = new_game(2, 1)
    t = g.components.tile_index["U111"]  # Manage Mines: +1 gold +1 stone
    place_board_tile(g, 0, 1, t, 0)
    start_turn(g)
    windows(g, gold=1, silver=1)
    g.apply(give_tile_on_crane(g, "mines"))
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    choose(g, kind="extra_action", action="mines", pay="gold_silver")
    choose(g, kind="mine", mode="produce")
    claims = [o for o in g.decision().options if o["kind"] == "action_bonus"]
    assert claims == [{"kind": "action_bonus", "action": "mines", "tile": "current"}]
    stone = g.stone[0]
    choose(g, kind="action_bonus", action="mines", tile="current")
    choose(g, kind="action_bonus", action="mines", tile="current")
    assert g.stone[0] == stone + 2, "twice in one turn, twice the bonus"


def test_retroactive_bonus_when_the_action_was_taken_before_it_was_upgraded():
    # seed §升级一个行动: upgrading an action already taken this turn pays its bonus back
    g = new_game(2, 1)
    windows(g, gold=1, silver=1)
    put_in_row(g, "U105", 0)  # Manage Mines, bonus: university +1
    g.apply(give_tile_on_crane(g, "mines"))
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    assert not has_option(g, kind="action_bonus", action="mines")
    choose(g, kind="extra_action", action="upgrade", pay="gold_silver")
    choose(g, kind="pick", slot=0)
    choose(g, kind="orient", rotation=0)
    assert g.university[0] == 1
    choose(g, kind="action_bonus", action="mines", tile="current")
    assert g.university[0] == 2


def test_covering_an_upgrade_lets_the_player_choose_the_old_or_the_new_bonus():
    # seed §升级一个行动 (parenthesis) and §规则提醒 2
    g = new_game(2, 1)
    place_board_tile(g, 0, 1, g.components.tile_index["U111"], 0)  # old: +1 gold +1 stone
    start_turn(g)
    windows(g, gold=1, silver=1)
    put_in_row(g, "U105", 0)  # new: university +1
    g.apply(give_tile_on_crane(g, "mines"))
    choose(g, kind="action", action="mines")
    choose(g, kind="mine", mode="produce")
    choose(g, kind="extra_action", action="upgrade", pay="gold_silver")
    choose(g, kind="pick", slot=0)
    choose(g, kind="orient", rotation=3)
    mines = [o for o in g.decision().options if o.get("action") == "mines"]
    assert mines == [
        {"kind": "action_bonus", "action": "mines", "tile": "current"},
        {"kind": "action_bonus", "action": "mines", "tile": "previous"},
    ]
    gold, stone = g.gold[0], g.stone[0]
    choose(g, kind="action_bonus", action="mines", tile="previous")
    assert (g.gold[0], g.stone[0]) == (gold + 1, stone + 1)
    assert not has_option(g, kind="action_bonus", action="mines")
    assert g.board_stacks[0][1] == (
        g.components.tile_index["U111"],
        g.components.tile_index["U105"],
    )


def test_adjacent_icons_pay_both_and_a_used_edge_never_pays_again():
    # seed §升级 example A-B, C covers A (nothing), D covers B (fresh: pays)
    g = new_game(2, 1)
    ti = g.components.tile_index
    # hex 1 (mines) edge 2 faces hex 2 (quarries) edge 5
    assert PRAGA.components.action_board.board.neighbours[1][2] == 2
    place_board_tile(g, 0, 1, ti["U105"], 0)  # stone icon on printed edge 2 -> board edge 2
    before = (g.gold[0], g.stone[0])
    place_board_tile(g, 0, 2, ti["U100"], 2)  # gold icon printed edge 3 -> board edge 5
    assert (g.gold[0], g.stone[0]) == (before[0] + 1, before[1] + 1)
    silver = g.silver_windows[0]
    place_board_tile(g, 0, 1, ti["U111"], 0)  # silver on edge 2 meets B's used edge
    assert g.silver_windows[0] == silver
    place_board_tile(g, 0, 2, ti["U106"], 2)  # gold window printed 3 -> edge 5, fresh
    assert g.silver_windows[0] == silver + 1 and g.gold_windows[0] == 1


def test_a_red_corner_meeting_two_red_corners_takes_two_tokens_and_used_pairs_do_not_repeat():
    g = new_game(2, 1)
    ti = g.components.tile_index
    board = PRAGA.components.action_board.board
    v = board.vertices[1][1]
    assert sorted(h for h, _ in board.vertex_hexes[v]) == [1, 2, 12]
    # U100 has red corners printed at 1 and 4; U101 at 0; W101 at 1 and 4
    place_board_tile(g, 0, 1, ti["U105"], rotation_for(None, 2, 1))  # U105 red corner at 2
    assert g.red_tokens[0] == 0
    k2 = [k for h, k in board.vertex_hexes[v] if h == 2][0]
    place_board_tile(g, 0, 2, ti["U101"], rotation_for(None, 0, k2))
    assert g.red_tokens[0] == 1
    put_in_row(g, "W101", 0)
    g.stone[0] = 3
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "wall"))
    choose(g, kind="action", action="wall")
    choose(g, kind="pick", slot=0)
    choose(g, kind="space", hex=12)
    k12 = [k for h, k in board.vertex_hexes[v] if h == 12][0]
    choose(g, kind="orient", rotation=rotation_for(None, 1, k12))
    assert g.red_tokens[0] == 1 + 2
    # covering hex 1 again: its pairs with 2 and 12 at this corner were used already
    place_board_tile(g, 0, 1, ti["U111"], rotation_for(None, 2, 1))  # red corner printed 2
    assert g.red_tokens[0] == 3


def test_blue_corners_count_the_boards_printed_corner_and_another_buildings_corner():
    g = new_game(4, 1)
    city = g.components.city
    v = 137
    assert v in city.blue_vertices
    (h1, k1), (h2, k2) = [(h, k) for h, k in city.board.vertex_hexes[v] if h in city.spaces]
    b103 = g.components.tile_index["B103"]  # blue corner printed at 0
    for pile in g.stacks.values():
        if b103 in pile:
            pile.remove(b103)
    assert place_city_tile(g, h1, b103, k1 % 6, owner=-1) == 1  # meets the printed corner
    put_in_row(g, "B100", 0)  # blue corner printed at 3
    g.gold[0] = 9
    positions.reload(g)
    g.apply(give_tile_on_crane(g, "building"))
    choose(g, kind="action", action="building")
    choose(g, kind="pick", slot=0)
    choose(g, kind="space", hex=h2)
    choose(g, kind="orient", rotation=(k2 - 3) % 6)
    assert g.blue_tokens[0] == 2


def test_a_corner_meeting_is_new_again_once_both_of_its_tiles_have_been_covered():
    # 000 §升级一个行动: "你不会从已使用过的连接（边、角）获得奖励，全新的连接则依照正常规则进行" -
    # C covering A does not renew A-B (B's side was used); D then covering B makes C-D new
    g = new_game(2, 1)
    ti = g.components.tile_index
    board = PRAGA.components.action_board.board
    v = board.vertices[1][1]
    k2 = [k for h, k in board.vertex_hexes[v] if h == 2][0]
    place_board_tile(g, 0, 1, ti["U105"], rotation_for(None, 2, 1))  # A: red corner at 2
    place_board_tile(g, 0, 2, ti["U101"], rotation_for(None, 0, k2))  # B
    assert g.red_tokens[0] == 1
    place_board_tile(g, 0, 1, ti["U111"], rotation_for(None, 2, 1))  # C covers A
    assert g.red_tokens[0] == 1, "C-B is not new: B's corner was used with A"
    place_board_tile(g, 0, 2, ti["U100"], rotation_for(None, 1, k2))  # D covers B
    assert g.red_tokens[0] == 2, "C-D is a brand-new connection"
