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
import socket
import time
import traceback

from celery import shared_task
from django.conf import settings

log = logging.getLogger("arena.workers")
# Uploaded bots never run outside bubblewrap; ARENA_SANDBOX=none is for built-in bots only.
UNSANDBOXED = (
    "This server runs with ARENA_SANDBOX=none, so uploaded bots are never run here; "
    "the operator must install bubblewrap and set ARENA_SANDBOX=bwrap."
)


@shared_task(
    name="workers.play_game", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def play_game(game_id: int) -> None:
    from arena.games import services

    worker = f"{socket.gethostname()}:{os.getpid()}"
    job = on_a_live_connection(services.claim_game, game_id, worker=worker)
    if job is None:
        return
    try:
        outcome = run_job(
            job.title, job.seats, seed=job.seed, options=job.options, limits=job.limits
        )
    except Exception:  # the runner itself broke (not a bot): try again elsewhere, then fail
        services.release_game(game_id, reason=traceback.format_exc(limit=5))
        log.exception("game.runner.error %s", {"game_id": game_id})
        return
    on_a_live_connection(services.store_game_result, job, outcome)


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

    services.validate_version(version_id, validator=validate, limits=bot_limits())


@shared_task(name="workers.sweep_games", ignore_result=True)
def sweep_games() -> None:
    from arena.bots.services import sweep_validations
    from arena.games.services import sweep_games as sweep

    sweep()
    sweep_validations()


def bot_limits(decision_ms: int | None = None, bank_ms: int | None = None) -> dict:
    """The platform's limits for one bot (tournament time control over the settings)."""
    return {
        "decision_ms": decision_ms or settings.ARENA_BOT_DECISION_MS,
        "bank_ms": settings.ARENA_BOT_BANK_MS if bank_ms is None else bank_ms,
        "memory_mb": settings.ARENA_BOT_MEMORY_MB,
        "stderr_bytes": settings.ARENA_BOT_STDERR_BYTES,
    }


def _runner_limits(limits: dict):
    from workers.limits import Limits

    return Limits.from_env().replace(**limits)


def validate(title: str, path: str, *, limits: dict):
    """The match runner's smoke game for an uploaded bot, with the platform's sandbox."""
    from workers.match import ValidationReport, validate_bot

    if settings.ARENA_SANDBOX != "bwrap":
        return ValidationReport(False, UNSANDBOXED)
    return validate_bot(title, path, limits=_runner_limits(limits), sandbox=settings.ARENA_SANDBOX)


def run_job(title: str, seats, *, seed: int, options: dict, limits: dict) -> dict:
    """Run one game through the match runner in the sandbox; its JSON outcome plus wall time."""
    from workers.match import SeatSpec, run_match

    if settings.ARENA_SANDBOX != "bwrap" and any(s.kind != "builtin" for s in seats):
        raise RuntimeError(UNSANDBOXED)
    specs = [SeatSpec(kind=s.kind, name=s.name, path=s.path) for s in seats]
    started = time.perf_counter()
    result = run_match(
        title,
        specs,
        seed=seed,
        options=options,
        limits=_runner_limits(limits),
        sandbox=settings.ARENA_SANDBOX,
    )
    outcome = result.to_json()
    outcome["match_ms"] = round(1000 * (time.perf_counter() - started))
    return outcome
