"""Saving, sending and draining the outbox's messages (``arena.queue`` is the way in).

A sender writes its rows in its transaction (:func:`save`) and, right after the commit,
publishes them and deletes them (:func:`deliver`). Rows it could not send (the broker was
down, or it died between its commit and the publish) are sent by :func:`drain`: the beat's
every ARENA_OUTBOX_SECONDS (``arena.outbox.watch``), and any sender's that finds such rows
left over after sending its own (a worker after each store, say). A row is deleted only
after its message was published, so a message may go out twice, never not at all.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from arena.celery import app
from arena.sql import build, columns, insert_rows, now_param, row_timestamp, to_json
from arena.sql import cursor as new_cursor

from .models import OutboxMessage

log = logging.getLogger("arena.outbox")

COLUMNS = columns(OutboxMessage, "id", "task", "args", "created_at")

# Messages per pipeline. A tournament starts with dozens of messages; sent as one pipeline,
# the first waited for the last to be built (15-35 ms for 64 here) while every worker idled.
# In runs of 8 the first games go out after 2 ms, for 10 % more CPU than one pipeline.
BATCH_MESSAGES = 8
# One reconnection (a broker restarted since this process last sent), no more: a sender
# whose broker is down leaves its rows to the drain rather than keep a request waiting.
RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# Rows younger than this are left to the process that wrote them, which sends them right
# after its commit; older ones are anybody's to send.
GRACE = timedelta(seconds=2)
# After a failed send a process leaves its rows to the drain for this long, so a broker
# outage costs one request in each such span a connection attempt, not every request.
PAUSE_SECONDS = 2.0
DRAIN_ROWS = 500

_paused_until = 0.0


@dataclass(frozen=True)
class Messages:
    """Messages of one task saved in the outbox by one transaction (``keys``: their rows),
    sent when called, once it commits."""

    task: str
    args: tuple[tuple[Any, ...], ...]
    keys: tuple[str, ...]

    @property
    def ids(self) -> tuple[Any, ...]:
        """The first argument of each message: the game or version id of the tasks that
        take one."""
        return tuple(a[0] for a in self.args)

    def __call__(self) -> None:
        deliver(self)


def save(task: str, args: tuple[tuple, ...], *, cursor=None) -> Messages:
    """Write one outbox row per message of ``task`` (one statement), on ``cursor`` or a new
    one; the :class:`Messages` to send once the transaction commits. Rows of one call get
    increasing timestamps, so a drain sends them in the order given."""
    now = timezone.now()
    keys = tuple(uuid.uuid4().hex for _ in args)
    rows = [
        [key, task, to_json(list(a)), row_timestamp(now + timedelta(microseconds=i))]
        for i, (key, a) in enumerate(zip(keys, args, strict=True))
    ]
    with contextlib.nullcontext(cursor) if cursor is not None else new_cursor() as writer:
        insert_rows(writer, OutboxMessage, COLUMNS, rows)
    return Messages(task, args, keys)


def publish(task: str, args: list | tuple) -> None:
    """Send one ``task`` message per argument list through one producer; where kombu
    batches (>= 5.7, on Redis) each run of BATCH_MESSAGES goes out as one pipeline, which
    halves the cost of each message when a tournament starts with dozens of them. Raises
    the broker's error when it cannot be reached."""
    with app.producer_or_acquire() as producer:
        for start in range(0, len(args), BATCH_MESSAGES):
            with _batch(producer):
                for a in args[start : start + BATCH_MESSAGES]:
                    # Celery logs argsrepr; given, it skips a saferepr per message.
                    app.send_task(
                        task,
                        args=list(a),
                        producer=producer,
                        argsrepr=repr(list(a)),
                        kwargsrepr="{}",
                        retry_policy=RETRY_POLICY,
                    )


def _batch(producer):
    batch = getattr(producer, "batch", None)  # kombu < 5.7 sends each message at once
    return batch() if batch is not None else contextlib.nullcontext()


def deliver(messages: Messages) -> None:
    """After the commit that saved ``messages``: publish them and delete their rows, then
    drain whatever else was left waiting. Never raises: a message it could not send stays
    in the outbox for the drain, and the request or task that saved it goes on."""
    global _paused_until
    if time.monotonic() < _paused_until:
        return  # the broker failed a moment ago: the drain sends these
    try:
        publish(messages.task, messages.args)
    except Exception as err:
        _paused_until = time.monotonic() + PAUSE_SECONDS
        log.warning("outbox.send.failed %s", {"task": messages.task, "error": str(err)[:200]})
        return
    try:
        left_over = delete_sent(messages.keys)
        if left_over:
            drain(limit=DRAIN_ROWS, once=True)
    except Exception as err:  # sent; a row left behind is only sent twice
        log.warning("outbox.delete.failed %s", {"task": messages.task, "error": str(err)[:200]})
    log.debug("queue.sent %s", {"task": messages.task, "args": messages.args})


def delete_sent(keys: tuple[str, ...]) -> bool:
    """Delete the rows of messages just sent; whether older rows are waiting for a drain.
    On PostgreSQL one statement."""
    stale = now_param(timezone.now() - GRACE)
    with new_cursor() as sql:
        if connection.vendor == "postgresql":
            sql.execute(_DELETE_AND_LOOK, [list(keys), stale])
            return sql.fetchone()[0]
        OutboxMessage.objects.filter(pk__in=keys).delete()
        return OutboxMessage.objects.filter(created_at__lt=timezone.now() - GRACE).exists()


# The statement sees the rows as they were before its DELETE: the sent ones are left out.
_DELETE_AND_LOOK = build(
    "WITH sent AS (DELETE FROM {m} WHERE {m.id} = ANY(%s::uuid[]) RETURNING {m.id} AS id) "
    "SELECT EXISTS (SELECT 1 FROM {m} WHERE {m.created_at} < %s "
    "AND {m.id} NOT IN (SELECT id FROM sent))",
    m=OutboxMessage,
)


def drain(*, limit: int = DRAIN_ROWS, once: bool = False, grace: timedelta = GRACE) -> int:
    """Send the messages saved more than ``grace`` ago and not sent yet, oldest first, in
    transactions of up to ``limit`` rows (rows another drain holds are skipped); each row
    is deleted once its message was published. How many were sent; raises the broker's
    error (the rows stay) when it cannot be reached. ``once``: one transaction only."""
    sent = 0
    while True:
        with transaction.atomic():
            rows = list(
                OutboxMessage.objects.select_for_update(skip_locked=True)
                .filter(created_at__lt=timezone.now() - grace)
                .order_by("created_at")
                .values_list("id", "task", "args")[:limit]
            )
            for task, group in groupby(rows, key=itemgetter(1)):
                publish(task, [args for _, _, args in group])
            OutboxMessage.objects.filter(pk__in=[pk for pk, _, _ in rows]).delete()
        sent += len(rows)
        if once or len(rows) < limit:
            break
    if sent:
        log.info("outbox.drained %s", {"sent": sent})
    return sent


def waiting() -> int:
    """How many messages wait in the outbox."""
    return OutboxMessage.objects.count()
