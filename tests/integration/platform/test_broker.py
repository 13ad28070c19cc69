"""The Redis transport that keeps one redis-py client per channel (workers/broker.py)."""

import pytest

from arena.settings import broker_from_url
from workers.broker import Channel
from workers.celery import app


def test_redis_urls_get_the_kept_client_transport_and_tls_urls_keep_kombus_own():
    assert broker_from_url("redis://127.0.0.1:6379/3")[:2] == (
        "redis://127.0.0.1:6379/3",
        "workers.broker:Transport",
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
