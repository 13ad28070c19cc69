"""Create the standing ladder of each title and player count that has none (safe to rerun)."""

from django.core.management.base import BaseCommand

from arena.tournaments import house_ladders


class Command(BaseCommand):
    help = (
        "Create the default standing ladder of each title and player count (house bots and "
        "every bot's newest ready version on it) where there is none yet."
    )

    def add_arguments(self, parser):
        parser.add_argument("--title", action="append", help="only this title (repeatable)")
        parser.add_argument(
            "--players", type=int, action="append", help="only this player count (repeatable)"
        )

    def handle(self, *args, title, players, **options):
        for ladder in house_ladders.ensure_standing_ladders(titles=title, players=players):
            self.stdout.write(f"{ladder.name}: /ladders/{ladder.pk}/ ({ladder.status})")
