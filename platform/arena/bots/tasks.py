"""A bot version's Celery task: its validation (the upload checks passed; a smoke game in
the sandbox), leased like a game (``arena.bots.services.validate_version``); a version that
passes joins the standing ladders (``arena.tournaments.ladders.join_ladders``)."""

from __future__ import annotations

from celery import shared_task

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
    version = services.validate_version(version_id)
    if version is not None and version.status == BotVersion.Status.READY:
        join_ladders(version)  # takes over from the bot's previous version
