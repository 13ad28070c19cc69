"""The page cache (arena/pagecache.py) on a real Redis: a cached answer is the uncached one,
what a write changes shows on the next request, a viewer's own page is served to nobody
else, and with Redis unreachable every cached read still answers."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token

from arena.bots.models import Bot
from arena.bots.services import add_builtin_version
from arena.games.models import Game
from arena.ratings.models import Rating
from arena.tournaments import house_ladders, ladders
from arena.tournaments import services as tournament_services
from tests.browser.site import _play_queued
from tests.factories import make_builtin, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def page_cache_on(settings):
    """On, as with ARENA_CACHE_URL set (each test puts the cache on its own Redis)."""
    settings.ARENA_PAGE_CACHE = True


@pytest.fixture
def ladder(toy_title, cache_on_redis):
    """alice's bot and the house bots on a two-seat toy ladder, a few games played."""
    alice = make_user("alice")
    make_builtin(alice, name="mine")
    made = house_ladders.create_ladder(
        organiser=alice, name="Toy ladder", title="toy", players=2, thinking=False
    )
    assert _play_queued(made, 6) == 6
    return made


def reads(ladder) -> dict[str, str]:
    """Every cached read of the ladder, by name: its URL."""
    bot = Bot.objects.get(name="mine")
    version = bot.versions.get()
    rating = Rating.objects.filter(tournament=ladder, bot_version=version).get()
    return {
        "ladder page": f"/ladders/{ladder.pk}/",
        "tournament page": f"/tournaments/{ladder.pk}/",
        "bot page": f"/bots/{bot.pk}/",
        "leaderboard": f"/api/v1/ladders/{ladder.pk}/leaderboard/",
        "ladder history": f"/api/v1/ladders/{ladder.pk}/history/{bot.pk}/",
        "ratings": f"/api/v1/ratings/?tournament={ladder.pk}",
        "rating history": f"/api/v1/ratings/{rating.pk}/history/",
        "games of the ladder": f"/api/v1/games/?tournament={ladder.pk}",
        "games of a bot": f"/api/v1/games/?bot={bot.pk}",
        "games of a version": f"/api/v1/games/?version={version.pk}",
        "all games": "/api/v1/games/",
        "standings": f"/api/v1/tournaments/{ladder.pk}/standings/",
        "challenges": f"/api/v1/ladders/{ladder.pk}/challenges/",
    }


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def body(client, url: str) -> bytes:
    """The answer's body; a signed-in page's CSRF token (masked afresh each time it is
    rendered) blanked."""
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", answer.content)


def test_a_cached_answer_is_the_uncached_one(ladder):
    staff = make_user("operator", staff=True)
    clients = {"anonymous": Client(), "staff": Client()}
    clients["staff"].force_login(staff)
    urls = {**reads(ladder), "staff queue": "/staff/queue/"}
    for who, client in clients.items():
        for name, url in urls.items():
            if name == "staff queue" and who == "anonymous":
                continue
            cache.clear()
            uncached = body(client, url)
            cached = body(client, url)
            assert cached == uncached, (who, name)


def test_the_cache_serves_until_a_write_says_what_changed(ladder):
    """A write no scope names (an UPDATE past the ORM's signals) is not seen while the
    answer is cached: the answers do come from the cache. A stored game is seen at once."""
    client = Client()
    url = f"/ladders/{ladder.pk}/"
    first = body(client, url).decode()
    bot = Bot.objects.get(name="mine")
    Bot.objects.filter(pk=bot.pk).update(name="renamed")  # no signal, no bump
    assert "renamed" not in body(client, url).decode()
    assert _play_queued(ladder, 1) == 1
    after = body(client, url).decode()
    assert "renamed" in after and after != first


def game_ids(client, url: str) -> set[int]:
    return {g["id"] for g in client.get(url).json()["results"]}


def test_a_stored_game_shows_at_once_on_every_read_of_it(ladder):
    client = Client()
    urls = reads(ladder)
    before = {name: body(client, url) for name, url in urls.items()}
    known = game_ids(client, urls["games of the ladder"])
    assert _play_queued(ladder, 1) == 1
    new = Game.objects.filter(tournament=ladder, status="finished").order_by("-id").first()
    assert game_ids(client, urls["games of the ladder"]) >= known | {new.pk}
    assert new.pk in game_ids(client, "/api/v1/games/")
    for name in ("ladder page", "tournament page", "leaderboard", "ratings", "standings"):
        assert body(client, urls[name]) != before[name], name
    mine = Bot.objects.get(name="mine")
    if new.seats.filter(bot_version__bot=mine).exists():  # the bot's reads, if it sat
        assert new.pk in game_ids(client, urls["games of a bot"])
        assert new.pk in game_ids(client, urls["games of a version"])
        assert f'href="{new.get_absolute_url()}"' in body(client, urls["bot page"]).decode()


def test_a_new_version_a_challenge_and_a_transition_show_at_once(ladder, toy_title):
    client = Client()
    bot = Bot.objects.get(name="mine")
    assert "v2" not in body(client, f"/bots/{bot.pk}/").decode()
    second = add_builtin_version(bot=bot, builtin_name="random")
    ladders.join_ladders(second)
    assert "v2" in body(client, f"/bots/{bot.pk}/").decode()
    leaderboard = client.get(f"/api/v1/ladders/{ladder.pk}/leaderboard/").json()["results"]
    assert [r["version"] for r in leaderboard if r["bot_id"] == bot.pk] == [2]

    url = f"/api/v1/ladders/{ladder.pk}/challenges/"
    assert client.get(url).json()["results"] == []
    rival = ladder.entrants.exclude(bot=bot).first().bot
    challenge = ladders.create_challenge(
        requester=bot.owner, ladder=ladder, bot=bot, opponents=[rival], games=1
    )
    assert [c["id"] for c in client.get(url).json()["results"]] == [challenge.pk]
    assert rival.name in body(client, f"/ladders/{ladder.pk}/").decode().split('id="challenges"')[1]

    cup = make_tournament(bot.owner, [second, make_builtin(bot.owner, name="other")], name="Cup")
    assert "draft" in body(client, f"/tournaments/{cup.pk}/").decode()
    tournament_services.start_tournament(cup.pk)
    assert "running" in body(client, f"/tournaments/{cup.pk}/").decode()


OWNER_ONLY = 'id="challenge-opt"'  # the bot page's switch, for its owner


def test_an_owners_page_is_served_to_nobody_else(ladder):
    bot = Bot.objects.get(name="mine")
    url = f"/bots/{bot.pk}/"
    make_user("bob")
    alice = signed_in("alice")
    assert OWNER_ONLY in body(alice, url).decode()
    assert OWNER_ONLY in body(alice, url).decode()  # cached for her
    assert OWNER_ONLY not in body(Client(), url).decode()
    bob = signed_in("bob")
    header = body(bob, url).decode().split("<main>")[0]
    assert OWNER_ONLY not in body(bob, url).decode()
    assert ">bob</a>" in header and ">alice</a>" not in header
    assert OWNER_ONLY in body(alice, url).decode()


def test_the_staff_queue_is_served_to_staff_only(ladder):
    operator = Client()
    operator.force_login(make_user("operator", staff=True))
    # The first page sets the CSRF cookie, so it is not kept (see arena.pagecache); the next is,
    # and the one after is served from it: the same to the second of its "At ..." line.
    body(operator, "/staff/queue/")
    assert body(operator, "/staff/queue/") == body(operator, "/staff/queue/")
    bob = Client()
    bob.force_login(make_user("bob"))
    assert bob.get("/staff/queue/").status_code == 403
    assert Client().get("/staff/queue/").status_code == 302  # to log in


def test_a_page_served_from_the_cache_carries_a_working_csrf_token(ladder):
    client = Client(enforce_csrf_checks=True)
    client.force_login(Bot.objects.get(name="mine").owner)
    url = f"/ladders/{ladder.pk}/"
    body(client, url)
    page = client.get(url).content.decode()  # from the cache
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert client.post("/logout/", {"csrfmiddlewaretoken": token}).status_code == 302


def test_a_message_is_shown_once_and_never_cached(ladder):
    bot = Bot.objects.get(name="mine")
    alice = signed_in("alice")
    body(alice, f"/bots/{bot.pk}/")
    answer = alice.post(f"/bots/{bot.pk}/challenges/", {"accepts": "yes"}, follow=True)
    assert "Others may challenge this bot." in answer.content.decode()
    assert "Others may challenge this bot." not in body(alice, f"/bots/{bot.pk}/").decode()


def test_api_reads_are_per_user_and_still_authenticated_and_throttled(ladder, settings):
    from rest_framework.test import APIClient

    url = f"/api/v1/games/?tournament={ladder.pk}"
    alice = Bot.objects.get(name="mine").owner
    token = Token.objects.create(user=alice)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get(url).status_code == 200
    assert api.get(url).status_code == 200  # cached for her
    token.delete()
    assert api.get(url).status_code == 401  # a revoked token is refused, cached or not
    settings.ARENA_THROTTLE_RATES = {**settings.ARENA_THROTTLE_RATES, "games": "3/day"}
    statuses = [APIClient().get(url).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_with_redis_unreachable_every_cached_read_answers(ladder, cache_on_redis):
    client = Client()
    staff = Client()
    staff.force_login(make_user("operator", staff=True))
    urls = reads(ladder)
    filled = {name: body(client, url) for name, url in urls.items()}
    cache_on_redis.stop()
    for name, url in urls.items():
        assert body(client, url) == filled[name], name  # computed again, then from memory
        assert body(client, url) == filled[name], name
    assert body(staff, "/staff/queue/")
    assert _play_queued(ladder, 1) == 1  # the store's bumps fail over too
    assert client.get(urls["ladder page"]).status_code == 200
    # Meanwhile nothing is kept: a write no scope names shows at once.
    Bot.objects.filter(name="mine").update(name="renamed")
    assert "renamed" in body(client, urls["ladder page"]).decode()


def test_without_a_shared_cache_nothing_is_cached(ladder, settings):
    """A cache of each process's own (the demo's) would never see a worker's bumps."""
    settings.ARENA_PAGE_CACHE = False
    client = Client()
    url = f"/ladders/{ladder.pk}/"
    body(client, url)
    Bot.objects.filter(name="mine").update(name="renamed")
    assert "renamed" in body(client, url).decode()
