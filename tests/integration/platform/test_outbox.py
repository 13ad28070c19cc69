"""The outbox: nothing the platform saved waits on the broker.

Each test runs its own Redis (stopped and started again here, never the machine's), a real
Celery worker process and a real beat on it; this test process is the web side (the site
and the API through Django's test clients, real PostgreSQL)."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena.bots.models import Bot, BotVersion
from arena.games.models import Game
from arena.outbox import services as outbox
from arena.outbox.models import OutboxMessage
from arena.tournaments import services as tournaments
from arena.tournaments.models import Tournament
from tests.factories import RANDOM_BOT_SOURCE, make_builtin, make_tournament, make_user
from tests.integration.platform.tournaments import assert_standings_match_stored_games
from tests.support.platform import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def finished(tournament_ids, timeout=120):
    def done():
        statuses = set(Tournament.objects.filter(pk__in=tournament_ids).values_list("status"))
        return statuses == {(Tournament.Status.FINISHED,)}

    wait_for(done, timeout=timeout, what="the tournaments to finish")


def assert_each_game_played_once(tournament_ids):
    games = Game.objects.filter(tournament__in=tournament_ids)
    assert set(games.values_list("status", flat=True)) == {Game.Status.FINISHED}
    assert set(games.values_list("attempts", flat=True)) == {1}  # claimed once each
    for tournament in Tournament.objects.filter(pk__in=tournament_ids):
        assert_standings_match_stored_games(tournament)


def test_with_the_broker_down_starting_tournaments_and_uploading_versions_succeed_and_run_once_it_is_back(  # noqa: E501
    client, redis_server, far_side, arena_files
):
    alice = make_user("alice")
    versions = [make_builtin(alice, name=f"bot-{i}") for i in range(3)]
    by_site, by_api = (make_tournament(alice, versions, name=n) for n in ("Site cup", "API cup"))
    site_bot, api_bot = (Bot.objects.create(owner=alice, title="toy", name=n) for n in "sa")
    client.force_login(alice)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    far_side.start_worker()
    far_side.start_beat()

    redis_server.stop()
    started = client.post(f"/tournaments/{by_site.pk}/start/", follow=True)
    assert started.status_code == 200
    assert "Tournament started." in [str(m) for m in started.context["messages"]]
    assert api.post(f"/api/v1/tournaments/{by_api.pk}/start/").status_code == 200
    uploaded = client.post(
        f"/bots/{site_bot.pk}/upload/",
        {"file": SimpleUploadedFile("bot.py", RANDOM_BOT_SOURCE.encode())},
        follow=True,
    )
    assert uploaded.status_code == 200
    assert "Version 1 uploaded" in str(list(uploaded.context["messages"])[0])
    response = api.post(
        "/api/v1/bot-versions/",
        {"bot": api_bot.pk, "file": SimpleUploadedFile("bot.py", RANDOM_BOT_SOURCE.encode())},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    # Saved, and waiting for the broker: one message per game sent and per version.
    assert Tournament.objects.filter(status="running").count() == 2
    games_sent = Game.objects.filter(tournament__in=[by_site, by_api], status="queued").count()
    assert OutboxMessage.objects.count() == games_sent + 2

    redis_server.start()
    back = time.monotonic()
    finished([by_site.pk, by_api.pk])
    uploads = BotVersion.objects.filter(bot__in=[site_bot, api_bot])
    wait_for(
        lambda: not uploads.filter(status__in=["pending", "validating"]).exists(),
        timeout=120,
        what="both uploads to be validated",
    )
    print(
        f"broker back -> tournaments finished, uploads validated: {time.monotonic() - back:.1f} s"
    )
    assert set(uploads.values_list("status", flat=True)) == {"ready"}
    assert_each_game_played_once([by_site.pk, by_api.pk])
    wait_for(lambda: not OutboxMessage.objects.exists(), timeout=30, what="an empty outbox")


def test_a_redis_restart_with_queued_games_loses_none_and_stores_none_twice(redis_server, far_side):
    alice = make_user("alice")
    versions = [make_builtin(alice, name=f"bot-{i}") for i in range(4)]
    first, second = (make_tournament(alice, versions, name=n, rounds=2) for n in "ab")
    far_side.start_beat()
    tournaments.start_tournament(first.pk)
    tournaments.start_tournament(second.pk)
    queued = Game.objects.filter(tournament__in=[first, second], status="queued").count()
    assert queued == 16 and OutboxMessage.objects.count() == 0  # sent at their commit
    assert redis_server.client().llen("arena") == queued

    redis_server.stop()  # every message held in memory goes with it
    redis_server.start()
    assert redis_server.client().llen("arena") == 0
    back = time.monotonic()
    far_side.start_worker()
    finished([first.pk, second.pk])
    print(f"Redis restarted -> both tournaments finished: {time.monotonic() - back:.1f} s")
    assert_each_game_played_once([first.pk, second.pk])


def test_a_message_saved_while_the_broker_is_down_waits_in_the_outbox_and_the_drain_sends_it(
    redis_server,
):
    """Without any worker or beat: the send after commit never raises; the row waits; once
    the broker is back a drain sends it and deletes the row, and a sent row is gone."""
    from arena.queue import send_after_commit

    outbox._paused_until = 0.0
    redis_server.stop()
    send_after_commit("workers.play_game", 10**9)  # outside a transaction: sent at once
    (row,) = OutboxMessage.objects.all()
    assert (row.task, row.args) == ("workers.play_game", [10**9])
    with pytest.raises(Exception):  # noqa: B017 (the broker's own error)
        OutboxMessage.objects.filter(pk=row.pk).update(created_at=row.created_at - outbox.GRACE)
        outbox.drain()
    assert OutboxMessage.objects.count() == 1  # still there: the drain rolled back

    redis_server.start()
    assert outbox.drain() == 1
    assert OutboxMessage.objects.count() == 0
    assert redis_server.client().llen("arena") == 1
    outbox._paused_until = 0.0
    send_after_commit("workers.play_game", 10**9 + 1)
    assert OutboxMessage.objects.count() == 0  # sent at once and deleted
    assert redis_server.client().llen("arena") == 2


def test_workers_take_work_again_soon_after_redis_returns(redis_server, far_side):
    alice = make_user("alice")
    versions = [make_builtin(alice, name=f"bot-{i}") for i in range(2)]
    cup = make_tournament(alice, versions, name="Back cup")
    far_side.start_worker()
    far_side.start_beat()
    redis_server.stop()
    tournaments.start_tournament(cup.pk)
    # An outage of ten of the worker's attempts to reach Redis again (arena.worker's
    # PromptConsumer tries every second; kombu's own pauses would have grown to 18 s by
    # then), counted in its log instead of sleeping through a fixed 20 s.
    log = far_side.folder / "worker.log"
    wait_for(
        lambda: log.read_text(errors="replace").count("Cannot connect to") >= 10,
        what="the worker to try the lost broker ten times",
    )
    redis_server.start()
    back = time.monotonic()
    claimed = Game.objects.filter(tournament=cup, started_at__isnull=False)
    wait_for(claimed.exists, timeout=120, what="a worker to claim a game")
    print(f"Redis back -> first game claimed: {time.monotonic() - back:.1f} s")
    finished([cup.pk])
    assert_each_game_played_once([cup.pk])
