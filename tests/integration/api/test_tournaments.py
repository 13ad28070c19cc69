"""/api/v1/tournaments/: one specification with the web form, the state changes, progress
and standings."""

import pytest

from arena.tournaments import spec
from arena.tournaments.forms import TournamentForm
from arena.tournaments.models import Tournament
from tests.factories import make_ready_upload, make_tournament

from .conftest import ALLOWED, PEOPLE, error_of

pytestmark = pytest.mark.django_db


def payload(versions, **changes):
    return {
        "name": "API cup",
        "title": "toy",
        "seats": 2,
        "entrants": [v.pk for v in versions],
        **changes,
    }


def test_it_creates_a_draft_with_the_specifications_defaults(as_, versions, toy_title):
    response = as_("alice").post("/api/v1/tournaments/", payload(versions))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "draft" and body["organiser"] == "alice"
    for field, bound in spec.FIELDS.items():
        if field != "seats":
            assert body[field] == bound.default, field
    assert body["format"] == spec.DEFAULT_FORMAT
    assert body["options"] == toy_title.options(2)  # resolved: the title's defaults


def test_the_web_form_offers_the_same_bounds_and_defaults():
    form = TournamentForm()
    for field, bound in spec.FIELDS.items():
        assert form.fields[field].min_value == bound.low, field
        assert form.fields[field].max_value == bound.high, field
        assert form.fields[field].initial == bound.default, field


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("rounds", 2_000_000_000),
        ("rounds", 0),
        ("decision_ms", 0),
        ("bank_ms", -1),
        ("seats", 99),
        ("seed", -5),
        ("ladder_games", 10**9),
    ],
)
def test_a_value_out_of_bounds_is_a_400_and_nothing_is_created(as_, versions, field, value):
    response = as_("alice").post("/api/tournaments/", payload(versions, **{field: value}))
    assert field in error_of(response, 400)["fields"]
    assert not Tournament.objects.exists()


def test_a_tournament_of_too_many_games_is_refused(as_, versions, settings):
    settings.ARENA_TOURNAMENT_MAX_GAMES = 100
    response = as_("alice").post("/api/v1/tournaments/", payload(versions, rounds=51))
    message = error_of(response, 400)["fields"]["rounds"][0]
    assert "102 games" in message and "at most 100" in message
    assert (
        as_("alice").post("/api/v1/tournaments/", payload(versions, rounds=50)).status_code == 201
    )


def test_the_web_form_refuses_the_same_tournament(client, people, versions, settings):
    settings.ARENA_TOURNAMENT_MAX_GAMES = 100
    client.force_login(people["alice"])
    data = {
        "name": "Big", "title": "toy", "seats": 2, "format": "round_robin", "rounds": 51,
        "ladder_games": 0, "options": "", "decision_ms": 1000, "bank_ms": 1000, "seed": 1,
        "entrants": [v.pk for v in versions],
    }  # fmt: skip
    response = client.post("/tournaments/new/", data)
    assert response.status_code == 200
    assert "at most 100" in response.context["form"].errors["rounds"][0]
    assert not Tournament.objects.exists()


def test_an_option_the_title_does_not_declare_is_a_400(as_, versions):
    response = as_("alice").post("/api/v1/tournaments/", payload(versions, options={"x": 1}))
    assert "has no option 'x'" in error_of(response, 400)["fields"]["options"][0]


def test_an_option_value_the_title_refuses_is_a_400(as_, versions):
    response = as_("alice").post(
        "/api/v1/tournaments/", payload(versions, options={"max_cards": 9})
    )
    assert "9 is not allowed" in error_of(response, 400)["fields"]["options"][0]


def test_entrants_of_another_title_or_not_ready_are_refused(as_, people, versions):
    pending = make_ready_upload(people["alice"], name="late")
    pending.status = "pending"
    pending.save(update_fields=["status"])
    response = as_("alice").post("/api/v1/tournaments/", payload([*versions, pending], seats=2))
    assert "only ready versions" in " ".join(error_of(response, 400)["fields"]["entrants"])


def test_an_unknown_entrant_is_a_400_naming_it(as_, versions):
    response = as_("alice").post("/api/v1/tournaments/", payload(versions, entrants=[999999]))
    assert "entrants" in error_of(response, 400)["fields"]


@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_organiser_and_staff_start_pause_resume_and_cancel(as_, people, versions, who):
    tournament = make_tournament(people["alice"], versions)
    api = as_(who)
    steps = [("start", "running"), ("pause", "paused"), ("resume", "running")]
    steps.append(("cancel", "cancelled"))
    for step, status in steps:
        response = api.post(f"/api/v1/tournaments/{tournament.pk}/{step}/")
        tournament.refresh_from_db()
        if who in ALLOWED:
            assert response.status_code == 200, response.content
            assert response.json()["status"] == status == tournament.status
        else:
            error_of(response, 401 if who == "anonymous" else 403)
            assert tournament.status == "draft"


def test_a_change_the_state_does_not_allow_is_a_409(as_, people, versions):
    tournament = make_tournament(people["alice"], versions)
    for step in ["pause", "resume"]:
        error = error_of(as_("alice").post(f"/api/v1/tournaments/{tournament.pk}/{step}/"), 409)
        assert error["code"] == "conflict" and "draft" in error["message"]
    as_("alice").post(f"/api/v1/tournaments/{tournament.pk}/cancel/")
    error_of(as_("alice").post(f"/api/v1/tournaments/{tournament.pk}/start/"), 409)


def test_progress_counts_the_games(as_, played):
    body = as_("anonymous").get(f"/api/v1/tournaments/{played.pk}/progress/").json()
    assert body["status"] == "finished"
    assert (body["total"], body["done"], body["finished"], body["percent"]) == (2, 2, 2, 100)


def test_standings_are_a_page_like_every_list(as_, played):
    body = as_("anonymous").get(f"/api/tournaments/{played.pk}/standings/").json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 2 and [r["games"] for r in body["results"]] == [2, 2]
    ordinals = [r["ordinal"] for r in body["results"]]
    assert ordinals == sorted(ordinals, reverse=True)
    first = as_("anonymous").get(f"/api/v1/tournaments/{played.pk}/standings/?page_size=1")
    assert first.json()["count"] == 2 and len(first.json()["results"]) == 1


def test_standings_download_as_csv(as_, played):
    response = as_("anonymous").get(f"/api/v1/tournaments/{played.pk}/standings/csv/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert lines[0].startswith("position,bot_version,bot,ordinal")
    assert len(lines) == 3 and lines[1].startswith("1,")


def test_the_format_filter_is_not_taken_for_a_renderer(as_, people, versions):
    make_tournament(people["alice"], versions, name="dup", format="duplicate")
    make_tournament(people["alice"], versions, name="rr")
    response = as_("anonymous").get("/api/tournaments/", {"format": "duplicate"})
    assert response.status_code == 200, response.content
    assert [t["name"] for t in response.json()["results"]] == ["dup"]


def test_an_unknown_filter_value_is_a_400(as_, toy_title):
    response = as_("anonymous").get("/api/v1/tournaments/", {"status": "sleeping"})
    assert "status" in error_of(response, 400)["fields"]
