"""A worker's kept connection killed under a claim or a store: the step runs once more on a
new connection, whether Django or psycopg itself (a pipelined round trip) raised the error."""

import psycopg
import pytest
from django.db import connection

from arena.games.tasks import on_a_live_connection

pytestmark = pytest.mark.django_db(transaction=True)


def kill_this_connection() -> None:
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    dsn = connection.connection.info.dsn
    with psycopg.connect(dsn, password=connection.settings_dict.get("PASSWORD") or None) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_raw_statement_on_a_killed_connection_is_retried_once():
    runs = []

    def step():
        runs.append(1)
        connection.ensure_connection()
        with connection.connection.cursor() as cursor:  # psycopg's cursor: its own errors
            cursor.execute("SELECT 1")
            return cursor.fetchone()[0]

    kill_this_connection()
    assert on_a_live_connection(step) == 1
    assert len(runs) == 2


def test_a_django_statement_on_a_killed_connection_is_retried_once():
    runs = []

    def step():
        runs.append(1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 2")
            return cursor.fetchone()[0]

    kill_this_connection()
    assert on_a_live_connection(step) == 2
    assert len(runs) == 2
