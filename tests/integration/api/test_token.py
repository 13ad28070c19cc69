"""/api/v1/token/: a username and password for the token; throttled per address."""

import pytest

from tests.factories import PASSWORD

from .conftest import error_of

pytestmark = pytest.mark.django_db


def test_the_right_password_gives_the_players_token(as_, people):
    response = as_("anonymous").post("/api/v1/token/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    token = response.json()["token"]
    assert people["alice"].auth_token.key == token


def test_a_wrong_password_is_a_400(as_, people):
    response = as_("anonymous").post("/api/v1/token/", {"username": "alice", "password": "x"})
    assert error_of(response, 400)["code"] == "invalid"


def test_after_the_limit_even_the_right_password_is_throttled(as_, people, settings):
    settings.ARENA_THROTTLE_RATES = {**settings.ARENA_THROTTLE_RATES, "login": "5/minute"}
    api = as_("anonymous")
    for _ in range(5):
        wrong = api.post("/api/token/", {"username": "alice", "password": "guess"})
        assert wrong.status_code == 400
    right = api.post("/api/token/", {"username": "alice", "password": PASSWORD})
    assert error_of(right, 429)["code"] == "throttled"
    assert int(right["Retry-After"]) > 0


def test_uploads_and_tournament_creation_are_throttled_per_player(as_, versions, settings):
    settings.ARENA_THROTTLE_RATES = {**settings.ARENA_THROTTLE_RATES, "tournament": "2/hour"}
    payload = {"name": "c", "title": "toy", "seats": 2, "entrants": [v.pk for v in versions]}
    for _ in range(2):
        assert as_("alice").post("/api/v1/tournaments/", payload).status_code == 201
    error_of(as_("alice").post("/api/v1/tournaments/", payload), 429)
    assert as_("charlie").post("/api/v1/tournaments/", payload).status_code == 201


def test_a_username_longer_than_any_is_a_400_naming_it(as_, people):
    response = as_("anonymous").post("/api/v1/token/", {"username": "a" * 151, "password": "x"})
    assert "username" in error_of(response, 400)["fields"]


def test_the_schema_documents_the_tokens_400(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    assert "400" in schema["paths"]["/api/v1/token/"]["post"]["responses"]


def test_a_player_replaces_the_token_and_the_old_one_stops_working(as_, people):
    api = as_("alice")
    old = people["alice"].auth_token.key
    fresh = api.post("/api/v1/token/rotate/").json()["token"]
    assert fresh != old
    assert error_of(api.get("/api/v1/me/"), 401)["code"] == "authentication_failed"
    api.credentials(HTTP_AUTHORIZATION=f"Token {fresh}")
    assert api.get("/api/v1/me/").json()["username"] == "alice"


def test_a_player_revokes_the_token(as_, people):
    api = as_("alice")
    assert api.post("/api/v1/token/revoke/").status_code == 204
    error_of(api.get("/api/v1/me/"), 401)
    error_of(as_("anonymous").post("/api/v1/token/revoke/"), 401)
    error_of(as_("anonymous").post("/api/v1/token/rotate/"), 401)


@pytest.mark.parametrize(
    "path", ["/api/v1/token/", "/api/v1/token/rotate/", "/api/v1/token/revoke/"]
)
def test_options_on_the_token_urls_describe_them(as_, people, path):
    assert as_("alice").options(path).status_code == 200
