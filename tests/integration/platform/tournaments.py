"""Helpers for tests that run tournaments on real workers."""

from django.db.models import Sum

from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating, RatingChange
from arena.tournaments import services as tournaments
from arena.tournaments.models import Tournament
from tests.support.platform import wait_for


def run_to_the_end(tournament: Tournament, timeout: float = 180) -> Tournament:
    tournaments.start_tournament(tournament.pk)

    def done():
        t = Tournament.objects.get(pk=tournament.pk)
        return t if t.status == Tournament.Status.FINISHED else None

    return wait_for(done, timeout=timeout, what=f"tournament {tournament.name} to finish")


def assert_standings_match_stored_games(tournament: Tournament) -> None:
    finished = GameSeat.objects.filter(game__tournament=tournament, game__status="finished")
    assert not Game.objects.filter(tournament=tournament, rated=False).exists()
    for rating in Rating.objects.filter(tournament=tournament):
        seats = finished.filter(bot_version=rating.bot_version)
        assert rating.games == seats.count()
        assert rating.wins == seats.filter(winner=True).count()
        assert rating.score_total == (seats.aggregate(s=Sum("score"))["s"] or 0)
        assert rating.faulted_games == seats.exclude(status="ok").count()
        history = list(rating.history.order_by("game__number"))
        assert len(history) == rating.games
        if history:
            assert (history[-1].mu, history[-1].sigma) == (rating.mu, rating.sigma)
    assert RatingChange.objects.filter(rating__tournament=tournament).count() == finished.count()
