"""Games stored before error_detail existed kept the runner's traceback in the public
``error``; the migration that adds error_detail moves it there."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import make_builtin, make_tournament, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def the_migration():
    """(the migration before, the one adding error_detail), found by name: the numbers may
    change when branches are merged."""
    loader = MigrationExecutor(connection).loader
    (after,) = [
        k for k in loader.disk_migrations if k[0] == "games" and k[1].endswith("_error_detail")
    ]
    (before,) = [d for d in loader.disk_migrations[after].dependencies if d[0] == "games"]
    return before, after


TRACEBACK = 'Traceback (most recent call last):\n  File "/srv/arena/workers/tasks.py", line 40'


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def test_an_old_traceback_leaves_the_public_error(toy_title):
    alice = make_user("alice")
    tournament = make_tournament(alice, [make_builtin(alice), make_builtin(alice)])
    before, after = the_migration()
    try:
        old = migrate(before).get_model("games", "Game")
        kept = old.objects.create(tournament_id=tournament.pk, number=1, seed=1, error=TRACEBACK)
        plain = old.objects.create(
            tournament_id=tournament.pk, number=2, seed=1, error="tournament cancelled"
        )
        new = migrate(after).get_model("games", "Game")
        moved = new.objects.get(pk=kept.pk)
        assert moved.error_detail == TRACEBACK and "Traceback" not in moved.error
        assert "staff" in moved.error
        untouched = new.objects.get(pk=plain.pk)
        assert (untouched.error, untouched.error_detail) == ("tournament cancelled", "")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
