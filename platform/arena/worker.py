"""What each worker process does at start and around a task (Celery's signals): the heap
frozen after forking, the worker's database session settings, connections kept
across tasks. Connected when the Celery app loads (``arena.celery``), so ``celery -A arena
worker`` runs with them; they never fire in the web's processes.
"""

from __future__ import annotations

import functools
import gc
import logging

from celery.signals import (
    after_setup_logger,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
)
from celery.worker.consumer import Consumer

# Seconds between a worker's attempts to reach a broker that went away.
BROKER_RETRY_SECONDS = 1


class PromptConsumer(Consumer):
    """Celery's consumer, trying a lost broker again every BROKER_RETRY_SECONDS. kombu's own
    pauses grow by 2 s an attempt up to 30 s, so a worker came back to Redis up to that long
    after it returned (12 s after a minute's outage), while the beat had resent the work at
    once."""

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection,
            interval_start=0,
            interval_step=BROKER_RETRY_SECONDS,
            interval_max=BROKER_RETRY_SECONDS,
        )
        return super().ensure_connected(conn)


@worker_init.connect
def _report_the_sandbox(sender=None, **kwargs) -> None:
    """Say in the log and on the staff queue page how this worker confines bots (a cgroup
    per sandbox or none); a database that cannot be reached yet is no reason not to start."""
    from django.db import connections

    from arena.games.sandboxes import report_worker_sandbox

    try:
        report_worker_sandbox(getattr(sender, "hostname", None) or "worker")
    except Exception:  # noqa: BLE001 - logged; the games still run
        logging.getLogger("arena.workers").exception("worker.sandbox.unreported")
    finally:
        connections.close_all()  # the pool processes forked from here open their own


@worker_process_init.connect
def _freeze_what_is_loaded(**kwargs) -> None:
    """Move everything a pool process holds at start (Django, the engine, the runner) out of
    the collector's reach: each game allocates enough to trigger full collections, which
    would walk that large, never-freed heap every time."""
    gc.freeze()


@worker_process_init.connect
def _worker_connection_settings(**kwargs) -> None:
    """Every database connection a pool process opens gets the worker's session settings."""
    from django.db.backends.signals import connection_created

    connection_created.connect(apply_worker_session_settings, dispatch_uid="arena-worker-session")


def apply_worker_session_settings(sender=None, connection=None, **kwargs) -> None:
    """On PostgreSQL, ``synchronous_commit`` as ARENA_WORKER_SYNCHRONOUS_COMMIT says (see
    arena/settings.py for what "off" risks and saves)."""
    from django.conf import settings

    if connection is None or connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('synchronous_commit', %s, false)",
            [settings.ARENA_WORKER_SYNCHRONOUS_COMMIT],
        )


@after_setup_logger.connect
@worker_init.connect
@worker_process_init.connect
def _one_line_per_event(**kwargs) -> None:
    """In a worker, Celery's root handler writes every record (with its time and process);
    the ``arena`` logger's own console handler (Django's LOGGING, for the web and commands)
    would write each event a second time. Whichever of Django and Celery set logging up
    last, by the time a task runs the arena loggers have no handler of their own."""
    arena = logging.getLogger("arena")
    for handler in list(arena.handlers):
        arena.removeHandler(handler)


@worker_init.connect
@worker_process_init.connect
def _no_health_check_per_task(**kwargs) -> None:
    """Django's CONN_HEALTH_CHECKS would send a ``SELECT 1`` before every task's first
    statement: a round trip per game. A worker's claim and store instead run once more on a
    new connection when the kept one turns out broken (``arena.games.tasks``), and Django still
    drops a connection that raised an error, before the next task."""
    from django.db import connections

    for alias in connections:
        connections.settings[alias]["CONN_HEALTH_CHECKS"] = False


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**kwargs) -> None:
    """Django's per-request rule for connections, per task: drop one that is broken or older
    than CONN_MAX_AGE, and health-check the kept one on its next use. (Celery's fix-up no
    longer closes them after every task: see CELERY_DB_REUSE_MAX.)"""
    from django.db import close_old_connections

    close_old_connections()
