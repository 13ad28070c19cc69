"""The one way the platform sends work to the workers: by task name, after commit.

The platform never imports ``workers.tasks`` or ``workers.celery``; it sends through its own
Celery app (``arena.celery``) and knows the tasks by name only, so the tasks import the
platform and never the other way round, and a message is never sent for a row that may still
be rolled back.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from arena.celery import app

log = logging.getLogger("arena.queue")


# Messages per pipeline. A tournament starts with dozens of messages; sent as one pipeline,
# the first waited for the last to be built (15-35 ms for 64 here) while every worker idled.
# In runs of 8 the first games go out after 2 ms, for 10 % more CPU than one pipeline.
BATCH_MESSAGES = 8


@dataclass(frozen=True)
class Messages:
    """One message of ``task`` per id, sent when called (after a commit). Through one
    producer; where kombu batches (>= 5.7, on Redis) each run of BATCH_MESSAGES goes out
    as one pipeline, which halves the cost of each message when a tournament starts with
    dozens of them."""

    task: str
    ids: tuple[int, ...]

    def __call__(self) -> None:
        with app.producer_or_acquire() as producer:
            for start in range(0, len(self.ids), BATCH_MESSAGES):
                with _batch(producer):
                    for pk in self.ids[start : start + BATCH_MESSAGES]:
                        # Celery logs argsrepr; given, it skips a saferepr per message.
                        app.send_task(
                            self.task,
                            args=[pk],
                            producer=producer,
                            argsrepr=f"[{pk}]",
                            kwargsrepr="{}",
                        )
        log.debug("queue.sent %s", {"task": self.task, "ids": self.ids})


def _batch(producer):
    batch = getattr(producer, "batch", None)  # kombu < 5.7 sends each message at once
    return batch() if batch is not None else contextlib.nullcontext()


def enqueue_games(game_ids: Iterable[int]) -> None:
    """Send ``workers.play_game`` for each of these games once the current transaction
    commits."""
    _on_commit("workers.play_game", game_ids)


def enqueue_game(game_id: int) -> None:
    """Send ``workers.play_game`` for this game once the current transaction commits."""
    _on_commit("workers.play_game", [game_id])


def enqueue_validations(version_ids: Iterable[int]) -> None:
    """Send ``workers.validate_bot_version`` for each of these versions once the current
    transaction commits."""
    _on_commit("workers.validate_bot_version", version_ids)


def enqueue_validation(version_id: int) -> None:
    """Send ``workers.validate_bot_version`` once the current transaction commits."""
    _on_commit("workers.validate_bot_version", [version_id])


def _on_commit(task: str, ids: Iterable[int]) -> None:
    ids = tuple(ids)
    if ids:
        transaction.on_commit(Messages(task, ids))
