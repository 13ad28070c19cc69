"""Each title in each format runs to the end on real workers through the match runner, with
its analytics rows stored and standings matching the stored games."""

import pytest

import engine
from arena.games.models import AnalyticsFact, Game
from arena.games.results import game_stats
from arena.tournaments.models import Tournament
from tests.factories import make_builtin, make_tournament, make_user
from tests.integration.platform.tournaments import (
    assert_standings_match_stored_games,
    run_to_the_end,
)

pytestmark = pytest.mark.django_db(transaction=True)

FORMATS = {
    Tournament.Format.ROUND_ROBIN: {"rounds": 1},
    Tournament.Format.DUPLICATE: {"rounds": 1},
    Tournament.Format.LADDER: {"ladder_games": 4},
}


@pytest.mark.parametrize("format", list(FORMATS))
@pytest.mark.parametrize("title", ["citadels", "praga"])
def test_a_tournament_of_each_title_and_format_runs_to_the_end(celery_workers, title, format):
    alice = make_user("alice")
    names = engine.bots(title, thinking=False)
    versions = [make_builtin(alice, title=title, builtin=names[i % len(names)]) for i in range(3)]
    tournament = run_to_the_end(
        make_tournament(alice, versions, title=title, seats=3, format=format, **FORMATS[format])
    )
    games = Game.objects.filter(tournament=tournament)
    assert games.exists() and not games.exclude(status="finished").exists()
    for game in games:
        assert game.record["title"] == title and game.rules_version
        assert game.seats.filter(score__isnull=False, rank__isnull=False).count() == 3
    assert_standings_match_stored_games(tournament)
    if title == "citadels":  # one character (or more) per seat per round
        for game in games:
            rounds = game_stats(game)["rounds"]
            held = AnalyticsFact.objects.filter(game=game, kind="held")
            assert sum(held.values_list("facts", flat=True)) >= 3 * rounds
    else:  # one crane configuration per game
        configurations = AnalyticsFact.objects.filter(game__in=games, kind="configuration")
        assert configurations.count() == games.count()
