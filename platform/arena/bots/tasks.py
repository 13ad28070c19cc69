"""A bot version's Celery task: its validation (the upload checks passed; a smoke game in
the sandbox), leased like a game (``arena.bots.services.validate_version``)."""

from __future__ import annotations

from celery import shared_task

from arena.bots import services


@shared_task(
    name="workers.validate_bot_version",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def validate_bot_version(version_id: int) -> None:
    services.validate_version(version_id)
