"""Games stored before error_detail existed kept the runner's traceback in the public
``error``; the migration that adds error_detail moves it there."""

import pytest

from tests.factories import make_builtin, make_tournament, make_user
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


TRACEBACK = 'Traceback (most recent call last):\n  File "/srv/arena/workers/tasks.py", line 40'


def test_an_old_traceback_leaves_the_public_error(toy_title):
    alice = make_user("alice")
    tournament = make_tournament(alice, [make_builtin(alice), make_builtin(alice)])
    before, after = around("games", "_error_detail")
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
        migrate_to_latest()
