"""Withdrawing a bot or one version: it enters no new tournament; its games stay."""

import pytest

from arena.bots.models import BotVersion

from .conftest import ALLOWED, PEOPLE, error_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_owner_and_staff_withdraw_a_version(as_, versions, who):
    version = versions[0]
    response = as_(who).post(f"/api/v1/bot-versions/{version.pk}/withdraw/")
    version.refresh_from_db()
    if who in ALLOWED:
        assert response.status_code == 200 and response.json()["status"] == "withdrawn"
        assert version.status == BotVersion.Status.WITHDRAWN
    else:
        error_of(response, 401 if who == "anonymous" else 403)
        assert version.status == BotVersion.Status.READY


def test_withdrawing_twice_is_a_409(as_, versions):
    url = f"/api/v1/bot-versions/{versions[0].pk}/withdraw/"
    assert as_("alice").post(url).status_code == 200
    error_of(as_("alice").post(url), 409)


def test_a_withdrawn_version_cannot_enter_a_tournament(as_, people, versions):
    as_("alice").post(f"/api/v1/bot-versions/{versions[0].pk}/withdraw/")
    payload = {"name": "c", "title": "toy", "seats": 2, "entrants": [v.pk for v in versions]}
    response = as_("alice").post("/api/v1/tournaments/", payload)
    assert "withdrawn" in " ".join(error_of(response, 400)["fields"]["entrants"])


def test_a_bot_that_has_played_is_withdrawn_instead_of_deleted(as_, played):
    bot = played.games.first().seats.first().bot_version.bot
    response = as_("alice").post(f"/api/v1/bots/{bot.pk}/withdraw/")
    assert response.status_code == 200
    assert {v["status"] for v in response.json()} == {"withdrawn"}
    assert played.games.count() == 2  # its games stay
    error_of(as_("alice").post(f"/api/v1/bots/{bot.pk}/withdraw/"), 409)
    error_of(as_("charlie").post(f"/api/v1/bots/{bot.pk}/withdraw/"), 403)
