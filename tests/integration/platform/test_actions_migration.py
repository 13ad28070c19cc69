"""Games stored before Game.actions existed: the migration that adds the column fills it
from each record's seal, and leaves it empty where there is no seal."""

import pytest

from tests.factories import make_builtin, make_tournament, make_user
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def old_games(toy_title):
    """Games written before the migration, by its historical model; the latest schema again
    afterwards."""
    alice = make_user("alice")
    tournament = make_tournament(alice, [make_builtin(alice), make_builtin(alice)])
    before, after = around("games", "_game_actions")
    Game = migrate(before).get_model("games", "Game")
    rows = {
        "sealed": {"actions": [0] * 37, "final": {"over": True, "actions": 37}},
        "legacy": {"actions": [0, 1]},  # a record from before the seal
        "unplayed": None,
    }
    made = {
        name: Game.objects.create(tournament_id=tournament.pk, number=n, seed=1, record=record).pk
        for n, (name, record) in enumerate(rows.items(), start=1)
    }
    yield made, after
    migrate_to_latest()


def test_an_old_game_gets_its_length_from_its_record_seal(old_games):
    made, after = old_games
    Game = migrate(after).get_model("games", "Game")
    found = {name: Game.objects.get(pk=pk).actions for name, pk in made.items()}
    assert found == {"sealed": 37, "legacy": None, "unplayed": None}
