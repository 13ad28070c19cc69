"""/api/v1/ratings/: per tournament and bot version, and each rating's history."""

import pytest

from .conftest import error_of

pytestmark = pytest.mark.django_db


def test_ratings_filter_by_tournament_and_bot(as_, played):
    api = as_("anonymous")
    assert api.get("/api/v1/ratings/", {"tournament": played.pk}).json()["count"] == 2
    version = played.games.first().seats.first().bot_version
    body = api.get("/api/v1/ratings/", {"bot": version.bot_id}).json()
    assert [r["bot_version"] for r in body["results"]] == [version.pk]


def test_a_ratings_history_has_one_row_per_rated_game(as_, played):
    rating = played.ratings.first()
    body = as_("anonymous").get(f"/api/v1/ratings/{rating.pk}/history/").json()
    assert len(body["results"]) == 2 and body["next"] is None
    assert [r["game_number"] for r in body["results"]] == [1, 2]
    assert body["results"][-1]["mu"] == pytest.approx(rating.mu)


def test_a_missing_rating_is_a_404(as_, toy_title):
    error_of(as_("anonymous").get("/api/v1/ratings/999999/history/"), 404)


def test_a_ratings_url_answers_the_same_after_the_ratings_are_recomputed(as_, played):
    from arena.ratings.services import recompute_ratings

    api = as_("anonymous")
    urls = [f"/api/v1/ratings/{r.pk}/" for r in played.ratings.all()]
    before = [(api.get(u).json(), api.get(u + "history/").json()) for u in urls]
    recompute_ratings(played.pk)
    assert [(api.get(u).json(), api.get(u + "history/").json()) for u in urls] == before
