"""Celery tasks: thin adapters between the broker and the platform's service functions.

Each task takes ids only, is acknowledged late (a worker that stops or loses a pool process
puts the message back, and the claim makes a redelivery harmless; a game whose worker was lost
outright is recovered by its lease and the sweeper), and calls the match runner in the
sandbox. A bot that crashes or times out is a game outcome stored with the game; only failures
of the runner itself release the game for another attempt.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import traceback
from typing import TYPE_CHECKING

from celery import shared_task
from django.conf import settings

from workers.errors import PermanentGameError

if TYPE_CHECKING:
    from workers.limits import Limits
    from workers.match import SeatSpec

log = logging.getLogger("arena.workers")


@shared_task(
    name="workers.play_game", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def play_game(game_id: int) -> None:
    from arena.games import services

    job = on_a_live_connection(services.claim_game, game_id, worker=worker_name())
    if job is None:
        return
    try:
        played = run_job(
            job.title, job.seats, seed=job.seed, options=job.options, limits=job.limits
        )
    except PermanentGameError as err:  # no other attempt would do better: fail it now
        services.release_game(game_id, reason=err.public_reason, permanent=True)
        log.warning("game.failed.permanent %s", {"game_id": game_id, "reason": err.public_reason})
        return
    except Exception:  # the runner itself broke (not a bot): try again elsewhere, then fail
        services.release_game(game_id, reason=traceback.format_exc(limit=5))
        log.exception("game.runner.error %s", {"game_id": game_id})
        return
    on_a_live_connection(services.store_game_result, job, played)


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
    before every game, see workers/celery.py); this is where a broken connection shows."""
    from django.db import InterfaceError, OperationalError, connection

    try:
        return step(*args, **kwargs)
    except (InterfaceError, OperationalError) as err:
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


def run_job(title: str, seats: list[SeatSpec], *, seed: int, options: dict, limits: Limits):
    """Run one game through the match runner in the platform's sandbox; the runner's
    ``MatchResult``, which the store takes. Uploaded bots never run without the sandbox."""
    from arena.bots.services import ready_seats, refuse_unsandboxed
    from workers.match import run_match

    refuse_unsandboxed(seats)
    ready_seats(seats)  # uploaded bots' artifacts, fetched and checked once per machine
    return run_match(
        title, seats, seed=seed, options=options, limits=limits, sandbox=settings.ARENA_SANDBOX
    )
