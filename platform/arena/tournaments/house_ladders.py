"""The house's standing ladders: the default ladder of each title and player count
(``manage.py ensure_ladders``), entered by the house bots (the engine's built-in bots, owned
by ARENA_HOUSE_USERNAME) as yardsticks and by every bot's newest ready version. What a ladder
does once it runs is ``ladders``. See docs/ladders.md."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

import engine
from arena.bots.models import Bot, BotVersion
from arena.bots.services import add_builtin_version

from . import services
from .models import Tournament

log = logging.getLogger("arena.ladders")


def ladder_players(title_id: str) -> range:
    """The player counts a title has standing ladders for (two players at least)."""
    title = engine.title(title_id)
    return range(max(2, title.min_players), title.max_players + 1)


def default_name(title_id: str, players: int) -> str:
    return f"{engine.title(title_id).name} {players}-player ladder"


def house_user():
    user, _ = get_user_model().objects.get_or_create(username=settings.ARENA_HOUSE_USERNAME)
    return user


def house_versions(title_id: str, players: int, *, thinking: bool = True) -> list[BotVersion]:
    """The title's built-in bots as the house's versions, with numbered copies (``random-2``)
    until a table can be filled; ``thinking=False`` leaves out the search bots (about 1 s a
    decision), for a one-worker demo."""
    owner = house_user()
    builtins = engine.bots(title_id, thinking=thinking)
    names = [(name, name) for name in builtins]
    copy = 2
    while len(names) < players:
        name = builtins[len(names) % len(builtins)]
        names.append((f"{name}-{copy}", name))
        copy += 1
    versions = []
    for label, builtin in names:
        bot, _ = Bot.objects.get_or_create(
            owner=owner, title=title_id, name=label,
            defaults={"description": f"the engine's built-in {builtin} bot (a house bot)"},
        )  # fmt: skip
        version = bot.versions.filter(kind=BotVersion.Kind.BUILTIN, builtin_name=builtin).first()
        versions.append(version or add_builtin_version(bot=bot, builtin_name=builtin))
    return versions


def newest_ready_versions(title_id: str) -> list[BotVersion]:
    """Each bot's newest ready version on the title (a bot whose newest version was withdrawn
    has none), the house's excepted."""
    newest = {}
    versions = BotVersion.objects.filter(bot__title=title_id).exclude(
        bot__owner__username=settings.ARENA_HOUSE_USERNAME
    )
    for version in versions.select_related("bot").order_by("bot_id", "-number"):
        if version.bot_id in newest or version.status not in (
            BotVersion.Status.READY,
            BotVersion.Status.WITHDRAWN,
        ):
            continue
        newest[version.bot_id] = version
    return [v for v in newest.values() if v.status == BotVersion.Status.READY]


def create_ladder(
    *,
    organiser,
    name: str,
    title: str,
    players: int,
    options: dict | None = None,
    thinking: bool = True,
    **limits,
) -> Tournament:
    """A running standing ladder with the house bots and every bot's newest ready version.
    TournamentError / engine.ConfigError say what is wrong."""
    entrants = house_versions(title, players, thinking=thinking) + newest_ready_versions(title)
    with transaction.atomic():
        ladder = services.create_tournament(
            organiser=organiser, name=name, title=title, seats=players, entrants=entrants,
            options=options, standing=True, **limits,
        )  # fmt: skip
        services.start_tournament(ladder.pk)
    ladder.refresh_from_db()
    log.info("ladder.created %s", {"tournament_id": ladder.pk, "title": title})
    return ladder


def ensure_standing_ladders(titles=None, players=None, *, thinking=True) -> list[Tournament]:
    """The default ladder of each title and player count (``players``: only these counts),
    created when missing; safe to run again. ``thinking``: as for :func:`house_versions`."""
    made = []
    for title_id in titles or engine.titles():
        for n in ladder_players(title_id):
            if players and n not in players:
                continue
            name = default_name(title_id, n)
            found = Tournament.objects.filter(standing=True, title=title_id, seats=n, name=name)
            made.append(
                found.first()
                or create_ladder(
                    organiser=house_user(), name=name, title=title_id, players=n, thinking=thinking
                )
            )
    return made
