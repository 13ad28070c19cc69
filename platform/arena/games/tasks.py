"""A game's Celery tasks: thin adapters between the broker and the platform's services.

Each task takes ids only, is acknowledged late (a worker that stops or loses a pool process
puts the message back, and the claim makes a redelivery harmless; a game whose worker was lost
outright is recovered by its lease and the sweeper), and calls the match runner in the
sandbox. A bot that crashes or times out is a game outcome stored with the game. While a game
runs, its lease is renewed by the heartbeat (``arena.games.heartbeat``). A permanent error
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

import psycopg
from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection

from arena.bots.services import ready_artifacts, refuse_unsandboxed, sweep_validations
from arena.games import services, totals
from arena.games.heartbeat import HEARTBEAT, LeaseLost, stall_budget
from arena.tournaments.ladders import pace_idle_ladders
from workers.errors import public_reason
from workers.match import MatchResult, run_match

log = logging.getLogger("arena.workers")


@shared_task(
    name="workers.play_game", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def play_queued_game(game_id: int) -> None:
    """Claim the game, play it in the sandbox with the lease renewed, store its result (the
    task's wire name, ``workers.play_game``, is what the outbox and the broker carry)."""
    worker = worker_name()
    # A pool process of this machine that died mid-game had its sandboxes killed: recorded
    # here, by the process that took its place (the sweep records them too).
    on_a_live_connection(services.record_runner_kills)
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
        played = run_job(job, on_progress=HEARTBEAT.progress)
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


# What a broken connection raises: Django's wrappers, or psycopg's own from a pipeline.
BROKEN_CONNECTION = (
    InterfaceError,
    OperationalError,
    psycopg.InterfaceError,
    psycopg.OperationalError,
)


def on_a_live_connection(step, *args, **kwargs):
    """Run a claim or a store (each one transaction, safe to run twice) once more on a new
    connection if the connection kept from earlier tasks turns out broken (PostgreSQL
    restarted, a network cut). Workers skip Django's per-task health check (a round trip
    before every game, see arena/worker.py); this is where a broken connection shows.
    psycopg's own errors count too: a pipelined round trip (arena.sql) raises them unwrapped."""
    try:
        return step(*args, **kwargs)
    except BROKEN_CONNECTION as err:
        if connection.in_atomic_block:
            raise
        log.warning("db.connection.retry %s", {"step": step.__name__, "error": str(err)[:200]})
        connection.close()
        return step(*args, **kwargs)


@shared_task(name="workers.sweep_games", ignore_result=True)
def sweep_games() -> None:
    """The beat's sweep: games and validations whose lease ran out, and the background
    games of settled ladders; the sandboxes killed with a dead pool process of this machine."""
    services.record_runner_kills()
    services.sweep_games()
    sweep_validations()
    pace_idle_ladders()  # settled ladders play at their background rate


@shared_task(name="workers.fold_totals", ignore_result=True)
def fold_totals() -> None:
    """Fold the games stored and the ratings changed since the last fold into the
    dashboards' totals and rating points (the beat's, every ARENA_FOLD_SECONDS)."""
    totals.fold_pending()


def run_job(job: services.MatchJob, *, on_progress=None) -> MatchResult:
    """Run a claimed game through the match runner in the platform's sandbox; the runner's
    ``MatchResult``, which the store takes. Uploaded bots never run without the sandbox.
    ``on_progress`` is the runner's per-decision callback (the lease heartbeat)."""
    refuse_unsandboxed(job.seats)
    ready_artifacts(job.artifacts)  # uploaded bots' files, fetched and checked once per machine
    return run_match(
        job.title,
        job.seats,
        seed=job.seed,
        options=job.options,
        limits=job.limits,
        sandbox=settings.ARENA_SANDBOX,
        on_progress=on_progress,
        label=f"game-{job.game_id}",  # the watchdog journals its sandboxes should we die
    )
