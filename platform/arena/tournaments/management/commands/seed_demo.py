"""Demo data: players, the built-in bots and starter kits as bot versions, a tournament per
title, and a standing ladder per title."""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

import engine
from arena.bots import services as bot_services
from arena.bots.artifacts import UploadRefused
from arena.bots.models import Bot, BotVersion
from arena.tournaments import house_ladders, ladders
from arena.tournaments import services as tournament_services
from arena.tournaments.history import simulate
from arena.tournaments.models import Tournament
from arena.web.kits import find_kit, kit_zip

DEMO_PASSWORD = "meeple-demo"
STARTER_KITS = Path(settings.BASE_DIR) / "starter-kits"
SEATS = {"citadels": 4, "praga": 4}
DEMO_HISTORY_GAMES = 96  # played in-process by the built-in bots (arena.tournaments.history)


class Command(BaseCommand):
    help = (
        "Create demo players (demo and admin, password meeple-demo), upload the built-in "
        "bots and the starter kits as bot versions, create one draft tournament per title "
        "and a running standing ladder per title at its demo table size. "
        "Safe to run twice."
    )

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument(
            "--no-validate",
            action="store_true",
            help="leave starter kits pending for a worker instead of validating them now",
        )

    def handle(self, *args, rounds, no_validate, **options):
        users = get_user_model().objects
        house = self._user("arena", staff=False)
        demo = self._user("demo", staff=False)
        if not users.filter(username="admin").exists():
            users.create_superuser("admin", password=DEMO_PASSWORD)
        for title_id in engine.titles():
            quick = engine.bots(title_id, thinking=False)  # a search bot would slow the demo
            versions = [self._builtin(house, title_id, name) for name in quick]
            kit = self._starter_kit(demo, title_id, validate=not no_validate)
            if kit is not None and kit.status == BotVersion.Status.READY:
                versions.append(kit)
            seats = min(SEATS.get(title_id, 4), engine.title(title_id).max_players)
            seats = max(seats, engine.title(title_id).min_players)
            copy = 2
            while len(versions) < seats:  # too few bots: seat more copies of the built-ins
                name = quick[len(versions) % len(quick)]
                versions.append(self._builtin(house, title_id, name, label=f"{name}-{copy}"))
                copy += 1
            self._tournament(demo, title_id, seats, versions, rounds)
        # The standing ladders at the demo's table size only (one per title and player count
        # is `manage.py ensure_ladders`): each keeps ARENA_LADDER_IN_FLIGHT games going.
        for title_id in engine.titles():
            seats = max(min(SEATS.get(title_id, 4), engine.title(title_id).max_players), 2)
            # Without the search bots: at about 1 s a decision they would keep the demo's
            # one worker from its leagues.
            made = house_ladders.ensure_standing_ladders(
                titles=[title_id], players=[seats], thinking=False
            )
            for ladder in made:
                self.stdout.write(f"{title_id}: standing ladder {ladder.name!r} is running")
        simulate(DEMO_HISTORY_GAMES, say=self.stdout.write)  # full dashboards from the start
        self.stdout.write(self.style.SUCCESS("Demo data ready."))

    def _user(self, username, *, staff):
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"is_staff": staff}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        return user

    def _builtin(self, owner, title_id, builtin, label=None):
        bot, _ = Bot.objects.get_or_create(
            owner=owner,
            title=title_id,
            name=label or builtin,
            defaults={"description": f"the engine's built-in {builtin} bot"},
        )
        version = bot.versions.filter(kind=BotVersion.Kind.BUILTIN, builtin_name=builtin).first()
        return version or bot_services.add_builtin_version(bot=bot, builtin_name=builtin)

    def _starter_kit(self, owner, title_id, *, validate):
        folder = STARTER_KITS / f"{title_id}-python"
        if not (folder / "bot.json").exists():
            self.stdout.write(f"{title_id}: no starter kit at {folder}; built-in bots only.")
            return None
        bot, _ = Bot.objects.get_or_create(
            owner=owner, title=title_id, name="starter-kit",
            defaults={"description": f"the {title_id} Python starter kit, as shipped"},
        )  # fmt: skip
        data = kit_zip(find_kit(folder.name))  # exactly what the Getting started page offers
        try:
            version = bot_services.upload_version(bot=bot, filename="starter-kit.zip", data=data)
        except UploadRefused:
            version = bot.versions.order_by("-number").first()
        if validate and version.status == BotVersion.Status.PENDING:
            validated = bot_services.validate_version(version.pk)  # as a worker's task does
            if validated is not None and validated.status == BotVersion.Status.READY:
                ladders.join_ladders(validated)
            version.refresh_from_db()
        self.stdout.write(f"{title_id}: starter kit v{version.number} is {version.status}")
        return version

    def _tournament(self, organiser, title_id, seats, versions, rounds):
        name = f"Demo {engine.title(title_id).name} league"
        if Tournament.objects.filter(name=name, organiser=organiser).exists():
            return
        tournament_services.create_tournament(
            organiser=organiser,
            name=name,
            title=title_id,
            seats=seats,
            entrants=versions,
            format=Tournament.Format.ROUND_ROBIN,
            rounds=rounds,
            seed=2026,
        )
        self.stdout.write(f"{title_id}: created {name!r} with {len(versions)} entrants")
