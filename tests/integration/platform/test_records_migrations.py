"""Migrations games 0013_records_packed and 0014_records_facts_folded on stored games, both
ways: format 2 records become the same format 3 records the engine writes now (and back),
and the fact rows of folded games go (and come back, derived from the records)."""

import pytest
from django.utils import timezone

import engine
from arena.games import services, totals
from arena.games.models import AnalyticsFact, Game, GameSeat
from arena.games.tasks import run_job
from arena.ratings.services import ensure_ratings
from arena.tournaments.models import Tournament
from engine.core import records
from tests.factories import make_builtin, make_tournament, make_user
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def folded_games():
    """Three stored Citadels games, folded into the totals (their fact rows deleted)."""
    alice = make_user("alice")
    versions = [make_builtin(alice, title="citadels", builtin="builder") for _ in range(3)]
    tournament = make_tournament(alice, versions, title="citadels", seats=3, rounds=1)
    # Running, with queued games whose messages are never sent: a Celery worker started for
    # other tests in this process cannot take them (as test_viewer does).
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    ensure_ratings(tournament)
    for number in (1, 2, 3):
        game = Game.objects.create(
            tournament=tournament, number=number, seed=number, status="queued",
            queued_at=timezone.now(),
        )  # fmt: skip
        for seat, version in enumerate(versions):
            GameSeat.objects.create(game=game, seat=seat, bot_version=version)
        job = services.claim_game(game.pk, worker="w")
        played = run_job(job)
        services.store_game_result(job, played)
    stored = {g.pk: g.record for g in Game.objects.filter(status="finished")}
    assert len(stored) == 3 and AnalyticsFact.objects.exists()
    totals.fold_pending()
    yield stored
    migrate_to_latest()


def test_going_back_unpacks_the_records_and_derives_the_facts_and_forward_again(folded_games):
    assert not AnalyticsFact.objects.exists()
    before_packing, _ = around("games", "_records_packed")
    old = migrate(before_packing)
    games = old.get_model("games", "Game").objects.all()
    title = engine.title("citadels")
    for game in games:
        assert game.record == records.expand(title, folded_games[game.pk])
    facts = old.get_model("games", "AnalyticsFact").objects
    assert set(facts.values_list("game_id", flat=True)) == set(folded_games)
    migrate_to_latest()
    assert {g.pk: g.record for g in Game.objects.filter(status="finished")} == folded_games
    assert not AnalyticsFact.objects.exists()  # folded games keep none
