"""What each worker says at its start about how it confines bots, for the staff queue page."""

from __future__ import annotations

import logging

from workers.sandbox import confinement

from .models import WorkerSandbox

log = logging.getLogger("arena.workers")


def report_worker_sandbox(worker: str) -> WorkerSandbox:
    """Log and store how ``worker`` (Celery's node name) confines bots; a warning when it has
    no cgroup per sandbox (``deploy/runbook.md`` says how to give it one)."""
    mode, words = confinement()
    if mode == "none":
        log.warning("worker.sandbox.no_cgroup %s", {"worker": worker, "confinement": words})
    else:
        log.info("worker.sandbox %s", {"worker": worker, "confinement": words})
    row, _ = WorkerSandbox.objects.update_or_create(
        worker=worker[:255], defaults={"cgroup": mode, "confinement": words}
    )
    return row
