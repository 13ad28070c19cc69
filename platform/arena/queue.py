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


def resend_unclaimed(rows, enqueue, *, now) -> int:
    """Send ``rows`` (queued, and taken by nobody for too long: a lost message) again with
    ``enqueue(id)``, resetting their ``queued_at`` to ``now``; rows another sweep holds are
    skipped. Call inside a transaction: the messages go out when it commits. A claim makes
    a duplicate harmless. Returns how many were sent."""
    ids = list(rows.select_for_update(skip_locked=True).values_list("id", flat=True))
    rows.model.objects.filter(pk__in=ids).update(queued_at=now)
    for pk in ids:
        enqueue(pk)
    return len(ids)
