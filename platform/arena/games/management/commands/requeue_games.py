from django.core.management.base import BaseCommand

from arena.bots.services import sweep_validations
from arena.games.services import sweep_games


class Command(BaseCommand):
    help = (
        "Requeue games whose worker lease expired (failing them after ARENA_GAME_MAX_ATTEMPTS) "
        "and resend queued games nobody claimed; send scheduled games of running tournaments "
        "with room in their window (ARENA_GAMES_IN_FLIGHT); likewise bot versions whose "
        "validation was lost or never taken: one run of the periodic sweeper."
    )

    def handle(self, *args, **options):
        counts = sweep_games()
        self.stdout.write(
            f"games: requeued {counts['requeued']}, failed {counts['failed']}, "
            f"resent {counts['resent']}, sent {counts['sent']}"
        )
        counts = sweep_validations()
        self.stdout.write(
            f"validations: requeued {counts['requeued']}, rejected {counts['rejected']}, "
            f"resent {counts['resent']}"
        )
