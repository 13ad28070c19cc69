"""The runbook's backup and restore of PostgreSQL: `pg_dump --format=custom`, then into an
empty database `pg_restore --no-owner` and `migrate`, bring back every row."""

import os
import subprocess

import psycopg
import pytest

from .conftest import manage, operator_env

pytestmark = pytest.mark.slow

SERVER = "postgresql://postgres@127.0.0.1:5432"
# Made and dropped here; named after this worktree's helper and process, so parallel runs
# and other checkouts never meet.
NAMES = [f"arena_deploy_{kind}_{os.getpid()}" for kind in ("backed_up", "restored")]
MAKE_DATA = """
from django.contrib.auth import get_user_model
from arena.bots import services
from arena.bots.models import Bot
from arena.tournaments import services as tournaments
owner = get_user_model().objects.create_user("alice")
versions = [services.add_builtin_version(
    bot=Bot.objects.create(owner=owner, title="citadels", name=f"b{i}"), builtin_name="random")
    for i in range(4)]
tournaments.create_tournament(organiser=owner, name="Kept", title="citadels", seats=4,
                              entrants=versions, seed=77)
"""
COUNT = (
    "SELECT (SELECT count(*) FROM auth_user), (SELECT count(*) FROM bots_botversion), "
    "(SELECT seed FROM tournaments_tournament WHERE name = 'Kept')"
)


@pytest.fixture
def databases():
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        for name in NAMES:
            admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {NAMES[0]}")
        yield [f"{SERVER}/{name}" for name in NAMES]
        for name in NAMES:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_a_dump_restored_into_an_empty_database_has_every_row(databases, tmp_path):
    source, target = databases
    env = operator_env(ARENA_DATABASE_URL=source, ARENA_VAR_DIR=str(tmp_path / "var"))
    for step in (["migrate", "--noinput"], ["shell", "-c", MAKE_DATA]):
        done = manage(env, *step)
        assert done.returncode == 0, done.stderr
    dump = tmp_path / "arena.dump"
    run = {"capture_output": True, "text": True, "timeout": 120, "check": True}
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", source], **run)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", NAMES[1]], **run)
    subprocess.run(["pg_restore", "--no-owner", f"--dbname={target}", str(dump)], **run)
    migrated = manage({**env, "ARENA_DATABASE_URL": target}, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    with psycopg.connect(source) as before, psycopg.connect(target) as after:
        assert after.execute(COUNT).fetchone() == before.execute(COUNT).fetchone() == (1, 4, 77)
