"""What the page cache's scopes are made of (``arena.pagecache``): the bot of a version and
the tournament of a rating, for the keys, and what a write changes, for the bumps (the
store's and the ratings' SQL writes call :func:`rated`, every ORM save or delete of a shown
model bumps through signals, :func:`connect`)."""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from arena import pagecache
from arena.pagecache import ALL

# A bot version's bot, and a rating's tournament, never change: looked up once per process.
_bot_of_version: dict[int, int] = {}
_tournament_of_rating: dict[int, int] = {}


def changed(
    *, tournaments: Iterable[int] = (), bots: Iterable[int] = (), versions: Iterable[int] = ()
) -> None:
    """``arena.pagecache.changed``, with bot versions standing for their bots."""
    if not settings.ARENA_PAGE_CACHE:
        return
    pagecache.changed(tournaments=tournaments, bots={*bots, *bots_of(versions)})


def bots_of(versions: Iterable[int]) -> set[int]:
    """The bots of these bot versions."""
    from arena.bots.models import BotVersion

    versions = {v for v in versions if v}
    if not versions:
        return set()
    missing = versions - _bot_of_version.keys()
    if missing:
        _bot_of_version.update(
            BotVersion.objects.filter(pk__in=missing).values_list("pk", "bot_id")
        )
    return {_bot_of_version[v] for v in versions if v in _bot_of_version}


def bot_of_version(version: str | None) -> str:
    """The scope of the bot of version ``version`` (a query parameter): ``all`` when it is
    not a known version's id."""
    if version is None or not version.isdigit() or len(version) > 18:
        return ALL
    bots = bots_of([int(version)])
    return f"b{bots.pop()}" if bots else ALL


def tournament_of_rating(rating: str | None) -> str:
    """The scope of rating ``rating``'s tournament (``all`` when it is none)."""
    from arena.ratings.models import Rating

    if rating is None or not rating.isdigit() or len(rating) > 18:
        return ALL
    pk = int(rating)
    if pk not in _tournament_of_rating:
        found = Rating.objects.filter(pk=pk).values_list("tournament_id", flat=True).first()
        if found is None:
            return ALL
        _tournament_of_rating[pk] = found
    return f"t{_tournament_of_rating[pk]}"


def rated(tournament_id: int, pending, versions: Iterable[int] = ()) -> None:
    """A store or a rating batch changed a tournament: its games, and the ratings of the
    versions ``pending`` (``arena.ratings.services.Pending``) rated, which a game stored out
    of order may have held back; ``versions``: the stored game's own seats."""
    rated_versions = [s.bot_version_id for _, seats in pending.games for s in seats]
    changed(tournaments=(tournament_id,), versions=(*versions, *rated_versions))


def _on_save(sender, instance, **kwargs) -> None:
    """An ORM save or delete of a model a page shows: its tournament and bot change."""
    if not settings.ARENA_PAGE_CACHE:
        return
    tournaments, bots, versions = [], [], []
    name = sender.__name__
    if name == "Tournament":
        tournaments.append(instance.pk)
    elif name == "Bot":
        bots.append(instance.pk)
    elif name == "BotVersion":
        bots.append(instance.bot_id)
    else:  # Game, GameSeat, Rating, Entrant, Challenge
        tournaments.append(getattr(instance, "tournament_id", None))
        versions.append(getattr(instance, "bot_version_id", None))
        if name == "GameSeat":
            tournaments.append(_tournament_of_game(instance.game_id))
    changed(tournaments=tournaments, bots=bots, versions=versions)


def _tournament_of_game(game_id: int) -> int | None:
    from arena.games.models import Game

    return Game.objects.filter(pk=game_id).values_list("tournament_id", flat=True).first()


def connect() -> None:
    """Bump on every ORM save and delete of what the cached reads show (the SQL writes of the
    store and the transitions call :func:`changed` themselves)."""
    from django.db.models.signals import post_delete, post_save

    from arena.bots.models import Bot, BotVersion
    from arena.games.models import Game, GameSeat
    from arena.ratings.models import Rating
    from arena.tournaments.models import Challenge, Entrant, Tournament

    for model in (Tournament, Bot, BotVersion, Game, GameSeat, Rating, Entrant, Challenge):
        post_save.connect(_on_save, sender=model, dispatch_uid=f"pagecache-{model.__name__}")
        post_delete.connect(_on_save, sender=model, dispatch_uid=f"pagecache-d-{model.__name__}")
