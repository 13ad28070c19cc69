"""The heartbeat that keeps a claimed game's lease while the game makes progress.

A claim holds its game for ARENA_GAME_LEASE_SECONDS (short, so that a lost worker's game is
back in play within a minute); while the game runs, a thread of the pool process renews the
lease every third of it. The thread renews only as long as the runner reports progress (a
decision played, the bots started) within the longest step the game's own time limits allow:
a runner that hangs stops renewing and loses its game like a stopped worker does, while a bot
that thinks for its whole bank does not. A stopped (SIGSTOP) or killed worker stops every
thread at once, so its lease simply runs out.

When a renewal finds the game no longer held by this worker (the sweep took it back after a
stall, and another worker has it now), the next progress report raises :class:`LeaseLost`
and the runner stops the game; the task then stores nothing.

One thread per pool process, started with its first game and kept; the runner's side costs a
counter increment per decision and two attribute writes per game. A game shorter than one
renewal period costs no database round trip and opens no connection. Progress is looked at
only at each renewal, so a stall is noticed to within one renewal period.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("arena.workers")

#: The longest the thread sleeps without looking at what it holds.
IDLE_WAIT = 1.0
#: After a renewal failed twice (the database unreachable), the next try comes this soon.
RETRY_AFTER = 2.0


class LeaseLost(Exception):
    """This worker no longer holds the game's lease: another worker plays it now."""


@dataclass
class _Held:
    renew: Callable[..., bool]  # renew(state) -> True: renewed; False: no longer ours
    every: float  # seconds between renewals
    stall_after: float  # no progress for this long: stop renewing
    label: str
    progressed: float = field(default_factory=time.monotonic)
    renewed: float = field(default_factory=time.monotonic)
    steps: int = 0  # progress reports so far (a counter: the runner's side stays cheap)
    state: object = None  # the runner's live game, whose record so far each renewal keeps
    seen_steps: int = 0  # as of the last beat
    lost: bool = False
    stalled: bool = False


class Heartbeat:
    """Renews the lease of the one game this process plays (see the module docstring)."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._held: _Held | None = None
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def hold(self, renew: Callable[..., bool], *, every: float, stall_after: float, label: str):
        """Renew with ``renew(state)`` every ``every`` seconds until :meth:`release`, as long
        as :meth:`progress` was called within ``stall_after`` seconds (``state``: the live game
        the runner last reported, or None)."""
        now = self._clock()
        # No wake-up: the thread looks at least every IDLE_WAIT seconds, and the first
        # renewal is due only ``every`` seconds from now (a game costs no thread switch).
        self._held = _Held(renew, every, stall_after, label, progressed=now, renewed=now)
        self._start_thread()

    def progress(self, state=None) -> None:
        """The runner moved on (the per-decision callback, given its live game, which each
        renewal passes to ``renew``). Raises :class:`LeaseLost` once a renewal found the game
        taken by another worker."""
        held = self._held
        if held is None:
            return
        if held.lost:
            raise LeaseLost(held.label)
        held.steps += 1
        held.state = state

    def release(self) -> None:
        """The game is over (stored, released, or lost): renew no more."""
        self._held = None

    def _start_thread(self) -> None:
        # A pool process is forked from the worker's parent: a thread started there (or in
        # an earlier incarnation of this process) does not exist here.
        if self._thread is not None and self._pid == os.getpid() and self._thread.is_alive():
            return
        self._pid = os.getpid()
        self._thread = threading.Thread(target=self._run, name="lease-heartbeat", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        connected = False
        while True:
            held = self._held
            if held is None:
                if connected:
                    _close_connections()  # no idle second connection between games
                    connected = False
                self._sleep(IDLE_WAIT)
                continue
            wait = held.renewed + held.every - self._clock()
            if wait > 0:
                self._sleep(min(wait, IDLE_WAIT))
                continue
            connected = self._beat(held) or connected

    def _sleep(self, seconds: float) -> None:
        with self._wake:
            self._wake.wait(seconds)

    @staticmethod
    def _renew(held: _Held) -> bool:
        """``held.renew()``, once more on a new connection if the kept one is broken
        (PostgreSQL restarted or terminated it since the last renewal)."""
        try:
            return held.renew(held.state)
        except Exception:
            _close_connections()
            return held.renew(held.state)

    def _beat(self, held: _Held) -> bool:
        """One renewal of ``held`` (outside the lock: it is a database round trip). True
        when it used the database."""
        now = self._clock()
        held.renewed = now
        if held.steps != held.seen_steps:
            held.seen_steps, held.progressed = held.steps, now
        if now - held.progressed > held.stall_after:
            if not held.stalled:
                held.stalled = True
                log.warning("game.lease.stalled %s", {"game": held.label})
            return False
        try:
            still_ours = self._renew(held)
        except Exception as err:  # the database is away: try again soon, not a period later
            log.warning("game.lease.renew_failed %s", {"game": held.label, "error": str(err)[:200]})
            _close_connections()
            held.renewed = now - held.every + min(RETRY_AFTER, held.every)
            return False
        if not still_ours:
            held.lost = True
            log.warning("game.lease.lost %s", {"game": held.label})
        return True


def stall_budget(limits, lease_seconds: float) -> float:
    """Seconds a game may go without progress before its heartbeat stops: the longest step
    its time limits allow (the bots' start-up, or one decision that spends the whole bank,
    then the goodbye), plus one lease of slack for a loaded machine."""
    longest_ms = max(limits.startup_ms, limits.decision_ms + limits.bank_ms) + limits.shutdown_ms
    return longest_ms / 1000 + lease_seconds


def _close_connections() -> None:
    # Django's connections are per thread: this closes the heartbeat thread's own.
    from django.db import connections

    connections.close_all()


HEARTBEAT = Heartbeat()
"""This process's heartbeat (a pool process plays one game at a time)."""
