"""A Redis server of a test's own, on a port of its own, that the test stops and starts
again (never the machine's Redis on 6379: other people use it), and pointing this test
process's Celery app at it."""

from __future__ import annotations

import contextlib
import socket
import subprocess
from pathlib import Path

from arena.processes import stop_process_group
from tests.support.platform import wait_for


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """``redis-server`` as the shipped settings run it: nothing saved to disk, so a restart
    loses every queued message."""

    def __init__(self, folder: Path):
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port),
                   "--save", "", "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        with open(self.folder / "redis.log", "ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_for(self._answers, timeout=20, what=f"redis-server on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            stop_process_group(self.process, grace_seconds=10)
            self.process = None

    def client(self):
        import redis

        return redis.Redis.from_url(self.url)

    def _answers(self) -> bool:
        import redis

        try:
            return self.client().ping()
        except redis.ConnectionError:
            return False


@contextlib.contextmanager
def celery_app_on(url: str):
    """This process's Celery app (``arena.celery.app``) sends to ``url`` while inside."""
    from arena.celery import app

    before = app.conf.broker_url

    def point_at(broker: str) -> None:
        # Forgotten, not closed: kombu keeps one pool per broker URL for the whole process,
        # and a closed one would be handed back when the app points at that URL again.
        app._pool = None
        app.amqp._producer_pool = None
        app.conf.broker_url = broker

    point_at(url)
    try:
        yield app
    finally:
        point_at(before)
