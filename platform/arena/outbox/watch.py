"""The beat's watch over the broker, every ARENA_OUTBOX_SECONDS (``arena.outbox.beat``): drain
the outbox, and notice that the broker lost its messages.

Redis keeps its queue in memory (the shipped settings save nothing to disk), so a restart
loses every queued message; and a worker killed with a message it had taken loses that one.
The watch sees a restart as a new ``run_id`` in Redis's INFO, and lost messages as an empty
queue while games (or versions to validate) have waited queued for more than GRACE; either
way it sends those again at once, rather than after ARENA_QUEUED_RESEND_SECONDS. A game sent
twice is claimed once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.db import close_old_connections, transaction
from django.utils import timezone

from arena import leases
from arena.celery import app

from . import services

log = logging.getLogger("arena.outbox")


@dataclass(frozen=True)
class BrokerState:
    run_id: str | None  # Redis's, None on other transports
    messages: int  # waiting in the workers' queue


def broker_state() -> BrokerState:
    """The broker's run id and the length of the workers' queue (raises when it is down)."""
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
        channel = conn.default_channel
        queue = app.conf.task_default_queue
        messages = channel.queue_declare(queue=queue, passive=False).message_count
        client = getattr(channel, "client", None)
        run_id = client.info("server").get("run_id") if hasattr(client, "info") else None
    return BrokerState(run_id, messages)


def queued_work() -> list[leases.LeasedWork]:
    """Every kind of work a message stands for, with its queued rows."""
    from arena.bots.services import VALIDATIONS
    from arena.games.services import GAMES

    return [GAMES, VALIDATIONS]


def resend_queued(*, all_of_it: bool) -> int:
    """Send every queued game and version to validate again (``all_of_it``), or those
    queued more than GRACE ago. How many."""
    now = timezone.now()
    before = now if all_of_it else now - services.GRACE
    sent = 0
    for work in queued_work():
        with transaction.atomic():
            sent += leases.resend_unclaimed(work.waiting(before), work.enqueue, now=now)
    return sent


class BrokerWatch:
    """What the beat remembers of the broker from one tick to the next."""

    def __init__(self):
        self.run_id: str | None = None
        self.failed = False  # the last tick could not reach the broker (or the database)

    def tick(self) -> dict[str, int]:
        """Drain the outbox; then, when the broker restarted or its queue is empty while
        work has waited queued, send that work again. Never raises (the beat goes on)."""
        counts = {"drained": 0, "resent": 0}
        try:
            close_old_connections()  # a beat lives long; PostgreSQL may have restarted
            # Back from an outage, every row waits for this drain (their senders failed),
            # the youngest too.
            grace = timedelta(0) if self.failed else services.GRACE
            counts["drained"] = services.drain(grace=grace)
            state = broker_state()
            restarted = self.run_id is not None and state.run_id != self.run_id
            self.run_id = state.run_id
            if restarted or state.messages == 0:
                counts["resent"] = resend_queued(all_of_it=restarted)
        except Exception as err:  # the broker or the database is down: next tick
            self.failed = True
            log.warning("outbox.watch.failed %s", {"error": str(err)[:200]})
            return counts
        self.failed = False
        if restarted:
            log.warning("broker.restarted %s", {"run_id": state.run_id, **counts})
        elif counts["resent"]:
            log.warning("broker.lost_messages %s", counts)
        return counts
