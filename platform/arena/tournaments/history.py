"""A history of games between the built-in bots of every title, played in-process and stored
through the worker's own path (claim, the match runner with its analytics hook, the store),
so that the dashboards have full figures on a fresh machine (``simulate_history``)."""

from __future__ import annotations

import math
from collections.abc import Callable

from django.contrib.auth import get_user_model

import engine
from arena.bots import services as bot_services
from arena.bots.models import Bot, BotVersion
from arena.games import services as games
from arena.games import totals
from arena.games.models import Game
from arena.tournaments import services as tournaments
from arena.tournaments.models import Tournament

OWNER = "history"
# The leagues of each title: seats and rule options, the Dark City characters and districts
# and the Praga variants among them, so every figure has something to compare.
LEAGUES = {
    "citadels": [
        (4, {}),
        (5, {"dark_city_characters": ["witch", "tax_collector", "wizard", "abbot"],
             "dark_city_districts": ["armory", "museum", "lighthouse"], "rank9": "artist"}),
        (4, {"dark_city_characters": ["emperor", "alchemist", "navigator", "diplomat"],
             "rank9": "queen"}),
        (3, {"three_player_rule": "two_characters_each"}),
    ],
    "praga": [
        (4, {}),
        (3, {"crane_side": "B"}),
        (4, {"crane_order": "random", "kings_road_tiles": ["I", "III"]}),
        (2, {"cathedral_board": "A", "hunger_wall_board": "B"}),
    ],
}  # fmt: skip


def simulate(total: int, seed: int = 1, say: Callable[[str], None] = print) -> int:
    """Play about ``total`` games (split evenly over the titles' leagues); returns how many
    were stored. A league already played with this seed is skipped, so a second run with
    the same seed adds nothing."""
    owner, _ = get_user_model().objects.get_or_create(username=OWNER)
    leagues = [(t, seats, opts) for t in engine.titles() for seats, opts in LEAGUES.get(t, [])]
    stored = 0
    for number, (title_id, seats, options) in enumerate(leagues):
        name = f"History {engine.title(title_id).name} {seats} seats #{number + 1} (seed {seed})"
        if Tournament.objects.filter(name=name, organiser=owner).exists():
            continue
        versions = _entrants(owner, title_id, seats)
        rounds = max(1, math.ceil(total / len(leagues) / len(versions)))
        tournament = tournaments.create_tournament(
            organiser=owner,
            name=name,
            title=title_id,
            seats=seats,
            entrants=versions,
            format=Tournament.Format.ROUND_ROBIN,
            rounds=rounds,
            options=options,
            seed=seed * 1000 + number,
        )
        stored += play_tournament(tournament.pk)
        say(f"{tournament.name}: {stored} games stored so far")
    totals.fold_pending()  # the dashboards show them now, not at the beat's next fold
    return stored


def play_tournament(tournament_id: int) -> int:
    """Start a draft tournament of built-in bots and play its games here, one by one."""
    from arena.games.tasks import run_job

    tournaments.start_tournament(tournament_id)
    played = 0
    while game := Game.objects.filter(tournament_id=tournament_id, status="queued").first():
        job = games.claim_game(game.pk, worker="simulate_history")
        if job is None:  # a running worker took it first
            continue
        outcome = run_job(job)
        played += games.store_game_result(job, outcome)
    return played


def _entrants(owner, title_id: str, seats: int) -> list[BotVersion]:
    """One version of each built-in bot, and copies until the table is full."""
    names = engine.bots(title_id, thinking=False)  # search bots would make it slow
    count = max(seats, len(names))
    return [_builtin(owner, title_id, names[i % len(names)], i // len(names)) for i in range(count)]


def _builtin(owner, title_id: str, builtin: str, copy: int) -> BotVersion:
    name = builtin if copy == 0 else f"{builtin}-{copy + 1}"
    bot, _ = Bot.objects.get_or_create(
        owner=owner, title=title_id, name=name,
        defaults={"description": f"the engine's built-in {builtin} bot"},
    )  # fmt: skip
    version = bot.versions.filter(kind=BotVersion.Kind.BUILTIN, builtin_name=builtin).first()
    return version or bot_services.add_builtin_version(bot=bot, builtin_name=builtin)
