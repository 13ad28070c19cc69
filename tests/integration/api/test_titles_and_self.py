"""/api/v1/titles/ (facts, rules version, option schema with defaults) and /api/v1/me/."""

import pytest

from .conftest import error_of

pytestmark = pytest.mark.django_db


def test_titles_list_every_title_with_its_option_schema(as_, toy_title):
    body = as_("anonymous").get("/api/v1/titles/").json()
    ids = [t["id"] for t in body]
    assert {"citadels", "praga", "toy"} <= set(ids)
    toy = next(t for t in body if t["id"] == "toy")
    assert toy["rules_version"] == toy_title.rules_version
    assert (toy["min_players"], toy["max_players"]) == (2, 4)
    option = next(o for o in toy["options"] if o["name"] == "max_cards")
    assert option["defaults"]["2"] == toy_title.options(2)["max_cards"]
    assert option["allowed"] and option["description"]


def test_a_title_is_read_by_its_id(as_, toy_title):
    body = as_("anonymous").get("/api/v1/titles/citadels/").json()
    assert body["name"] == "Citadels" and body["builtin_bots"]
    error_of(as_("anonymous").get("/api/v1/titles/chess/"), 404)


def test_me_is_the_signed_in_player(as_, people):
    assert as_("charlie").get("/api/v1/me/").json()["username"] == "charlie"
    assert as_("bob").get("/api/v1/me/").json()["is_staff"] is True
    assert error_of(as_("anonymous").get("/api/v1/me/"), 401)["code"] == "not_authenticated"
