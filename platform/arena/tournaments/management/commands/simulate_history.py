"""Fill the database with games between the built-in bots, for full dashboards."""

from django.core.management.base import BaseCommand, CommandError

from arena.tournaments.history import simulate


class Command(BaseCommand):
    help = (
        "Play about --games games between the built-in bots of every title, in-process, and "
        "store them through the worker's path (analytics included)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, games, seed, **options):
        if games < 1:
            raise CommandError("--games must be at least 1")
        stored = simulate(games, seed, say=self.stdout.write)
        self.stdout.write(self.style.SUCCESS(f"{stored} games stored."))
