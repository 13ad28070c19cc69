"""A bot version's Celery task: its validation (the upload checks passed; a smoke game in
the sandbox), leased like a game (``arena.bots.services.validate_version``); a version that
passes joins the standing ladders (``arena.tournaments.ladders.join_ladders``)."""

from __future__ import annotations

from celery import shared_task
from django.db import connection

from arena.bots import services
from arena.bots.models import BotVersion
from arena.tournaments.ladders import join_ladders


@shared_task(
    name="workers.validate_bot_version",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def validate_bot_version(version_id: int) -> None:
    # Workers skip Django's health check before each task (a round trip per game,
    # arena/worker.py); a validation is one an upload, so it checks the kept connection
    # itself: one PostgreSQL dropped since the last task (a restart, a terminated backend)
    # failed the validation and left the version pending until the sweep.
    if connection.connection is not None and not connection.is_usable():
        connection.close()
    version = services.validate_version(version_id)
    if version is not None and version.status == BotVersion.Status.READY:
        join_ladders(version)  # takes over from the bot's previous version
