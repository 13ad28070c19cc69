"""The tournament owns its transitions: each checks the status it leaves under the row lock,
refuses with a message a person can act on, and moves the games that go with it."""

import pytest

from arena.games.models import Game
from arena.tournaments import services
from arena.tournaments.models import Tournament, TournamentError
from tests.factories import make_builtin, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(toy_title):
    alice = make_user("alice")
    return make_tournament(alice, [make_builtin(alice), make_builtin(alice)], rounds=2)


@pytest.fixture
def running(draft):
    """Started as the service starts it: the model's start, then its games created."""
    return services.start_tournament(draft.pk)


def statuses(tournament) -> list[str]:
    return list(tournament.games.order_by("number").values_list("status", flat=True))


def test_start_moves_a_draft_to_running_and_refuses_anything_else(draft):
    draft.start()
    stored = Tournament.objects.get(pk=draft.pk)
    assert stored.status == Tournament.Status.RUNNING and stored.started_at is not None
    with pytest.raises(TournamentError, match="running; only a draft can start"):
        Tournament.objects.get(pk=draft.pk).start()


def test_a_transition_reads_the_status_under_its_lock_not_the_stale_copy(draft):
    stale = Tournament.objects.get(pk=draft.pk)
    draft.start()
    assert stale.status == Tournament.Status.DRAFT
    with pytest.raises(TournamentError, match="running"):
        stale.start()  # another process started it since this copy was read


def test_pause_puts_queued_games_back_and_resume_moves_it_back_to_running(running):
    assert Game.Status.QUEUED in statuses(running)
    running.pause()
    assert Tournament.objects.get(pk=running.pk).status == Tournament.Status.PAUSED
    assert set(statuses(running)) == {Game.Status.SCHEDULED}
    with pytest.raises(TournamentError, match="only a running one pauses"):
        running.pause()
    running.resume()
    assert Tournament.objects.get(pk=running.pk).status == Tournament.Status.RUNNING
    with pytest.raises(TournamentError, match="only a paused one resumes"):
        running.resume()


def test_cancel_voids_the_games_not_started_and_is_refused_once_over(running):
    first = running.games.order_by("number").first()
    Game.objects.filter(pk=first.pk).update(status=Game.Status.RUNNING)
    running.cancel()
    stored = Tournament.objects.get(pk=running.pk)
    assert stored.status == Tournament.Status.CANCELLED and stored.finished_at is not None
    assert statuses(running)[0] == Game.Status.RUNNING  # a running game finishes
    assert set(statuses(running)[1:]) == {Game.Status.VOID}
    with pytest.raises(TournamentError, match="cancelled; only one not over can be cancelled"):
        running.cancel()


def test_finish_if_done_finishes_only_a_running_tournament_with_no_open_game(draft):
    assert not Tournament.finish_if_done(draft.pk)  # a draft
    services.start_tournament(draft.pk)
    assert not Tournament.finish_if_done(draft.pk)  # its games are still to play
    draft.games.update(status=Game.Status.FINISHED, rated=True)
    assert Tournament.finish_if_done(draft.pk)
    assert Tournament.objects.get(pk=draft.pk).status == Tournament.Status.FINISHED
    assert not Tournament.finish_if_done(draft.pk)  # once


def test_a_ladder_finishes_once_its_budget_of_games_is_played_and_a_standing_one_never(
    toy_title,
):
    alice = make_user("alice")
    versions = [make_builtin(alice), make_builtin(alice)]
    ladder = make_tournament(alice, versions, format=Tournament.Format.LADDER, ladder_games=60)
    ladder = services.start_tournament(ladder.pk)
    made = ladder.games.count()
    assert 0 < made < 60  # the window's games first, not the whole budget
    ladder.games.update(status=Game.Status.FINISHED, rated=True)
    assert not Tournament.finish_if_done(ladder.pk)  # every game done, the budget not spent
    while ladder.games.count() < 60:
        assert services.top_up_ladder(ladder) > 0
        ladder.games.update(status=Game.Status.FINISHED, rated=True)
    assert Tournament.finish_if_done(ladder.pk)

    standing = make_tournament(
        alice, versions, format=Tournament.Format.LADDER, ladder_games=1, name="Standing"
    )
    Tournament.objects.filter(pk=standing.pk).update(standing=True)  # its budget is not read
    services.start_tournament(standing.pk)
    standing.games.update(status=Game.Status.FINISHED, rated=True)
    assert not Tournament.finish_if_done(standing.pk)
