"""A small site with something on every page type, played in-process through the worker's
own path: the dashboards' history of both titles, a Citadels ladder with rated games and a
challenge, and an author (staff, so the queue shows too). ``page_types`` names one URL per
page type a person can open."""

from __future__ import annotations

from arena.bots.models import Bot
from arena.games import services as game_services
from arena.games.models import Game
from arena.games.tasks import run_job
from arena.tournaments import house_ladders, ladders
from arena.tournaments.history import OWNER, simulate
from arena.tournaments.models import Tournament
from dashboards.pages import PAGES

LADDER_GAMES = 12


def _play_queued(tournament: Tournament, most: int) -> int:
    played = 0
    while played < most:
        game = Game.objects.filter(tournament=tournament, status="queued").first()
        if game is None:
            return played
        job = game_services.claim_game(game.pk, worker="site")
        if job is None:
            continue
        outcome = run_job(job)
        played += game_services.store_game_result(job, outcome)
    return played


def build(games: int = 48) -> dict:
    """Play the site's games; returns the author and what the page types show."""
    simulate(games, seed=3, say=lambda _: None)
    author = Bot.objects.filter(owner__username=OWNER).first().owner
    author.is_staff = True
    author.set_password("a long enough passphrase 42")
    author.save()
    ladder = house_ladders.create_ladder(
        organiser=author, name="Citadels ladder, 4 players", title="citadels", players=4,
        thinking=False,
    )  # fmt: skip
    _play_queued(ladder, LADDER_GAMES)
    mine = Bot.objects.filter(owner=author, title="citadels").order_by("name")
    bot, *rivals = list(mine[:4])
    ladders.create_challenge(requester=author, ladder=ladder, bot=bot, opponents=rivals, games=2)
    _play_queued(ladder, 4)
    return {"author": author, "ladder": ladder, "bot": bot}


def page_types(site: dict) -> dict[str, str]:
    """One path per page type, by name."""
    citadels = Game.objects.filter(tournament__title="citadels", status="finished").first()
    praga = Game.objects.filter(tournament__title="praga", status="finished").first()
    tournament = Tournament.objects.filter(standing=False, status="finished").first()
    bot = site["bot"]
    paths = {
        "home": "/",
        "getting-started": "/getting-started/",
        "signup": "/signup/",
        "login": "/login/",
        "profile": "/me/",
        "password": "/password/",
        "my-bots": "/bots/",
        "bot": f"/bots/{bot.pk}/",
        "tournaments": "/tournaments/",
        "tournament-new": "/tournaments/new/",
        "tournament": f"/tournaments/{tournament.pk}/",
        "ladders": "/ladders/",
        "ladder-new": "/ladders/new/",
        "ladder": f"/ladders/{site['ladder'].pk}/",
        "game-citadels": f"/games/{citadels.pk}/",
        "game-praga": f"/games/{praga.pk}/",
        "queue": "/staff/queue/",
        "dashboards": "/dashboards/",
    }
    paths.update({f"dashboard-{name}": f"/dashboards/{name}/" for name in PAGES})
    return paths
