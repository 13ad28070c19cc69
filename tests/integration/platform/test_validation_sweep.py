"""A bot version whose validation was lost is validated again, never left waiting forever."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.services import sweep_validations, upload_version
from tests.factories import RANDOM_BOT_SOURCE, make_bot, make_user
from tests.support.platform import sent_ids

pytestmark = pytest.mark.django_db


@pytest.fixture
def version(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    bot = make_bot(make_user("alice"), name="patient")
    return upload_version(bot=bot, filename="bot.py", data=RANDOM_BOT_SOURCE.encode())


def _taken_by_a_worker_long_ago(version, settings, *, attempts: int) -> None:
    for _ in range(attempts):
        BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.PENDING)
        assert version.claim_for_validation()
    lease = timedelta(seconds=settings.ARENA_VALIDATION_LEASE_SECONDS + 1)
    BotVersion.objects.filter(pk=version.pk).update(validation_started_at=timezone.now() - lease)


def test_a_validation_whose_worker_was_lost_is_sent_again(
    version, settings, django_capture_on_commit_callbacks
):
    _taken_by_a_worker_long_ago(version, settings, attempts=1)
    with django_capture_on_commit_callbacks() as sent:
        assert sweep_validations() == {"requeued": 1, "rejected": 0, "resent": 0}
    assert len(sent_ids(sent, "workers.validate_bot_version")) == 1  # after commit
    version.refresh_from_db()
    assert (version.status, version.validation_attempts) == ("pending", 1)
    assert version.claim_for_validation()  # a worker can take it again


def test_a_validation_lost_too_often_is_rejected_with_the_reason(version, settings):
    _taken_by_a_worker_long_ago(version, settings, attempts=settings.ARENA_GAME_MAX_ATTEMPTS)
    assert sweep_validations()["rejected"] == 1
    version.refresh_from_db()
    assert version.status == "rejected"
    assert f"interrupted {settings.ARENA_GAME_MAX_ATTEMPTS} times" in version.reason


def test_a_running_validation_and_a_fresh_upload_are_left_alone(version, settings):
    other = upload_version(
        bot=make_bot(version.bot.owner, name="busy"),
        filename="bot.py",
        data=RANDOM_BOT_SOURCE.encode() + b"\n# busy\n",
    )
    assert other.claim_for_validation()  # taken just now: within its lease
    assert sweep_validations() == {"requeued": 0, "rejected": 0, "resent": 0}


def test_a_pending_version_nobody_took_is_sent_again(
    version, settings, django_capture_on_commit_callbacks
):
    stale = timedelta(seconds=settings.ARENA_QUEUED_RESEND_SECONDS + 1)
    BotVersion.objects.filter(pk=version.pk).update(queued_at=timezone.now() - stale)
    with django_capture_on_commit_callbacks() as sent:
        assert sweep_validations()["resent"] == 1
    assert len(sent_ids(sent, "workers.validate_bot_version")) == 1
    assert sweep_validations()["resent"] == 0  # its clock was reset


def test_requeue_games_sweeps_validations_too(version, settings, capsys):
    _taken_by_a_worker_long_ago(version, settings, attempts=1)
    call_command("requeue_games")
    out = capsys.readouterr().out
    assert "games: requeued 0, failed 0, resent 0, sent 0" in out
    assert "validations: requeued 1, rejected 0, resent 0" in out
