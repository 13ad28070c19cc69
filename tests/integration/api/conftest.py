"""The API tests' people and data: alice owns the bots and tournaments, bob is staff,
charlie is a signed-in stranger, and the anonymous client; each has a token client."""

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import make_builtin, make_tournament, make_user, play_in_process

PEOPLE = ["anonymous", "alice", "bob", "charlie"]
ALLOWED = {"alice", "bob"}  # the owner / organiser, and staff


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Throttle counts live in the cache; each test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def people(db):
    return {
        "alice": make_user("alice"),
        "bob": make_user("bob", staff=True),
        "charlie": make_user("charlie"),
    }


@pytest.fixture
def as_(people):
    """``as_("alice")``: an API client with alice's token (``"anonymous"``: none)."""

    def client(who: str) -> APIClient:
        api = APIClient()
        if who != "anonymous":
            token, _ = Token.objects.get_or_create(user=people[who])
            api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return api

    return client


@pytest.fixture
def versions(people, toy_title):
    """Two ready built-in versions of alice's, of the toy title."""
    return [make_builtin(people["alice"], name=f"bot-{i}") for i in range(2)]


@pytest.fixture
def played(people, versions):
    """A finished two-game tournament of the toy title, played in this process."""
    tournament = make_tournament(people["alice"], versions, seats=2, name="Played cup")
    return play_in_process(tournament, stderr=["log of seat 0", "log of seat 1"])


def error_of(response, status: int) -> dict:
    """The error body of ``response``, after checking its status and shape."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "fields"}
    assert body["error"]["message"]
    return body["error"]
