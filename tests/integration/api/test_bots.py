"""/api/v1/bots/: create, rename, change, delete; each refusal a 4xx with the error body."""

import pytest

from arena.bots.models import Bot
from tests.factories import make_bot

from .conftest import ALLOWED, PEOPLE, error_of

pytestmark = pytest.mark.django_db


def test_it_creates_a_bot_for_the_signed_in_player(as_, people, toy_title):
    response = as_("charlie").post("/api/v1/bots/", {"title": "toy", "name": "new"})
    assert response.status_code == 201, response.content
    assert response.json()["owner"] == "charlie"
    assert Bot.objects.get(name="new").owner == people["charlie"]


def test_creating_a_bot_without_a_token_is_401(as_, toy_title):
    error = error_of(as_("anonymous").post("/api/v1/bots/", {"title": "toy", "name": "x"}), 401)
    assert error["code"] == "not_authenticated"


def test_a_bad_token_is_401_even_on_a_public_read(toy_title):
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert error_of(api.get("/api/v1/bots/"), 401)["code"] == "authentication_failed"


def test_an_unknown_title_is_a_400_naming_the_field(as_, people):
    error = error_of(as_("alice").post("/api/v1/bots/", {"title": "chess", "name": "x"}), 400)
    assert error["code"] == "invalid" and "title" in error["fields"]


def test_renaming_a_bot_to_a_name_its_owner_uses_is_a_400_not_a_500(as_, people, toy_title):
    make_bot(people["alice"], name="taken")
    bot = make_bot(people["alice"], name="free")
    response = as_("alice").patch(f"/api/bots/{bot.pk}/", {"name": "taken"})
    error = error_of(response, 400)
    assert "already have a toy bot named 'taken'" in error["fields"]["name"][0]
    bot.refresh_from_db()
    assert bot.name == "free"


def test_creating_a_bot_with_a_name_its_owner_uses_is_a_400(as_, people, toy_title):
    make_bot(people["alice"], name="taken")
    error = error_of(as_("alice").post("/api/v1/bots/", {"title": "toy", "name": "taken"}), 400)
    assert "name" in error["fields"]


def test_another_player_may_use_the_same_name(as_, people, toy_title):
    make_bot(people["alice"], name="taken")
    bot = make_bot(people["charlie"], name="other")
    assert as_("charlie").patch(f"/api/v1/bots/{bot.pk}/", {"name": "taken"}).status_code == 200


def test_a_bots_title_cannot_change_once_it_has_versions(as_, versions):
    bot = versions[0].bot
    response = as_("alice").patch(f"/api/bots/{bot.pk}/", {"title": "citadels"})
    error = error_of(response, 400)
    assert "cannot change" in error["fields"]["title"][0]
    bot.refresh_from_db()
    assert bot.title == "toy"


def test_a_bots_title_may_change_before_its_first_version(as_, people, toy_title):
    bot = make_bot(people["alice"], name="early")
    response = as_("alice").patch(f"/api/v1/bots/{bot.pk}/", {"title": "citadels"})
    assert response.status_code == 200 and response.json()["title"] == "citadels"


def test_deleting_a_bot_that_has_played_is_a_409_not_a_500(as_, played):
    bot = played.games.first().seats.first().bot_version.bot
    error = error_of(as_("alice").delete(f"/api/bots/{bot.pk}/"), 409)
    assert "withdraw" in error["message"]
    assert Bot.objects.filter(pk=bot.pk).exists()


def test_deleting_a_bot_entered_in_a_draft_is_a_409(as_, people, versions):
    from tests.factories import make_tournament

    make_tournament(people["alice"], versions)
    error_of(as_("alice").delete(f"/api/v1/bots/{versions[0].bot_id}/"), 409)


@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_owner_and_staff_change_or_delete_a_bot(as_, people, toy_title, who):
    bot = make_bot(people["alice"], name="spare")
    renamed = as_(who).patch(f"/api/v1/bots/{bot.pk}/", {"name": "renamed"})
    deleted = as_(who).delete(f"/api/v1/bots/{bot.pk}/")
    if who in ALLOWED:
        assert (renamed.status_code, deleted.status_code) == (200, 204)
        assert not Bot.objects.filter(pk=bot.pk).exists()
    else:
        status = 401 if who == "anonymous" else 403
        error_of(renamed, status)
        error_of(deleted, status)
        bot.refresh_from_db()
        assert bot.name == "spare"


def test_a_missing_bot_is_a_404_with_the_error_body(as_, toy_title):
    assert error_of(as_("anonymous").get("/api/v1/bots/999999/"), 404)["code"] == "not_found"


def test_a_wrong_method_is_a_405_with_the_error_body(as_, people):
    response = as_("alice").post("/api/v1/titles/")
    assert error_of(response, 405)["code"] == "method_not_allowed"


def test_bots_filter_by_owner_and_title(as_, people, toy_title):
    make_bot(people["alice"], name="a")
    make_bot(people["charlie"], name="c")
    body = as_("anonymous").get("/api/v1/bots/", {"owner": "charlie", "title": "toy"}).json()
    assert [b["name"] for b in body["results"]] == ["c"]


def test_a_description_longer_than_the_web_forms_is_a_400(as_, people, toy_title):
    long = "x" * (Bot.DESCRIPTION_MAX_LENGTH + 1)
    body = {"title": "toy", "name": "wordy", "description": long}
    error = error_of(as_("alice").post("/api/v1/bots/", body), 400)
    assert "description" in error["fields"]
    assert not Bot.objects.filter(name="wordy").exists()


@pytest.mark.parametrize("accepts", [0, 1, "true", "no", None])
def test_the_challenge_opt_out_takes_a_json_boolean_only(as_, people, toy_title, accepts):
    bot = make_bot(people["alice"], name="picky")
    response = as_("alice").post(f"/api/v1/bots/{bot.pk}/challenges/", {"accepts": accepts})
    assert "accepts" in error_of(response, 400)["fields"]


def test_a_name_over_its_limit_as_sent_is_a_400_though_it_fits_once_trimmed(as_, people, toy_title):
    body = {"title": "toy", "name": "\t" + "x" * 64}
    assert "name" in error_of(as_("alice").post("/api/v1/bots/", body), 400)["fields"]
    assert not Bot.objects.filter(name="x" * 64).exists()


@pytest.mark.parametrize("shared", [0, 1, "true", "no", None])
def test_sharing_decision_logs_takes_a_json_boolean_only(as_, people, toy_title, shared):
    body = {"title": "toy", "name": "chatty", "decision_logs_public": shared}
    error = error_of(as_("alice").post("/api/v1/bots/", body), 400)
    assert "decision_logs_public" in error["fields"]
    assert not Bot.objects.filter(name="chatty").exists()


@pytest.mark.parametrize("field", ["name", "description"])
def test_text_fields_take_json_strings_only(as_, people, toy_title, field):
    body = {"title": "toy", "name": "numbered", field: 0}
    assert field in error_of(as_("alice").post("/api/v1/bots/", body), 400)["fields"]


def test_a_field_the_bot_does_not_have_is_a_400_naming_it(as_, people, toy_title):
    body = {"title": "toy", "name": "typo", "descripton": "misspelt"}
    assert "descripton" in error_of(as_("alice").post("/api/v1/bots/", body), 400)["fields"]
