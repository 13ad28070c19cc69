"""Work the workers take with a lease, and the sweep that recovers it: one mechanism for
games and for bot validations.

A worker claims a row by a conditional update (queued -> running, 0 rows: someone else has
it) and holds it for a lease: a game for ARENA_GAME_LEASE_SECONDS, renewed by its worker's
heartbeat while the game makes progress (``arena.games.heartbeat``), a validation for
ARENA_VALIDATION_LEASE_SECONDS. The periodic sweep (``workers.sweep_games``,
or ``manage.py requeue_games``) then does two things for each kind of work:

- a row whose lease expired (its worker was lost) is taken back in a transaction of its
  own: locked, checked again (it may have been stored or renewed meanwhile), and queued
  again, or given up after ARENA_GAME_MAX_ATTEMPTS attempts;
- a queued row nobody claimed for ARENA_QUEUED_RESEND_SECONDS (a lost message) is sent
  again; the claim makes a duplicate message harmless.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

log = logging.getLogger("arena.leases")


@dataclass(frozen=True)
class LeasedWork:
    """How one kind of work is leased and recovered."""

    name: str  # in the sweep's log line
    #: The rows whose lease expired before ``now``.
    lost: Callable[[datetime], QuerySet]
    #: The queued rows sent before ``stale`` and taken by nobody since.
    waiting: Callable[[datetime], QuerySet]
    #: Inside a transaction: lock the row, check that it is still lost at ``now`` and queue it
    #: again or give up on it. The outcome's name (one of ``outcomes``), None when the row
    #: was no longer lost.
    take_back: Callable[[int, datetime], str | None]
    #: Send these ids to the workers once the transaction commits.
    enqueue: Callable[[Iterable[int]], None]
    outcomes: tuple[str, str]  # (queued again, given up)


def lease() -> timedelta:
    """How long a game's claim (or its last renewal) holds it before the sweep may take it
    back."""
    return timedelta(seconds=settings.ARENA_GAME_LEASE_SECONDS)


def validation_lease() -> timedelta:
    """How long a validation's claim holds its version (not renewed: the longest smoke
    game)."""
    return timedelta(seconds=settings.ARENA_VALIDATION_LEASE_SECONDS)


def gives_up(attempts: int) -> bool:
    """After this many claims that ended with a lost worker or a broken runner, the work is
    given up (failed, rejected) rather than queued again."""
    return attempts >= settings.ARENA_GAME_MAX_ATTEMPTS


def sweep(work: LeasedWork) -> dict[str, int]:
    """One sweep of ``work``: how many rows were queued again, given up, and resent."""
    now = timezone.now()
    counts = dict.fromkeys((*work.outcomes, "resent"), 0)
    for pk in list(work.lost(now).values_list("pk", flat=True)):
        with transaction.atomic():
            outcome = work.take_back(pk, now)
        if outcome is not None:
            counts[outcome] += 1
    stale = now - timedelta(seconds=settings.ARENA_QUEUED_RESEND_SECONDS)
    with transaction.atomic():
        counts["resent"] = resend_unclaimed(work.waiting(stale), work.enqueue, now=now)
    if any(counts.values()):
        log.info("%s.swept %s", work.name, counts)
    return counts


def resend_unclaimed(rows: QuerySet, enqueue, *, now) -> int:
    """Send ``rows`` (queued, and taken by nobody for too long: a lost message) again with
    ``enqueue(ids)``, resetting their ``queued_at`` to ``now``; rows another sweep holds are
    skipped. Call inside a transaction: the messages go out when it commits. Returns how
    many were sent."""
    ids = list(rows.select_for_update(skip_locked=True).values_list("id", flat=True))
    rows.model.objects.filter(pk__in=ids).update(queued_at=now)
    enqueue(ids)
    return len(ids)
