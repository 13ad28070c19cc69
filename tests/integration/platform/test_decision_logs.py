"""A bot's per-decision log lines (act's "log"): its owner reads them in its games; once a
game is over, everyone does if the owner shares them, which the owner sets on the bot's page
or over the API (docs/bot-protocol.md, docs/viewer.md)."""

import json

import pytest
from rest_framework.test import APIClient

import engine
from arena.games.models import Game
from arena.games.presentation import decision_logs_shown
from engine.core import signatures
from tests.factories import make_user

from .test_viewer import store_finished_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture
def people():
    return make_user("alice"), make_user("bob"), make_user("charlie")


@pytest.fixture
def game(people):
    """A finished Praga game: alice's bot at seat 0, bob's at the others, each seat's bot
    having sent a note with every answer."""
    alice, bob, _ = people
    return store_finished_game("praga", alice, bob)


def _alices_bot(game):
    return game.seats.get(seat=0).bot_version.bot


def _page_notes(client, game) -> dict:
    page = client.get(f"/games/{game.pk}/").content.decode()
    data = page.split('id="viewer-data" type="application/json">')[1].split("</script>")[0]
    return json.loads(data)["decision_logs"]


def _replay_notes(client, game) -> dict | None:
    answer = client.get(f"/games/{game.pk}/replay.json")
    assert answer.status_code == 200
    return json.loads(answer.content).get("decision_logs")


def test_a_bots_notes_are_private_by_default_and_shared_after_the_game_when_its_owner_says(
    client, game, people
):
    alice, bob, charlie = people
    bot = _alices_bot(game)
    assert bot.decision_logs_public is False
    assert _page_notes(client, game) == {} and _replay_notes(client, game) is None
    client.force_login(charlie)
    assert _page_notes(client, game) == {}
    # charlie cannot share alice's notes, nor can the anonymous client
    assert client.post(f"/bots/{bot.pk}/decision-logs/", {"public": "yes"}).status_code == 403
    client.logout()
    answer = client.post(f"/bots/{bot.pk}/decision-logs/", {"public": "yes"})
    assert answer.status_code == 302 and "login" in answer["Location"]
    client.force_login(alice)
    page = client.get(bot.get_absolute_url()).content.decode()
    assert 'id="decision-logs-opt"' in page and "Show them to everyone" in page
    answer = client.post(f"/bots/{bot.pk}/decision-logs/", {"public": "yes"})
    assert answer.status_code == 302
    bot.refresh_from_db()
    assert bot.decision_logs_public is True

    # now everyone reads seat 0's notes of the finished game, in the viewer and the download
    for who in (None, charlie, bob):
        client.logout()
        if who is not None:
            client.force_login(who)
        shown = _page_notes(client, game)
        assert shown["0"]["3"] == "seat 0 reasons at 3"
        assert _replay_notes(client, game)["0"]["3"] == "seat 0 reasons at 3"
        # bob's bots keep theirs to him: others read seat 0's only
        assert set(shown) == ({"0", "1", "2", "3"} if who is bob else {"0"})
    # the download is still the game's record, sealed and signed with the notes beside it
    client.logout()
    record = json.loads(client.get(f"/games/{game.pk}/replay.json").content)
    signatures.check(record)
    praga = engine.title("praga")
    assert praga.replay(record).result() == praga.replay(game.record).result()

    client.force_login(alice)
    client.post(f"/bots/{bot.pk}/decision-logs/", {"public": "no"})
    client.force_login(charlie)
    assert _page_notes(client, game) == {} and _replay_notes(client, game) is None


def test_while_a_game_runs_only_the_owner_reads_its_bots_notes(game, people):
    alice, bob, charlie = people
    bot = _alices_bot(game)
    bot.decision_logs_public = True
    bot.save(update_fields=["decision_logs_public"])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
    game.refresh_from_db()
    seats = list(game.seats.select_related("bot_version__bot").order_by("seat"))
    assert list(decision_logs_shown(game, seats, alice)) == ["0"]
    assert decision_logs_shown(game, seats, charlie) == {}
    assert "0" not in decision_logs_shown(game, seats, bob)


def _api(user=None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_the_owner_shares_its_bots_notes_over_the_api_and_the_replay_carries_them(game, people):
    alice, bob, charlie = people
    bot = _alices_bot(game)
    replay = f"/api/v1/games/{game.pk}/replay/"
    assert _api(alice).get(f"/api/v1/bots/{bot.pk}/").json()["decision_logs_public"] is False
    assert "decision_logs" not in _api().get(replay).json()
    assert _api(charlie).get(replay).json().get("decision_logs") is None
    # the owner reads its own in any case
    assert _api(alice).get(replay).json()["decision_logs"]["0"]["5"] == "seat 0 reasons at 5"

    refused = _api(charlie).patch(f"/api/v1/bots/{bot.pk}/", {"decision_logs_public": True})
    assert refused.status_code == 403
    refused = _api().patch(f"/api/v1/bots/{bot.pk}/", {"decision_logs_public": True})
    assert refused.status_code == 401
    answer = _api(alice).patch(f"/api/v1/bots/{bot.pk}/", {"decision_logs_public": True})
    assert answer.status_code == 200 and answer.json()["decision_logs_public"] is True

    for who in (None, charlie):
        served = _api(who).get(replay).json()
        assert served["decision_logs"] == {"0": game.seats.get(seat=0).decision_logs}
        signatures.check(served)  # signed with the notes
    assert set(_api(bob).get(replay).json()["decision_logs"]) == {"0", "1", "2", "3"}
