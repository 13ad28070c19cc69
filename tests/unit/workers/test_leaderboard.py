"""A local round robin's leaderboard rates as the site does (OpenSkill Plackett-Luce, faulted
seats below clean ones) and orders bots by μ − 3σ."""

from openskill.models import PlackettLuce

from workers.leaderboard import Leaderboard, rating_ranks


def test_faulted_seats_rank_below_clean_ones_then_by_the_games_rank():
    assert rating_ranks([True, False, True, True], [2, 1, 1, 2]) == [2, 4, 1, 2]


def test_ratings_follow_the_openskill_model_game_by_game():
    games = [
        (["a", "b", "c"], [1, 2, 3], [True] * 3),
        (["c", "a", "b"], [1, 3, 2], [True, False, True]),
    ]
    board = Leaderboard()
    model = PlackettLuce()
    expected = {name: model.rating() for name in "abc"}
    for labels, ranks, clean in games:
        board.add_game(labels, ranks, clean)
        teams = model.rate([[expected[x]] for x in labels], ranks=rating_ranks(clean, ranks))
        expected.update({x: team[0] for x, team in zip(labels, teams, strict=True)})
    for name, rating in expected.items():
        assert (board.standings[name].rating.mu, board.standings[name].rating.sigma) == (
            rating.mu,
            rating.sigma,
        )
    assert [s.label for s in board.rows()] == sorted(
        "abc", key=lambda x: -(expected[x].mu - 3 * expected[x].sigma)
    )
    assert board.standings["a"].faulted_games == 1 and board.standings["c"].wins == 1
