"""Compute where it informs (issue 25): once every active entrant of a standing ladder has
settled, the ladder plays one game at a time at its background rate (none at a rate of 0); an
unsettled entrant, a new version or a challenge brings back the full window. The games are
not played here: each step finishes the ones in flight and asks the ladder for more, as the
store (and the beat, for a ladder with nothing in flight) does."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from arena.bots.models import Bot
from arena.bots.services import add_builtin_version
from arena.ratings.models import Rating
from arena.tournaments import house_ladders, ladders
from arena.tournaments.models import Tournament

pytestmark = pytest.mark.django_db

OPEN = ["queued", "running"]


@pytest.fixture
def ladder(toy_title, settings):
    settings.ARENA_LADDER_IN_FLIGHT = 4
    settings.ARENA_LADDER_IDLE_GAMES_PER_HOUR = 4  # one every 15 minutes
    return house_ladders.ensure_standing_ladders(titles=["toy"], players=[2])[0]


def in_flight(ladder) -> int:
    return ladder.games.filter(status__in=OPEN).count()


def finish_in_flight(ladder, *, queued_ago=timedelta(0)) -> None:
    """As if the workers had played every open game, queued ``queued_ago``."""
    now = timezone.now()
    ladder.games.filter(status__in=OPEN).update(
        status="finished", finished_at=now, queued_at=now - queued_ago
    )


def top_up(ladder) -> int:
    with transaction.atomic():
        return ladders.top_up(Tournament.objects.select_for_update().get(pk=ladder.pk))


def settle(ladder, sigma=1.5) -> None:
    Rating.objects.filter(tournament=ladder).update(sigma=sigma)


def test_a_ladder_plays_its_full_window_until_every_entrant_has_settled(ladder):
    assert in_flight(ladder) == 4  # new entrants: σ 8.3, unsettled
    finish_in_flight(ladder)
    settle(ladder)
    Rating.objects.filter(tournament=ladder).order_by("id").update(sigma=3.5)
    assert top_up(ladder) == 4 and in_flight(ladder) == 4


def test_a_settled_ladder_plays_one_game_at_a_time_at_its_background_rate(ladder, settings):
    finish_in_flight(ladder, queued_ago=timedelta(hours=1))
    settle(ladder)
    assert top_up(ladder) == 1
    assert top_up(ladder) == 0  # one in flight is all it keeps
    finish_in_flight(ladder, queued_ago=timedelta(minutes=10))
    assert top_up(ladder) == 0  # the next only 15 minutes after the last
    ladder.games.update(queued_at=timezone.now() - timedelta(minutes=16))
    assert top_up(ladder) == 1
    settings.ARENA_LADDER_IDLE_GAMES_PER_HOUR = 0
    finish_in_flight(ladder, queued_ago=timedelta(days=1))
    assert top_up(ladder) == 0 and in_flight(ladder) == 0  # idle until something changes


def test_the_beat_paces_only_ladders_with_nothing_in_flight(ladder):
    assert ladders.pace_idle_ladders() == 0  # its window is in flight
    finish_in_flight(ladder, queued_ago=timedelta(hours=1))
    settle(ladder)
    assert ladders.pace_idle_ladders() == 1
    assert ladders.pace_idle_ladders() == 0


def test_a_new_version_or_a_challenge_brings_back_full_speed(ladder, settings):
    settings.ARENA_LADDER_IDLE_GAMES_PER_HOUR = 0
    finish_in_flight(ladder)
    settle(ladder)
    assert top_up(ladder) == 0
    house = house_ladders.house_user()
    bots = list(Bot.objects.filter(owner=house, title="toy").order_by("id"))
    challenge = ladders.create_challenge(
        requester=house, ladder=ladder, bot=bots[0], opponents=[bots[1]], games=6
    )
    assert challenge.games.filter(status__in=OPEN).count() == 4  # the whole window
    finish_in_flight(ladder)
    assert top_up(ladder) == 2  # the rest of the challenge, then idle again
    finish_in_flight(ladder)
    assert top_up(ladder) == 0

    newcomer = add_builtin_version(
        bot=Bot.objects.create(owner=house, title="toy", name="newcomer"), builtin_name="random"
    )
    ladders.join_ladders(newcomer)  # the house's versions join no ladder by themselves: asked
    assert in_flight(ladder) == 4
