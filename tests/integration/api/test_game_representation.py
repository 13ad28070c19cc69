"""The games list's hand-written representations say what DRF's field-by-field walk of the
same declared fields says, for finished, failed and unplayed games and for every role; and
the error detail reaches only staff and the seated bots' owners."""

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework import serializers
from rest_framework.test import APIRequestFactory

from arena.api.serializers import GameSeatSerializer, GameSerializer
from arena.api.views import GameViewSet
from arena.games.models import Game
from arena.tournaments.services import start_tournament
from tests.factories import make_tournament

pytestmark = pytest.mark.django_db

TRACEBACK = "Traceback (most recent call last):\n  File /srv/workers/match.py"


def drf_walk(serializer, instance) -> dict:
    return serializers.ModelSerializer.to_representation(serializer, instance)


@pytest.fixture
def games(people, versions, played):
    """Finished games, one failed with a traceback, and queued ones whose seed is hidden."""
    failed = played.games.order_by("number").last()
    Game.objects.filter(pk=failed.pk).update(
        status=Game.Status.FAILED, error="the bot crashed", error_detail=TRACEBACK
    )
    waiting = make_tournament(people["alice"], versions, seats=2, name="Waiting cup")
    start_tournament(waiting.pk)
    return list(GameViewSet.queryset.filter(tournament__in=[played, waiting]))


@pytest.mark.parametrize("who", ["anonymous", "alice", "bob", "charlie"])
def test_the_games_representation_equals_drfs_walk_of_its_fields(people, games, who):
    request = APIRequestFactory().get("/api/v1/games/")
    request.user = people.get(who) or AnonymousUser()
    games_out = GameSerializer(games, many=True, context={"request": request}).data
    one = GameSerializer(context={"request": request})
    seat_serializer = GameSeatSerializer()
    assert {g["status"] for g in games_out} >= {"finished", "failed", "queued"}
    for game, out in zip(games, games_out, strict=True):
        expected = drf_walk(one, game)
        if not game.seed_is_public():
            expected["seed"] = None
        assert out == expected
        assert out["seats"] == [drf_walk(seat_serializer, s) for s in game.seats.all()]
        if game.status == "queued":
            assert out["seed"] is None and out["finished_at"] is None
        if game.status == "failed":
            shown = out["error_detail"]
            assert shown == (TRACEBACK if who in ("alice", "bob") else None)
