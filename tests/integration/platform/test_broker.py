"""The Redis transport: one redis-py client kept per channel (arena/broker.py), the app's
options, and no acknowledgement bookkeeping kept in Redis."""

import pytest

from arena.broker import Channel
from arena.celery import app
from arena.settings import broker_from_url


def test_redis_urls_get_the_kept_client_transport_and_tls_urls_keep_kombus_own():
    assert broker_from_url("redis://127.0.0.1:6379/3")[:2] == (
        "redis://127.0.0.1:6379/3",
        "arena.broker:Transport",
    )
    assert broker_from_url("rediss://broker.example:6380/3")[1] is None
    assert broker_from_url("filesystem://")[1] is None


def test_a_channel_keeps_one_client_and_still_sends_and_delivers_in_order():
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        assert isinstance(channel, Channel)
        with channel.conn_or_acquire() as first, channel.conn_or_acquire() as second:
            assert first is second
        with connection.SimpleQueue("arena-broker-test") as queue:
            for n in range(3):
                queue.put({"n": n})
            received = [queue.get(timeout=5) for _ in range(3)]
            for message in received:
                message.ack()
            assert [m.payload for m in received] == [{"n": 0}, {"n": 1}, {"n": 2}]
            with pytest.raises(queue.Empty):
                queue.get(timeout=0.5)


def test_the_app_takes_its_options_from_the_celery_settings(settings):
    from arena.celery import _celery_settings

    source = _celery_settings()
    assert isinstance(source, dict)  # read once: no lookup reaches Django's lazy settings
    assert source["CELERY_TASK_ACKS_LATE"] is True
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_default_queue == settings.CELERY_TASK_DEFAULT_QUEUE
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.beat_schedule["sweep-games"]["task"] == "workers.sweep_games"
    # the dashboards' totals are folded on the beat, never by a read
    assert app.conf.beat_schedule["fold-totals"]["task"] == "workers.fold_totals"
    assert app.conf.beat_scheduler == "arena.outbox.beat:Scheduler"  # it also drains the outbox


def test_a_message_taken_and_not_acknowledged_goes_back_when_its_worker_stops():
    """Redis keeps no per-message bookkeeping for acknowledgements (``ack_emulation`` off:
    a lost worker's games are recovered by their lease and the sweeper, see
    arena/settings.py); a worker that stops with a message it took and never acknowledged
    still puts it back on the queue, and Redis holds nothing of it meanwhile."""
    import redis

    client = redis.Redis.from_url(app.conf.broker_url)
    with app.connection_for_write() as first, first.SimpleQueue("arena-broker-restore") as queue:
        queue.clear()
        queue.put({"game": 7})
        taken = queue.get(timeout=5)
        assert taken.payload == {"game": 7}
        assert client.llen("arena-broker-restore") == 0
        assert not client.exists("unacked", "unacked_index")
    with app.connection_for_write() as second, second.SimpleQueue("arena-broker-restore") as queue:
        again = queue.get(timeout=5)
        again.ack()
        assert again.payload == {"game": 7}
        with pytest.raises(queue.Empty):
            queue.get(timeout=0.5)
