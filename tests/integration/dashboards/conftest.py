"""A few hundred stored games of both titles, shared by this folder's tests: played once per
test process by ``simulate_history``'s own function, inside a transaction that is rolled
back when the folder's tests are done (each test's own changes are rolled back to a
savepoint). Package scope, not session: the open transaction must end before tests of other
folders run in the same process, which need committed rows (live server, Celery workers)."""

import datetime as dt

import pytest
from django.db import connection, transaction

from tests.support.replays import replays_once

HISTORY_GAMES = 240


@pytest.fixture(scope="package")
def history(django_db_setup, django_db_blocker):
    from arena.tournaments.history import simulate

    with django_db_blocker.unblock(), replays_once():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            stored = simulate(HISTORY_GAMES, seed=7, say=lambda _: None)
            # The foreign keys are checked now, once, as a commit would: left deferred, every
            # test's teardown (Django's TestCase checks them before its rollback) checked the
            # whole history again, since a savepoint's rollback un-fires what it checked.
            connection.check_constraints()
            yield {"games": stored, "today": dt.datetime.now(dt.UTC).date()}
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
