"""Seeds: drawn at random per tournament unless the organiser sets one, and kept from the
public (pages and API) while any game dealt from them is left to play."""

import pytest
from rest_framework.test import APIClient

from arena.games.models import Game
from arena.tournaments.models import Tournament
from tests.factories import make_builtin, make_tournament, make_user

pytestmark = pytest.mark.django_db

SEED = 987_654_321_012


@pytest.fixture
def entrants(toy_title):
    alice = make_user("alice")
    return [make_builtin(alice) for _ in range(2)]


def test_tournaments_with_the_same_entrants_draw_different_seeds(entrants):
    alice = entrants[0].bot.owner
    seeds = {make_tournament(alice, entrants, name=f"cup {i}").seed for i in range(3)}
    assert len(seeds) == 3


def test_the_organisers_seed_is_kept(entrants):
    assert make_tournament(entrants[0].bot.owner, entrants, seed=SEED).seed == SEED


def test_a_tournament_made_on_the_form_without_a_seed_draws_one(client, entrants):
    client.force_login(entrants[0].bot.owner)
    response = client.post(
        "/tournaments/new/",
        {
            "name": "No seed", "title": "toy", "seats": 2, "format": "round_robin",
            "rounds": 1, "ladder_games": 0, "options": "", "decision_ms": 1000,
            "bank_ms": 1000, "seed": "", "entrants": [v.pk for v in entrants],
        },
    )  # fmt: skip
    assert response.status_code == 302
    made = Tournament.objects.get(name="No seed")
    assert made.seed != 1 and made.seed >= 0


def test_a_tournament_made_over_the_api_without_a_seed_draws_one(entrants):
    api = APIClient()
    api.force_authenticate(entrants[0].bot.owner)
    body = {"name": "API cup", "title": "toy", "seats": 2, "entrants": [v.pk for v in entrants]}
    response = api.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["seed"] is None  # a draft: not public yet
    assert Tournament.objects.get(name="API cup").seed not in (None, 1)


def _game(tournament, number, status, seed=SEED):
    return Game.objects.create(tournament=tournament, number=number, seed=seed, status=status)


def test_a_games_seed_is_shown_only_once_it_is_played(client, entrants):
    tournament = make_tournament(entrants[0].bot.owner, entrants)
    game = _game(tournament, 1, Game.Status.QUEUED)
    assert str(SEED) not in client.get(f"/games/{game.pk}/").content.decode()
    assert APIClient().get(f"/api/games/{game.pk}/").json()["seed"] is None
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert str(SEED) in client.get(f"/games/{game.pk}/").content.decode()
    assert APIClient().get(f"/api/games/{game.pk}/").json()["seed"] == SEED


def test_a_duplicate_tables_seed_waits_for_its_last_rotation(client, entrants):
    tournament = make_tournament(entrants[0].bot.owner, entrants, format="duplicate")
    first = _game(tournament, 1, Game.Status.FINISHED)
    second = _game(tournament, 2, Game.Status.RUNNING)
    assert str(SEED) not in client.get(f"/games/{first.pk}/").content.decode()
    Game.objects.filter(pk=second.pk).update(status=Game.Status.FINISHED)
    assert str(SEED) in client.get(f"/games/{first.pk}/").content.decode()


def test_a_tournaments_seed_is_shown_once_it_is_over(client, entrants):
    tournament = make_tournament(entrants[0].bot.owner, entrants, seed=SEED)
    for status in (Tournament.Status.DRAFT, Tournament.Status.RUNNING):
        Tournament.objects.filter(pk=tournament.pk).update(status=status)
        assert str(SEED) not in client.get(f"/tournaments/{tournament.pk}/").content.decode()
        assert APIClient().get(f"/api/tournaments/{tournament.pk}/").json()["seed"] is None
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    assert str(SEED) in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert APIClient().get(f"/api/tournaments/{tournament.pk}/").json()["seed"] == SEED
