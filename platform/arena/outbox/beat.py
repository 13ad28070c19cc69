"""The beat's scheduler: Celery's own, which also watches the broker and drains the outbox
every ARENA_OUTBOX_SECONDS (``arena.outbox.watch``) in the beat's process.

That work cannot be a periodic task like the sweeper's: a task is a broker message, and the
broker being down or emptied is what the watch is for. The settings select this scheduler
(``CELERY_BEAT_SCHEDULER``), so ``celery -A arena beat`` and ``worker --beat``
run it as they are.
"""

from __future__ import annotations

import time

from celery.beat import PersistentScheduler


class Scheduler(PersistentScheduler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._watch = None
        self._next_watch = 0.0

    def tick(self, *args, **kwargs) -> float:
        """Celery's tick, then the watch's when it is due; the seconds to sleep until the
        next of either."""
        interval = super().tick(*args, **kwargs)
        now = time.monotonic()
        if now >= self._next_watch:
            self._watch_tick()
            self._next_watch = time.monotonic() + self._watch_seconds()
        return max(0.0, min(interval, self._next_watch - time.monotonic()))

    def _watch_tick(self) -> None:
        from arena.outbox.watch import BrokerWatch

        if self._watch is None:
            self._watch = BrokerWatch()
        self._watch.tick()

    @staticmethod
    def _watch_seconds() -> float:
        from django.conf import settings

        return float(settings.ARENA_OUTBOX_SECONDS)
