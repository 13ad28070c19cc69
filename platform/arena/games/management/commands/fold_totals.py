"""Fold every pending game into the dashboards' totals now, rather than at the beat's next fold."""

from django.core.management.base import BaseCommand, CommandError

from arena.games import totals


class Command(BaseCommand):
    help = (
        "Fold every stored game not folded yet (and every rating change) into the "
        "dashboards' totals, a batch of games per transaction. Run it after a migration "
        "that rebuilds the totals, rather than wait for the beat (workers.fold_totals) to."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch", type=int, default=totals.FOLD_BATCH, help="games per transaction"
        )

    def handle(self, *args, batch: int, **options):
        if batch < 1:
            raise CommandError("--batch must be at least 1")
        folded = totals.fold_pending(batch)
        self.stdout.write(f"folded {folded} games")
