from django.core.management.base import BaseCommand

from arena.games.services import sweep_games


class Command(BaseCommand):
    help = (
        "Requeue games whose worker lease expired (failing them after ARENA_GAME_MAX_ATTEMPTS) "
        "and resend queued games nobody claimed: one run of the periodic sweeper."
    )

    def handle(self, *args, **options):
        counts = sweep_games()
        self.stdout.write(
            f"requeued {counts['requeued']}, failed {counts['failed']}, resent {counts['resent']}"
        )
