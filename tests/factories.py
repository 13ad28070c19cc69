"""Test data for the platform: small functions, one per thing, with sensible defaults."""

from __future__ import annotations

import io
import json
import zipfile

from django.contrib.auth import get_user_model

from arena.bots import services as bot_services
from arena.bots.models import Bot, BotVersion
from arena.tournaments import services as tournament_services

PASSWORD = "correct horse battery staple"

RANDOM_BOT_SOURCE = '''"""A protocol bot that always takes the first option."""
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "ready", "name": "first"}), flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"type": "act", "id": message["id"], "choice": 0}), flush=True)
    elif message["type"] == "end":
        break
'''


def make_user(username: str, *, staff: bool = False):
    return get_user_model().objects.create_user(
        username=username, password=PASSWORD, is_staff=staff
    )


def make_bot(owner, *, title: str = "toy", name: str = "bot") -> Bot:
    return Bot.objects.create(owner=owner, title=title, name=name)


def make_builtin(owner, *, title: str = "toy", name: str | None = None, builtin: str = "random"):
    bot = make_bot(owner, title=title, name=name or f"{builtin}-{Bot.objects.count() + 1}")
    return bot_services.add_builtin_version(bot=bot, builtin_name=builtin)


def make_ready_upload(
    owner, *, title: str = "toy", name: str = "uploaded", source: str = RANDOM_BOT_SOURCE
) -> BotVersion:
    """An uploaded version marked ready without a worker (for tests not about validation)."""
    bot = make_bot(owner, title=title, name=name)
    version = bot_services.upload_version(
        bot=bot, filename="bot.py", data=source.encode() + f"\n# {name}\n".encode()
    )
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.READY)
    version.refresh_from_db()
    return version


def make_tournament(organiser, entrants, *, title: str = "toy", seats: int = 2, **kwargs):
    return tournament_services.create_tournament(
        organiser=organiser,
        name=kwargs.pop("name", "Test cup"),
        title=title,
        seats=seats,
        entrants=list(entrants),
        decision_ms=kwargs.pop("decision_ms", 2000),
        bank_ms=kwargs.pop("bank_ms", 5000),
        **kwargs,
    )


def zip_bytes(files: dict[str, bytes | str], *, manifest: dict | None = None) -> bytes:
    """A zip of ``files`` (name -> content), with ``bot.json`` from ``manifest`` if given."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if manifest is not None:
            archive.writestr("bot.json", json.dumps(manifest))
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def play_in_process(tournament, *, stderr: list[str] | None = None):
    """Start ``tournament`` and play each of its games in this process (no workers), storing
    ``stderr`` as the seats' logs; returns the tournament refreshed."""
    from arena.games import services as game_services
    from arena.games.models import Game
    from arena.games.tasks import run_job

    tournament_services.start_tournament(tournament.pk)
    for game in Game.objects.filter(tournament=tournament).order_by("number"):
        job = game_services.claim_game(game.pk, worker="w")
        outcome = run_job(job)
        if stderr is not None:
            outcome.stderr = list(stderr)
        game_services.store_game_result(job, outcome)
    tournament.refresh_from_db()
    return tournament
