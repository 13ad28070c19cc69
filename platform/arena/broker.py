"""Celery's Redis transport with one redis-py client per channel for its plain commands.

kombu's Redis channel builds a new ``redis.Redis`` for every publish, acknowledgement and
delivery (``conn_or_acquire``), and building one costs about 0.2 ms of CPU (redis-py fills a
table of response callbacks each time): four per game between the pool process that sends
the next game and Celery's parent that takes and acknowledges it. A client only borrows a
connection from the channel's pool for each command, so one kept per channel serves every
caller; the pool itself notices a fork and starts afresh. Settings select it for
``redis://`` brokers (``CELERY_BROKER_TRANSPORT``).
"""

from __future__ import annotations

import contextlib
from functools import cached_property

from kombu.transport import redis


class Channel(redis.Channel):
    @contextlib.contextmanager
    def conn_or_acquire(self, client=None):
        yield client or self._kept_client

    @cached_property
    def _kept_client(self):
        return self._create_client()


class Transport(redis.Transport):
    Channel = Channel
