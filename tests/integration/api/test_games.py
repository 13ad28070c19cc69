"""/api/v1/games/: filters, seats, the replay record, each seat's stderr, CSV."""

import csv
import io

import pytest

from arena.games.models import Game

from .conftest import ALLOWED, PEOPLE, error_of

pytestmark = pytest.mark.django_db


def test_games_list_with_filters_and_pagination(as_, played):
    api = as_("anonymous")
    body = api.get("/api/v1/games/", {"tournament": played.pk, "status": "finished"}).json()
    assert len(body["results"]) == 2 and "count" not in body  # keyset pages: no count
    game = body["results"][0]
    assert game["title"] == "toy" and {s["seat"] for s in game["seats"]} == {0, 1}
    assert {s["rank"] for s in game["seats"]} <= {1, 2}
    assert len(api.get("/api/v1/games/", {"status": "queued"}).json()["results"]) == 0
    assert len(api.get("/api/games/", {"title": "toy"}).json()["results"]) == 2
    first = api.get("/api/v1/games/", {"page_size": 1}).json()
    second = api.get(first["next"]).json()  # the cursor of the next page
    assert second["results"][0]["id"] > first["results"][0]["id"]


def test_games_filter_by_bot_version_and_date(as_, played):
    api = as_("anonymous")
    version = played.games.first().seats.first().bot_version
    assert len(api.get("/api/v1/games/", {"version": version.pk}).json()["results"]) == 2
    assert len(api.get("/api/v1/games/", {"bot": version.bot_id}).json()["results"]) == 2
    assert len(api.get("/api/v1/games/", {"bot": 999999}).json()["results"]) == 0
    last = max(g.finished_at for g in played.games.all())
    after = api.get("/api/v1/games/", {"finished_after": last.isoformat()}).json()
    assert len(after["results"]) >= 1
    before = api.get("/api/v1/games/", {"finished_before": "2000-01-01T00:00:00Z"}).json()
    assert before["results"] == []


def test_a_bad_date_filter_is_a_400(as_, played):
    response = as_("anonymous").get("/api/v1/games/", {"finished_after": "yesterday"})
    assert "finished_after" in error_of(response, 400)["fields"]


def test_the_replay_record_is_served(as_, played):
    game = played.games.first()
    record = as_("anonymous").get(f"/api/v1/games/{game.pk}/replay/").json()
    assert record["title"] == "toy" and record["seed"] == game.seed


def test_a_game_without_a_record_has_no_replay(as_, people, versions):
    from tests.factories import make_tournament

    t = make_tournament(people["alice"], versions)
    game = Game.objects.create(tournament=t, number=1, seed=1)
    error_of(as_("anonymous").get(f"/api/v1/games/{game.pk}/replay/"), 404)


@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_seats_owner_and_staff_read_its_stderr(as_, played, who):
    game = played.games.order_by("number").first()
    response = as_(who).get(f"/api/v1/games/{game.pk}/seats/0/stderr/")
    if who in ALLOWED:
        assert response.status_code == 200, response.content
        assert response["Content-Type"].startswith("text/plain")
        assert response.content == b"log of seat 0"
    else:
        error_of(response, 401 if who == "anonymous" else 403)


def test_a_seat_that_does_not_exist_is_a_404(as_, played):
    game = played.games.first()
    error_of(as_("alice").get(f"/api/v1/games/{game.pk}/seats/7/stderr/"), 404)


def test_games_download_as_csv_one_row_per_seat(as_, played):
    response = as_("anonymous").get("/api/v1/games/csv/", {"tournament": played.pk})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert len(rows) == 4
    assert {r["seat"] for r in rows} == {"0", "1"} and {r["title"] for r in rows} == {"toy"}
    assert all(r["bot"].startswith("alice/bot-") for r in rows)
    assert {r["status"] for r in rows} == {"finished"}


def test_a_client_asking_for_csv_by_accept_gets_it(as_, played):
    response = as_("anonymous").get("/api/v1/games/csv/", HTTP_ACCEPT="text/csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")


@pytest.fixture
def deal_in_play(played):
    """Two games dealt from one seed (a duplicate table's rotations): one finished, with its
    record, and one queued again."""
    first, second = played.games.order_by("number")
    Game.objects.filter(pk=second.pk).update(seed=first.seed, status=Game.Status.QUEUED)
    return first


def test_no_representation_shows_a_seed_whose_deal_is_still_to_play(as_, client, deal_in_play):
    api = as_("anonymous")
    games = api.get("/api/v1/games/", {"tournament": deal_in_play.tournament_id}).json()
    assert [g["seed"] for g in games["results"]] == [None, None]
    response = api.get("/api/v1/games/csv/", {"tournament": deal_in_play.tournament_id})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {r["status"] for r in rows} == {"finished", "queued"}
    assert {r["seed"] for r in rows} == {""}
    assert "deal" in error_of(api.get(f"/api/v1/games/{deal_in_play.pk}/replay/"), 404)["message"]
    assert client.get(f"/games/{deal_in_play.pk}/replay.json").status_code == 404
    assert client.get(f"/games/{deal_in_play.pk}/view.json").status_code == 404
    page = client.get(f"/games/{deal_in_play.pk}/").content.decode()
    assert str(deal_in_play.seed) not in page.split("<dt>Seed</dt>")[1].split("</dd>")[0]


def test_the_csv_shows_the_seed_once_every_game_of_its_deal_is_over(as_, played):
    response = as_("anonymous").get("/api/v1/games/csv/", {"tournament": played.pk})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {int(r["seed"]) for r in rows} == {g.seed for g in played.games.all()}
