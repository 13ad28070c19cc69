"""The settings refuse a malformed ARENA_* value with a message naming the variable and what
it takes, and read the database URL as the operator wrote it."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from arena.settings import database_from_url, env_bool, env_choice, env_int


def test_database_urls_of_both_kinds_are_read_with_the_platforms_options(monkeypatch):
    monkeypatch.setenv("ARENA_DB_CONN_MAX_AGE", "7")
    pg = database_from_url("postgres://arena:s%40cret@db.internal:5433/arena?sslmode=require")
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], str(pg["PORT"])) == (
        "arena", "arena", "s@cret", "db.internal", "5433",
    )  # fmt: skip
    assert pg["OPTIONS"]["sslmode"] == "require" and pg["CONN_MAX_AGE"] == 7
    lite = database_from_url("sqlite:////srv/arena/arena.sqlite3")
    assert lite["ENGINE"] == "django.db.backends.sqlite3"
    assert lite["NAME"] == "/srv/arena/arena.sqlite3"
    assert lite["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://db/arena", "must start with postgres:// or sqlite:///"),
        ("sqlite:///", "names no SQLite file"),
        ("postgres://db.internal/", "names no database"),
        ("postgres://db.internal:port/arena", "is its port a number?"),
    ],
)
def test_a_database_url_the_platform_cannot_use_is_refused_by_name(url, says):
    with pytest.raises(ImproperlyConfigured, match="ARENA_DATABASE_URL") as refused:
        database_from_url(url)
    assert says in str(refused.value)


def test_numbers_switches_and_choices_name_the_variable_and_what_it_takes(monkeypatch):
    monkeypatch.setenv("ARENA_X", "many")
    with pytest.raises(ImproperlyConfigured, match="ARENA_X must be a whole number, not 'many'"):
        env_int("ARENA_X", 1, low=1, high=9)
    monkeypatch.setenv("ARENA_X", "10")
    with pytest.raises(ImproperlyConfigured, match="ARENA_X must be between 1 and 9, not 10"):
        env_int("ARENA_X", 1, low=1, high=9)
    monkeypatch.setenv("ARENA_X", "maybe")
    with pytest.raises(ImproperlyConfigured, match="ARENA_X must be true or false, not 'maybe'"):
        env_bool("ARENA_X", False)
    monkeypatch.setenv("ARENA_X", "docker")
    with pytest.raises(ImproperlyConfigured, match="must be one of bwrap, none, not 'docker'"):
        env_choice("ARENA_X", "bwrap", ("bwrap", "none"))
    monkeypatch.setenv("ARENA_X", "off")
    assert env_bool("ARENA_X", True) is False
