"""Who may change what: alice owns, bob is staff, charlie is a signed-in stranger, and the
anonymous client; every page and endpoint that changes something is tried by each."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat
from arena.tournaments.models import Tournament
from tests.factories import RANDOM_BOT_SOURCE, make_builtin, make_tournament, make_user

pytestmark = pytest.mark.django_db

PEOPLE = ["anonymous", "alice", "bob", "charlie"]
ALLOWED = {"alice", "bob"}  # the owner / organiser, and staff


@pytest.fixture
def world(toy_title, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    users = {
        "alice": make_user("alice"),
        "bob": make_user("bob", staff=True),
        "charlie": make_user("charlie"),
    }
    alice = users["alice"]
    versions = [make_builtin(alice, builtin="random") for _ in range(2)]
    bot = versions[0].bot
    tournament = make_tournament(alice, versions)
    played = make_tournament(alice, versions, name="Played cup")
    game = Game.objects.create(tournament=played, number=1, seed=1, status=Game.Status.FINISHED)
    GameSeat.objects.create(game=game, seat=0, bot_version=versions[0], stderr="alice's secret log")
    GameSeat.objects.create(game=game, seat=1, bot_version=versions[1])
    return {
        "users": users,
        "bot": bot,
        "versions": versions,
        "tournament": tournament,
        "game": game,
    }


def web_client(client, world, who):
    if who != "anonymous":
        client.force_login(world["users"][who])
    return client


def api_client(world, who):
    api = APIClient()
    if who != "anonymous":
        token = Token.objects.create(user=world["users"][who])
        api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


def expect(response, who, *, ok_codes=(200, 201, 302)):
    if who in ALLOWED:
        assert response.status_code in ok_codes, (who, response.status_code)
    elif who == "anonymous":
        assert response.status_code in (302, 401, 403), (who, response.status_code)
        if response.status_code == 302:
            assert response["Location"].startswith("/login/")
    else:
        assert response.status_code == 403, (who, response.status_code)


# -- web pages ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_owner_and_staff_upload_a_version_on_the_web(client, world, who):
    bot = world["bot"]
    before = bot.versions.count()
    response = web_client(client, world, who).post(
        f"/bots/{bot.pk}/upload/",
        {"file": SimpleUploadedFile("bot.py", RANDOM_BOT_SOURCE.encode())},
    )
    expect(response, who)
    assert bot.versions.count() == before + (1 if who in ALLOWED else 0)


@pytest.mark.parametrize("who", PEOPLE)
@pytest.mark.parametrize("action", ["start", "cancel"])
def test_only_the_organiser_and_staff_start_or_cancel_a_tournament(client, world, who, action):
    tournament = world["tournament"]
    response = web_client(client, world, who).post(f"/tournaments/{tournament.pk}/{action}/")
    expect(response, who)
    tournament.refresh_from_db()
    changed = tournament.status != Tournament.Status.DRAFT
    assert changed == (who in ALLOWED)


@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_owner_and_staff_read_a_bots_stderr(client, world, who):
    game = world["game"]
    response = web_client(client, world, who).get(f"/games/{game.pk}/seats/0/stderr.txt")
    if who in ALLOWED:
        assert response.status_code == 200 and b"alice's secret log" in response.content
    else:
        assert response.status_code == 403


@pytest.mark.parametrize("who", PEOPLE)
def test_creating_a_bot_needs_a_login(client, world, who):
    response = web_client(client, world, who).post("/bots/", {"title": "toy", "name": "new"})
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/login/")
        assert not Bot.objects.filter(name="new").exists()
    else:
        assert response.status_code == 302
        assert Bot.objects.get(name="new").owner == world["users"][who]


@pytest.mark.parametrize("who", PEOPLE)
def test_creating_a_tournament_needs_a_login(client, world, who):
    versions = world["versions"]
    response = web_client(client, world, who).post(
        "/tournaments/new/",
        {
            "name": "Spring cup", "title": "toy", "seats": 2, "format": "round_robin",
            "rounds": 1, "ladder_games": 0, "options": "", "decision_ms": 1000,
            "bank_ms": 1000, "seed": 3, "entrants": [v.pk for v in versions],
        },
    )  # fmt: skip
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/login/")
        assert not Tournament.objects.filter(name="Spring cup").exists()
    else:
        assert response.status_code == 302, response.content
        assert Tournament.objects.get(name="Spring cup").organiser == world["users"][who]


@pytest.mark.parametrize("who", PEOPLE)
def test_api_tokens_are_changed_only_by_their_holder(client, world, who):
    response = web_client(client, world, who).post("/me/token/create/")
    if who == "anonymous":
        assert response.status_code == 302 and response["Location"].startswith("/login/")
        assert not Token.objects.exists()
    else:
        assert Token.objects.filter(user=world["users"][who]).count() == 1


@pytest.mark.parametrize(
    "url",
    [
        "/bots/{bot}/upload/",
        "/tournaments/{tournament}/start/",
        "/me/token/create/",
        "/me/token/revoke/",
    ],
)
def test_changing_pages_refuse_get(client, world, url):
    client.force_login(world["users"]["alice"])
    url = url.format(bot=world["bot"].pk, tournament=world["tournament"].pk)
    assert client.get(url).status_code == 405


def test_csrf_is_enforced_on_forms(world):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(world["users"]["alice"])
    response = strict.post(f"/tournaments/{world['tournament'].pk}/start/")
    assert response.status_code == 403
    world["tournament"].refresh_from_db()
    assert world["tournament"].status == Tournament.Status.DRAFT


# -- API -------------------------------------------------------------------------------


@pytest.mark.parametrize("who", PEOPLE)
def test_api_only_the_owner_and_staff_rename_a_bot(world, who):
    bot = world["bot"]
    response = api_client(world, who).patch(
        f"/api/bots/{bot.pk}/", {"name": "renamed"}, format="json"
    )
    expect(response, who)
    bot.refresh_from_db()
    assert (bot.name == "renamed") == (who in ALLOWED)


@pytest.mark.parametrize("who", PEOPLE)
def test_api_only_the_owner_and_staff_delete_a_bot(world, who):
    bot = Bot.objects.create(owner=world["users"]["alice"], title="toy", name="spare")
    response = api_client(world, who).delete(f"/api/bots/{bot.pk}/")
    expect(response, who, ok_codes=(204,))
    assert Bot.objects.filter(pk=bot.pk).exists() == (who not in ALLOWED)


@pytest.mark.parametrize("who", PEOPLE)
def test_api_only_the_owner_and_staff_upload_a_version(world, who):
    bot = world["bot"]
    before = bot.versions.count()
    response = api_client(world, who).post(
        "/api/bot-versions/",
        {"bot": bot.pk, "file": SimpleUploadedFile("bot.py", RANDOM_BOT_SOURCE.encode())},
        format="multipart",
    )
    expect(response, who)
    assert bot.versions.count() == before + (1 if who in ALLOWED else 0)


@pytest.mark.parametrize("who", PEOPLE)
@pytest.mark.parametrize("action", ["start", "cancel"])
def test_api_only_the_organiser_and_staff_change_a_tournament(world, who, action):
    tournament = world["tournament"]
    response = api_client(world, who).post(f"/api/tournaments/{tournament.pk}/{action}/")
    expect(response, who)
    tournament.refresh_from_db()
    assert (tournament.status != Tournament.Status.DRAFT) == (who in ALLOWED)


@pytest.mark.parametrize("who", PEOPLE)
def test_api_creating_a_tournament_needs_a_login(world, who):
    payload = {
        "name": "API cup",
        "title": "toy",
        "seats": 2,
        "entrants": [v.pk for v in world["versions"]],
    }
    response = api_client(world, who).post("/api/tournaments/", payload, format="json")
    if who == "anonymous":
        assert response.status_code in (401, 403)
    else:
        assert response.status_code == 201, response.content
        assert Tournament.objects.get(name="API cup").organiser == world["users"][who]


@pytest.mark.parametrize("who", PEOPLE)
def test_api_shows_a_validation_log_only_to_its_owner(world, who):
    version = world["versions"][0]
    BotVersion.objects.filter(pk=version.pk).update(validation_stderr="traceback here")
    response = api_client(world, who).get(f"/api/bot-versions/{version.pk}/")
    assert response.status_code == 200
    shown = response.json()["validation_stderr"]
    assert (shown == "traceback here") == (who in ALLOWED)
