"""Scenario tests for the seed 000 readings of issue 15: every technology level obtainable,
and the cap (学士帽) on a tile edge no adjacency reward. (Square rewards: test_city.py.)"""

from engine import make_bot
from engine.praga.board import place_board_tile
from engine.praga.rewards import advance_tech

from .helpers import PRAGA, new_game


def test_the_technology_track_has_a_book_for_each_level_i_to_iv():
    # 000 §技术: up to four technologies, one per level; level II comes second
    books = PRAGA.components.tech_books
    assert sorted(books.values()) == [1, 2, 3, 4]
    assert [books[step] for step in sorted(books)] == [1, 2, 3, 4]


def test_reaching_the_second_book_draws_three_level_ii_technologies():
    g = new_game(2, 1)
    second = sorted(PRAGA.components.tech_books)[1]
    g.tech_track[0] = second - 1
    advance_tech(g, 0)
    step = g.steps[-1]
    assert step[0] == "choose_tech" and step[3] == 2
    assert {g.components.techs[t]["level"] for t in step[2]} == {2}


def test_played_games_see_every_technology_level_taken():
    levels = set()
    for seed in range(12):
        g = PRAGA.new_game(4, {}, seed)
        bots = [make_bot("praga", ("climber", "builder")[i % 2], seed + i) for i in range(4)]
        while not g.is_over():
            d = g.decision()
            g.apply(bots[d.seat].choose(g.observation(d.seat), d.kind, d.options))
        levels |= {g.components.techs[t]["level"] for mine in g.techs for t, _turn, _used in mine}
    assert levels == {1, 2, 3, 4}


def _cap_meeting(g):
    """An upgrade with a cap on an edge, and a neighbour hex with a wall showing an icon back."""
    board = PRAGA.components.action_board.board
    components = g.components
    for tile in components.tiles:
        if tile.type != 0 or "cap" not in tile.public["edges"]:
            continue
        edge = tile.public["edges"].index("cap")
        h = 1 + tile.action
        n = board.neighbours[h][edge]
        if n < 0:
            continue
        back = (edge + 3) % 6
        for other in components.tiles:
            if other.type == 1 and any(other.edges):
                printed = next(k for k, icon in enumerate(other.edges) if icon)
                return tile, h, n, other, (back - printed) % 6, other.edges[printed]
    raise AssertionError("no upgrade with a cap next to a free hex")


def test_a_cap_on_a_tile_edge_is_no_adjacency_reward():
    # 000 §相邻奖励: "板块边缘的学士帽图示不是相邻奖励" - meeting an icon, it pays neither side
    g = new_game(2, 1)
    upgrade, h, n, wall, rotation, icon = _cap_meeting(g)
    place_board_tile(g, 0, n, wall.index, rotation)
    before = (g.university[0], g.score[0], g.gold[0], g.stone[0], g.tech_track[0])
    before += (g.silver_windows[0], g.gold_windows[0])
    place_board_tile(g, 0, h, upgrade.index, 0)
    after = (g.university[0], g.score[0], g.gold[0], g.stone[0], g.tech_track[0])
    after += (g.silver_windows[0], g.gold_windows[0])
    assert after == before, f"the cap met {icon!r} and paid"
    assert g.board_edges_used[0][h] == 0
