"""Fair share between tournaments: each keeps at most ARENA_GAMES_IN_FLIGHT games queued or
running, and every stored (or failed) game sends the next, so tournaments take turns."""

import pytest
from django.db import transaction

from arena.games import services
from arena.games.models import Game
from arena.games.tasks import run_job
from arena.tournaments import services as tournaments
from arena.tournaments.models import Tournament
from tests.factories import make_builtin, make_tournament, make_user
from tests.integration.platform.tournaments import assert_standings_match_stored_games
from tests.support.platform import sent_ids, wait_for


def play(job):
    return run_job(job)


def statuses(tournament) -> list[str]:
    return list(tournament.games.order_by("number").values_list("status", flat=True))


@pytest.fixture
def twelve_games(toy_title, settings):
    """A draft round robin of 12 two-seat games (3 entrants, 4 rounds), window of 2."""
    settings.ARENA_GAMES_IN_FLIGHT = 2
    alice = make_user("alice")
    return make_tournament(alice, [make_builtin(alice) for _ in range(3)], seats=2, rounds=4)


@pytest.mark.django_db
def test_a_tournament_sends_its_window_and_schedules_the_rest(
    twelve_games, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as sent:
        tournaments.start_tournament(twelve_games.pk)
    assert statuses(twelve_games) == ["queued"] * 2 + ["scheduled"] * 10
    queued = twelve_games.games.filter(status="queued").order_by("number")
    assert sent_ids(sent) == list(queued.values_list("id", flat=True))
    progress = tournaments.progress(Tournament.objects.get(pk=twelve_games.pk))
    assert (progress["total"], progress["queued"], progress["done"]) == (12, 12, 0)


@pytest.mark.django_db
def test_each_stored_game_sends_the_next_scheduled_one(
    twelve_games, django_capture_on_commit_callbacks
):
    tournaments.start_tournament(twelve_games.pk)
    first = twelve_games.games.get(number=1)
    job = services.claim_game(first.pk, worker="w")
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.store_game_result(job, play(job)) is True
    assert statuses(twelve_games)[:4] == ["finished", "queued", "queued", "scheduled"]
    assert sent_ids(sent) == [twelve_games.games.get(number=3).pk]  # the next one in order
    with django_capture_on_commit_callbacks(execute=False) as again:
        assert services.store_game_result(job, play(job)) is False  # a second delivery
    assert statuses(twelve_games)[:4] == ["finished", "queued", "queued", "scheduled"]
    assert not again


@pytest.mark.django_db
def test_a_paused_tournament_sends_nothing_and_resuming_refills_only_its_window(
    twelve_games, django_capture_on_commit_callbacks
):
    tournaments.start_tournament(twelve_games.pk)
    running = services.claim_game(twelve_games.games.get(number=1).pk, worker="w")
    tournaments.pause_tournament(twelve_games.pk)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        services.store_game_result(running, play(running))
    assert not sent  # the running game finished; nothing new goes out while paused
    assert statuses(twelve_games).count("queued") == 0
    with django_capture_on_commit_callbacks(execute=False) as sent:
        tournaments.resume_tournament(twelve_games.pk)
    assert statuses(twelve_games) == ["finished"] + ["queued"] * 2 + ["scheduled"] * 9
    assert len(sent_ids(sent)) == 2


@pytest.mark.django_db
def test_a_game_that_fails_for_good_gives_its_place_to_the_next(
    twelve_games, settings, django_capture_on_commit_callbacks
):
    settings.ARENA_GAME_MAX_ATTEMPTS = 1
    tournaments.start_tournament(twelve_games.pk)
    game = twelve_games.games.get(number=1)
    services.claim_game(game.pk, worker="w")
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.release_game(game.pk, reason="the runner broke") == Game.Status.FAILED
    assert statuses(twelve_games)[:4] == ["failed", "queued", "queued", "scheduled"]
    assert len(sent_ids(sent)) == 1


@pytest.mark.django_db
def test_the_sweeper_sends_more_when_the_window_grows(
    twelve_games, settings, django_capture_on_commit_callbacks
):
    tournaments.start_tournament(twelve_games.pk)
    settings.ARENA_GAMES_IN_FLIGHT = 5
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.sweep_games()["sent"] == 3
    assert statuses(twelve_games) == ["queued"] * 5 + ["scheduled"] * 7
    assert len(sent_ids(sent)) == 3
    assert services.sweep_games()["sent"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_tournament_started_second_is_not_kept_waiting_behind_the_first(
    celery_workers, twelve_games
):
    """Both start in one transaction, so the broker gets the first one's window, then the
    second's games; the first's next games are sent as its games finish, behind them."""
    alice = twelve_games.organiser
    versions = [e.bot_version for e in twelve_games.entries.order_by("id")]
    small = make_tournament(alice, versions[:2], seats=2, name="small")
    with transaction.atomic():
        tournaments.start_tournament(twelve_games.pk)
        tournaments.start_tournament(small.pk)
    for tournament in (twelve_games, small):
        wait_for(
            lambda t=tournament: Tournament.objects.get(pk=t.pk).status == "finished",
            what=f"{tournament.name} to finish",
        )
        assert_standings_match_stored_games(Tournament.objects.get(pk=tournament.pk))
    big_starts = sorted(twelve_games.games.values_list("started_at", flat=True))
    small_last_start = max(small.games.values_list("started_at", flat=True))
    # Without the window the small one's 2 games would start after all 12 of the first.
    assert small_last_start < big_starts[4]
