"""The one way the platform sends work to the workers: by task name, through the outbox.

A message is saved as a row of the outbox (``arena.outbox``) in the caller's transaction,
so it exists exactly when the change that asked for it was committed, and it is sent right
after that commit when the broker takes it. While the broker is down the request still
succeeds: the rows wait, and the beat (every ARENA_OUTBOX_SECONDS) or the next sender sends
them once it is back. Every message goes out at least once; the tasks are safe to receive
twice (a game is claimed with a lease, a validation with its status).

Senders never import the tasks (the apps' ``tasks.py``, loaded by the workers only); they
send through the platform's Celery app (``arena.celery``) and know the tasks by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from arena.outbox import services


def send_after_commit(task: str, *args: Any, cursor=None) -> None:
    """Send one ``task`` message with these (JSON) arguments once the current transaction
    commits, and at least once even if the broker is down then: see the module's doc.
    Outside a transaction it is sent at once. ``cursor``: write the outbox row on this one
    (a ``RoundTrip``'s, to add no round trip) instead of a new one."""
    send_many_after_commit(task, [args], cursor=cursor)


def send_many_after_commit(task: str, args: Iterable[Sequence[Any]], *, cursor=None) -> None:
    """One ``task`` message per argument list, in order, as :func:`send_after_commit`."""
    args = tuple(tuple(a) for a in args)
    if args:
        transaction.on_commit(services.save(task, args, cursor=cursor))


def enqueue_games(game_ids: Iterable[int], *, cursor=None) -> None:
    """Send ``workers.play_game`` for each of these games once the current transaction
    commits."""
    send_many_after_commit("workers.play_game", ([pk] for pk in game_ids), cursor=cursor)


def enqueue_game(game_id: int) -> None:
    """Send ``workers.play_game`` for this game once the current transaction commits."""
    send_after_commit("workers.play_game", game_id)


def enqueue_validations(version_ids: Iterable[int]) -> None:
    """Send ``workers.validate_bot_version`` for each of these versions once the current
    transaction commits."""
    send_many_after_commit("workers.validate_bot_version", ([pk] for pk in version_ids))


def enqueue_validation(version_id: int) -> None:
    """Send ``workers.validate_bot_version`` once the current transaction commits."""
    send_after_commit("workers.validate_bot_version", version_id)
