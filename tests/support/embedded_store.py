"""Play and store games in-process on the embedded default database (SQLite), for
``tests/integration/platform/test_embedded_database.py``: the worker's raw SQL (claim, store,
rate, finish) must run on SQLite as well as PostgreSQL, since ``make demo`` uses it.

    python -m tests.support.embedded_store   (with ARENA_DATABASE_URL=sqlite:///...)

Prints ``ok`` after checking the standings against the stored games; raises otherwise.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    if not os.environ.get("ARENA_DATABASE_URL", "").startswith("sqlite:///"):
        raise SystemExit("set ARENA_DATABASE_URL=sqlite:///<file>")
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings"
    os.environ["ARENA_SANDBOX"] = "none"  # built-in bots only
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from arena.games import services
    from arena.games.models import AnalyticsFact, Game
    from arena.games.tasks import run_job
    from arena.tournaments import services as tournaments
    from arena.tournaments.models import Tournament
    from tests.factories import make_builtin, make_tournament, make_user
    from tests.integration.platform.tournaments import assert_standings_match_stored_games

    alice = make_user("alice")
    for title, form in (("citadels", "round_robin"), ("praga", "ladder")):
        versions = [make_builtin(alice, title=title) for _ in range(4)]
        extra = {"ladder_games": 3} if form == "ladder" else {"rounds": 1}
        tournament = make_tournament(alice, versions, title=title, seats=4, format=form, **extra)
        tournaments.start_tournament(tournament.pk)
        while game := Game.objects.filter(tournament=tournament, status="queued").first():
            job = services.claim_game(game.pk, worker="embedded")
            assert len(job.seats) == 4 and job.tournament_id == tournament.pk
            assert services.claim_game(game.pk, worker="embedded") is None  # a duplicate
            outcome = run_job(job)
            assert services.store_game_result(job, outcome) is True
            assert services.store_game_result(job, outcome) is False
        tournament = Tournament.objects.get(pk=tournament.pk)
        assert tournament.status == "finished", tournament.status
        assert_standings_match_stored_games(tournament)
    game = Game.objects.filter(tournament__title="citadels").first()
    assert game.record["title"] == "citadels" and isinstance(game.seats.first().details, dict)
    assert AnalyticsFact.objects.filter(kind="held").exists()
    assert AnalyticsFact.objects.filter(kind="configuration").count() == 3
    print("ok")


if __name__ == "__main__":
    sys.exit(main())
