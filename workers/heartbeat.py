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

One thread per pool process, started with its first long game and kept: a game shorter than
one renewal period never wakes it, costs no database round trip and opens no connection.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("arena.workers")


class LeaseLost(Exception):
    """This worker no longer holds the game's lease: another worker plays it now."""


@dataclass
class _Held:
    renew: Callable[[], bool]  # True: renewed; False: the game is no longer ours
    every: float  # seconds between renewals
    stall_after: float  # no progress for this long: stop renewing
    label: str
    progressed: float = field(default_factory=time.monotonic)
    renewed: float = field(default_factory=time.monotonic)
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

    def hold(self, renew: Callable[[], bool], *, every: float, stall_after: float, label: str):
        """Renew with ``renew()`` every ``every`` seconds until :meth:`release`, as long as
        :meth:`progress` was called within ``stall_after`` seconds."""
        now = self._clock()
        with self._wake:
            self._held = _Held(renew, every, stall_after, label, progressed=now, renewed=now)
            self._start_thread()
            self._wake.notify()

    def progress(self) -> None:
        """The runner moved on (the per-decision callback). Raises :class:`LeaseLost` once
        a renewal found the game taken by another worker."""
        held = self._held
        if held is None:
            return
        if held.lost:
            raise LeaseLost(held.label)
        held.progressed = self._clock()

    def release(self) -> None:
        """The game is over (stored, released, or lost): renew no more."""
        with self._wake:
            self._held = None
            self._wake.notify()

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
            with self._wake:
                held = self._held
                if held is None:
                    if connected:
                        _close_connections()  # no idle second connection between games
                        connected = False
                    self._wake.wait()
                    continue
                wait = held.renewed + held.every - self._clock()
                if wait > 0:
                    self._wake.wait(wait)
                    continue
            connected = self._beat(held) or connected

    def _beat(self, held: _Held) -> bool:
        """One renewal of ``held`` (outside the lock: it is a database round trip). True
        when it used the database."""
        now = self._clock()
        held.renewed = now
        if now - held.progressed > held.stall_after:
            if not held.stalled:
                held.stalled = True
                log.warning("game.lease.stalled %s", {"game": held.label})
            return False
        try:
            still_ours = held.renew()
        except Exception as err:  # a broken connection: try again on a new one next time
            log.warning("game.lease.renew_failed %s", {"game": held.label, "error": str(err)[:200]})
            _close_connections()
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
