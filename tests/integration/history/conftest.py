"""A long ladder history shared by this folder's tests: a few thousand games on one standing
ladder per title with 200 bot versions, a few played for real and the rest replicated in SQL
(``bench/history_build.py``, what ``bench/history.py`` times), folded into the totals as the
beat folds them. Built once per test process inside a transaction rolled back when the
folder's tests are done (each test's own changes roll back to a savepoint), as the
dashboards' history is."""

import pytest
from django.db import connection, transaction

from tests.support.replays import replays_once

HISTORY_GAMES = 3000


@pytest.fixture(scope="package")
def long_history(django_db_setup, django_db_blocker):
    from arena.games import totals
    from bench.history_build import build_history

    with django_db_blocker.unblock(), replays_once():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build_history(HISTORY_GAMES, say=lambda _: None)
            totals.fold_pending()
            # The foreign keys are checked now, once, as a commit would: left deferred, every
            # test's teardown (Django's TestCase checks them before its rollback) checked the
            # whole history again, since a savepoint's rollback un-fires what it checked.
            connection.check_constraints()
            yield built
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
