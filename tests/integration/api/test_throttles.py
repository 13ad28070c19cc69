"""Throttles count in the cache atomically (8 clients at once lose no count), and with the
cache on Redis and Redis down every request answers as with Redis up."""

from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 8


def test_eight_concurrent_clients_get_exactly_the_limit(live_server, cache_on_redis, settings):
    settings.ARENA_THROTTLE_RATES = {**settings.ARENA_THROTTLE_RATES, "games": "40/day"}
    token = Token.objects.create(user=make_user("alice")).key

    def reads(_):
        with requests.Session() as session:
            session.headers["Authorization"] = f"Token {token}"
            return [session.get(f"{live_server.url}/api/v1/games/").status_code for _ in range(10)]

    with ThreadPoolExecutor(CLIENTS) as pool:
        statuses = [s for batch in pool.map(reads, range(CLIENTS)) for s in batch]
    assert statuses.count(200) == 40
    assert statuses.count(429) == CLIENTS * 10 - 40


def test_with_redis_down_every_request_answers_as_with_redis_up(cache_on_redis, toy_title):
    from rest_framework.test import APIClient

    make_user("alice")
    cache_on_redis.stop()
    api = APIClient()
    answer = api.post("/api/v1/token/", {"username": "alice", "password": PASSWORD})
    assert answer.status_code == 200, answer.content
    api.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    made = api.post("/api/v1/bots/", {"title": "toy", "name": "offline"}, format="json")
    assert made.status_code == 201, made.content
    assert api.get("/api/v1/games/").status_code == 200
    assert APIClient().get("/api/v1/games/").status_code == 200
    assert cache.get("anything") is None


def test_throttles_still_count_while_redis_is_down(cache_on_redis, settings, toy_title):
    from rest_framework.test import APIClient

    settings.ARENA_THROTTLE_RATES = {**settings.ARENA_THROTTLE_RATES, "games": "3/day"}
    cache_on_redis.stop()
    statuses = [APIClient().get("/api/v1/games/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
