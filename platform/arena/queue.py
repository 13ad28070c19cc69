"""The one way the platform sends work to the workers: by task name, after commit.

The platform never imports ``workers.tasks``; it only knows task names, so no import cycle
runs platform -> tasks -> platform, and a message is never sent for a row that may still be
rolled back.
"""

from __future__ import annotations

import logging

from django.db import transaction

log = logging.getLogger("arena.queue")


def _send(task: str, *args: int) -> None:
    from workers.celery import app

    app.send_task(task, args=list(args))
    log.debug("queue.sent %s", {"task": task, "args": args})


def enqueue_game(game_id: int) -> None:
    """Send ``workers.play_game`` for this game once the current transaction commits."""
    transaction.on_commit(lambda: _send("workers.play_game", game_id))


def enqueue_validation(version_id: int) -> None:
    """Send ``workers.validate_bot_version`` once the current transaction commits."""
    transaction.on_commit(lambda: _send("workers.validate_bot_version", version_id))
