"""Migrations games 0013_records_packed and 0014_records_facts_folded on stored games, both
ways: format 2 records become the same format 3 records the engine writes now (and back),
and the fact rows of folded games go (and come back, derived from the records)."""

import pytest

import engine
from arena.games.models import AnalyticsFact, Game
from engine.core import records
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def folded_games(folded_citadels):
    """Three stored Citadels games, folded into the totals (their fact rows deleted): their
    records by game id."""
    return {g.pk: g.record for g in Game.objects.filter(status="finished")}


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
