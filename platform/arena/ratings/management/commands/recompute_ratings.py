from django.core.management.base import BaseCommand, CommandError

from arena.ratings.services import check_invariants, recompute_ratings
from arena.tournaments.models import Tournament


class Command(BaseCommand):
    help = "Rate a tournament's finished games again, in game order, from the prior."

    def add_arguments(self, parser):
        parser.add_argument("tournament_ids", nargs="+", type=int)

    def handle(self, *args, tournament_ids, **options):
        for tournament_id in tournament_ids:
            if not Tournament.objects.filter(pk=tournament_id).exists():
                raise CommandError(f"There is no tournament {tournament_id}.")
            rated = recompute_ratings(tournament_id)
            ok = "ok" if check_invariants(tournament_id) else "INVARIANTS BROKEN (see log)"
            self.stdout.write(f"tournament {tournament_id}: {rated} games rated; {ok}")
