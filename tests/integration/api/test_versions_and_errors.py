"""/api/ is an alias of /api/v1/; every refusal under /api/ has the one error body."""

import pytest

from .conftest import error_of

pytestmark = pytest.mark.django_db


def test_the_unversioned_prefix_answers_like_v1(as_, played):
    api = as_("anonymous")
    for path in ["games/", f"tournaments/{played.pk}/standings/", "titles/"]:
        assert api.get(f"/api/{path}").json() == api.get(f"/api/v1/{path}").json(), path


def test_an_unknown_api_url_is_a_json_404(client):
    response = client.get("/api/v1/no-such-thing/")
    assert error_of(response, 404)["code"] == "not_found"
    assert response["Content-Type"] == "application/json"


def test_a_page_past_the_end_is_a_404_with_the_error_body(as_, toy_title):
    error_of(as_("anonymous").get("/api/v1/bots/", {"page": 99}), 404)


def test_a_body_that_is_not_json_is_a_400(as_, people):
    response = as_("alice").generic(
        "POST", "/api/v1/bots/", "{not json", content_type="application/json"
    )
    assert error_of(response, 400)["code"] == "parse_error"


def test_the_schema_describes_v1_and_each_operations_errors(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert "/api/v1/tournaments/{id}/start/" in schema["paths"]
    assert not [p for p in schema["paths"] if not p.startswith("/api/v1/")]
    start = schema["paths"]["/api/v1/tournaments/{id}/start/"]["post"]["responses"]
    assert {"200", "401", "403", "404", "409"} <= set(start)
    upload = schema["paths"]["/api/v1/bot-versions/"]["post"]["responses"]
    assert {"201", "400", "413", "429"} <= set(upload)
    error = start["409"]["content"]["application/json"]["schema"]["$ref"]
    assert error.endswith("/Error")
    # the raw schema stays at its old URL too
    assert client.get("/api/schema/").status_code == 200


def test_a_create_and_the_changes_that_answer_its_object_link_to_the_operations_on_it(client):
    paths = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    created = paths["/api/v1/tournaments/"]["post"]["responses"]["201"]["links"]
    started = paths["/api/v1/tournaments/{id}/start/"]["post"]["responses"]["200"]["links"]
    assert started == created
    assert started["tournaments_pause_create"] == {
        "operationId": "tournaments_pause_create",
        "parameters": {"id": "$response.body#/id"},
    }
    # a bot's withdrawal answers its versions, not the bot: no links
    assert "links" not in paths["/api/v1/bots/{id}/withdraw/"]["post"]["responses"]["200"]


@pytest.mark.parametrize("number", ["0.0", "1_0", " 3", "\u0663"])  # the last: Arabic 3
def test_an_id_filter_takes_ascii_digits_only(as_, toy_title, number):
    response = as_("anonymous").get("/api/v1/title-ratings/", {"players": number})
    assert "players" in error_of(response, 400)["fields"]


@pytest.mark.parametrize(
    "query",
    [
        {"bot": 2**63 - 1},
        {"version": -(2**63)},
        {"title": "a\x00b"},
        {"finished_after": "0001-01-01T00:00:00+01:00"},
        {"finished_before": "0113-05-17T12:05:43.2-23:15"},  # beyond PostgreSQL's offsets
    ],
)
def test_odd_but_well_formed_filters_match_nothing_rather_than_fail(as_, played, query):
    response = as_("anonymous").get("/api/v1/games/", query)
    assert response.status_code == 200, response.content
    assert len(response.json()["results"]) in (0, 2)


@pytest.mark.parametrize(
    "query",
    [
        "page_size=0",
        "page_size=201",
        "page_size=x",
        "page=",
        "page=last",
        "cursor=nonsense",
        "bot=",
        "title=",
        "status=finished&status=void",
        f"bot={2**63}",
        f"tournament={-(2**63) - 1}",
        f"version={10**30}",
    ],
)
def test_a_malformed_or_repeated_query_parameter_is_a_400(as_, played, query):
    error = error_of(as_("anonymous").get(f"/api/v1/games/?{query}"), 400)
    assert query.split("=")[0] in error["fields"]


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/bots/0..0/",
        "/api/v1/no-such-thing",
        "/api/no/such/thing/",
        f"/api/v1/bots/{10**30}/",
        f"/api/v1/games/{10**30}/seats/1/stderr/",
        f"/api/v1/ladders/1/history/{10**30}/",
    ],
)
def test_every_unknown_or_malformed_api_url_is_a_json_404(client, toy_title, settings, path, debug):
    settings.DEBUG = debug
    response = client.get(path)
    assert error_of(response, 404)["code"] == "not_found"
    assert response["Content-Type"] == "application/json"


def test_a_post_without_the_trailing_slash_is_sent_on_as_a_post(as_, people, toy_title):
    api = as_("alice")
    moved = api.post("/api/v1/bots?x=1", {"title": "toy", "name": "slashless"}, format="json")
    assert moved.status_code == 308
    assert moved["Location"] == "/api/v1/bots/?x=1"
    made = api.post(moved["Location"], {"title": "toy", "name": "slashless"}, format="json")
    assert made.status_code == 201


@pytest.mark.parametrize("who", ["anonymous", "alice"])
@pytest.mark.parametrize("path", ["/api/v1/token/", "/api/v1/bots/", "/api/v1/tournaments/"])
def test_a_body_over_the_limit_is_a_413_unread(as_, people, settings, who, path):
    body = '{"name": "' + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + '"}'
    response = as_(who).generic("POST", path, body, content_type="application/json")
    assert error_of(response, 413)["code"] == "payload_too_large"


def test_writes_take_json_and_the_upload_multipart_only(as_, people, toy_title):
    api = as_("alice")
    form = api.post("/api/v1/bots/", {"title": "toy", "name": "formed"}, format="multipart")
    assert error_of(form, 415)["code"] == "unsupported_media_type"
    upload = api.post("/api/v1/bot-versions/", {"bot": 1}, format="json")
    assert error_of(upload, 415)["code"] == "unsupported_media_type"


def test_an_error_of_a_csv_export_is_json(as_, played):
    response = as_("anonymous").get("/api/v1/games/csv/?bot=x", HTTP_ACCEPT="text/csv")
    assert "bot" in error_of(response, 400)["fields"]
    assert response["Content-Type"] == "application/json"
