"""Ladders and tournaments share the workers: each keeps only its window of games queued, and
each stored game sends its own competition's next, so under a broker that delivers in order
neither starves the other (docs/ladders.md). The broker is played here by taking the game
queued longest ago, and the worker by playing it in this process."""

import pytest

from arena.games import services as game_services
from arena.games.models import Game
from arena.games.tasks import run_job
from arena.tournaments import house_ladders, queueing
from arena.tournaments import services as tournaments
from tests.factories import make_builtin, make_tournament, make_user

pytestmark = pytest.mark.slow


def play_next() -> Game:
    game = Game.objects.filter(status="queued").order_by("queued_at", "id").first()
    job = game_services.claim_game(game.pk, worker="w")
    outcome = run_job(job)
    game_services.store_game_result(job, outcome)
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("ladder_window", [3, 6])
def test_a_busy_ladder_and_a_long_tournament_take_turns(toy_title, settings, ladder_window):
    settings.ARENA_GAMES_IN_FLIGHT = 3
    settings.ARENA_LADDER_IN_FLIGHT = ladder_window
    alice = make_user("alice")
    cup = make_tournament(alice, [make_builtin(alice) for _ in range(4)], seats=2, rounds=20)
    tournaments.start_tournament(cup.pk)
    ladder = house_ladders.ensure_standing_ladders(titles=["toy"], players=[2])[0]
    played = [play_next().tournament_id for _ in range(36)]
    share = played.count(ladder.pk) / len(played)
    expected = ladder_window / (ladder_window + 3)
    assert abs(share - expected) <= 0.1, (share, expected)
    for competition in (cup, ladder):
        open_games = competition.games.filter(status__in=["queued", "running"]).count()
        assert open_games == queueing.window(competition)
