"""Replay stored games and report every record that does not replay to what was stored."""

from django.core.management.base import BaseCommand, CommandError

import engine
from arena.games.models import Game, with_records


class Command(BaseCommand):
    help = (
        "Replay the records of finished games through the engine and report each one that "
        "does not replay to the result sealed in it (another rules version, cut short, "
        "altered, or diverging). Exits with status 1 when any does."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, help="only this tournament's games")
        parser.add_argument(
            "--allow-version",
            action="store_true",
            help="replay records of another rules version under the current one "
            "(the actions must still be legal; the stored result is not compared)",
        )

    def handle(self, *args, tournament=None, allow_version=False, **options):
        games = Game.objects.filter(status=Game.Status.FINISHED, record__isnull=False)
        if tournament is not None:
            games = games.filter(tournament_id=tournament)
        checked, bad = 0, []
        for game in with_records(games.order_by("pk"), "number"):
            checked += 1
            problem = replay_problem(game.record, allow_version=allow_version)
            if problem:
                bad.append(
                    f"game {game.pk} (tournament {game.tournament_id}, #{game.number}): {problem}"
                )
        for line in bad:
            self.stderr.write(line)
        self.stdout.write(f"{checked} records checked, {len(bad)} do not replay as stored")
        if bad:
            raise CommandError(f"{len(bad)} of {checked} records do not replay as stored")


def replay_problem(record: dict, *, allow_version: bool = False) -> str | None:
    """Why ``record`` does not replay to what was stored, in a sentence, or None when it does."""
    try:
        title = engine.title(record.get("title", ""))
    except engine.EngineError as err:
        return f"the record names no title this engine knows ({err})"
    try:
        title.replay(record, allow_version=allow_version)
    except engine.EngineError as err:
        return str(err)
    return None
