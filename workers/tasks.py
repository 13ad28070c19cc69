"""Celery tasks: thin adapters between the broker and the platform's service functions.

Each task takes ids only, is acknowledged late (a worker that stops or loses a pool process
puts the message back, and the claim makes a redelivery harmless; a game whose worker was lost
outright is recovered by its lease and the sweeper), and calls the match runner in the
sandbox. A bot that crashes or times out is a game outcome stored with the game. While a game
runs, its lease is renewed by the heartbeat (``workers.heartbeat``). A permanent error
(``workers.errors``: the game cannot be played as set up) fails the game at once; other
failures of the runner itself release it for another attempt.
"""

from __future__ import annotations

import functools
import logging
import os
import secrets
import socket
import traceback
from typing import TYPE_CHECKING

from celery import shared_task
from django.conf import settings

if TYPE_CHECKING:
    from workers.limits import Limits
    from workers.match import SeatSpec

log = logging.getLogger("arena.workers")


@shared_task(
    name="workers.play_game", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def play_game(game_id: int) -> None:
    from arena.games import services
    from workers.heartbeat import HEARTBEAT, LeaseLost, stall_budget

    worker = worker_name()
    try:  # the claim also readies the seated bots' files, which may be missing or broken
        job = on_a_live_connection(services.claim_game, game_id, worker=worker)
    except Exception as err:
        runner_failed(game_id, worker, err)
        return
    if job is None:
        return
    HEARTBEAT.hold(
        functools.partial(services.renew_lease, job),
        every=settings.ARENA_GAME_LEASE_SECONDS / 3,
        stall_after=stall_budget(job.limits, settings.ARENA_GAME_LEASE_SECONDS),
        label=f"{game_id}",
    )
    try:
        played = run_job(
            job.title,
            job.seats,
            seed=job.seed,
            options=job.options,
            limits=job.limits,
            on_progress=HEARTBEAT.progress,
        )
    except LeaseLost:  # taken back after a stall: another worker plays it, store nothing
        log.warning("game.abandoned %s", {"game_id": game_id, "worker": worker})
        return
    except Exception as err:  # the runner itself broke (not a bot)
        runner_failed(game_id, worker, err)
        return
    finally:
        HEARTBEAT.release()
    on_a_live_connection(services.store_game_result, job, played)


def runner_failed(game_id: int, worker: str, err: Exception) -> None:
    """Call from the ``except`` that caught ``err``: a permanent error (``workers.errors``)
    fails the game now with its public reason; anything else releases it for another
    attempt. The traceback goes to staff and the seats' owners only."""
    from arena.games import services
    from workers.errors import public_reason

    detail, reason = traceback.format_exc(limit=8), public_reason(err)
    if reason is not None:  # no other attempt can cure it
        on_a_live_connection(
            services.fail_game, game_id, reason=reason, detail=detail, worker=worker
        )
        log.warning("game.permanent.error %s", {"game_id": game_id, "reason": reason})
    else:
        reason = f"the worker failed to run it ({type(err).__name__})"
        on_a_live_connection(
            services.release_game, game_id, reason=reason, detail=detail, worker=worker
        )
        log.exception("game.runner.error %s", {"game_id": game_id})


_worker_names: dict[int, str] = {}


def worker_name() -> str:
    """This process's name on the games it claims. Host name and pid alone collide across
    containers (each may be host ``worker`` with pid 7), so a random suffix is drawn once per
    process, after the fork."""
    pid = os.getpid()
    if pid not in _worker_names:
        _worker_names[pid] = f"{socket.gethostname()}:{pid}:{secrets.token_hex(3)}"
    return _worker_names[pid]


def on_a_live_connection(step, *args, **kwargs):
    """Run a claim or a store (each one transaction, safe to run twice) once more on a new
    connection if the connection kept from earlier tasks turns out broken (PostgreSQL
    restarted, a network cut). Workers skip Django's per-task health check (a round trip
    before every game, see workers/celery.py); this is where a broken connection shows.
    psycopg's own errors count too: a pipelined round trip (arena.sql) raises them unwrapped."""
    import psycopg
    from django.db import InterfaceError, OperationalError, connection

    broken = (InterfaceError, OperationalError, psycopg.InterfaceError, psycopg.OperationalError)
    try:
        return step(*args, **kwargs)
    except broken as err:
        if connection.in_atomic_block:
            raise
        log.warning("db.connection.retry %s", {"step": step.__name__, "error": str(err)[:200]})
        connection.close()
        return step(*args, **kwargs)


@shared_task(
    name="workers.validate_bot_version",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def validate_bot_version(version_id: int) -> None:
    from arena.bots import services

    services.validate_version(version_id)


@shared_task(name="workers.sweep_games", ignore_result=True)
def sweep_games() -> None:
    from arena.bots.services import sweep_validations
    from arena.games.services import sweep_games as sweep

    sweep()
    sweep_validations()


def run_job(
    title: str,
    seats: list[SeatSpec],
    *,
    seed: int,
    options: dict,
    limits: Limits,
    on_progress=None,
):
    """Run one game through the match runner in the platform's sandbox; the runner's
    ``MatchResult``, which the store takes. Uploaded bots never run without the sandbox.
    ``on_progress`` is the runner's per-decision callback (the lease heartbeat)."""
    from arena.bots.services import ready_seats, refuse_unsandboxed
    from workers.match import run_match

    refuse_unsandboxed(seats)
    ready_seats(seats)  # uploaded bots' artifacts, fetched and checked once per machine
    return run_match(
        title,
        seats,
        seed=seed,
        options=options,
        limits=limits,
        sandbox=settings.ARENA_SANDBOX,
        on_progress=on_progress,
    )
