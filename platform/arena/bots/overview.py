"""What My bots shows an author at a glance: each bot's place on each ladder it is on (rank,
rating, its trend, games) and its latest setbacks (games lost or faulted), newest first."""

from __future__ import annotations

from django.db.models import Q

from arena.games.models import Game, GameSeat
from arena.ratings.models import RatingChange
from arena.tournaments.leaderboard import leaderboard
from arena.tournaments.models import Entrant

# The trend is the rating now minus the rating this many of the bot's ladder games ago.
TREND_GAMES = 10
SETBACKS = 10


def ladder_places(owner) -> dict[int, list[dict]]:
    """Per bot of ``owner``: on each ladder it has an active version on, its rank of how
    many, its rating (μ − 3σ), its trend over its last TREND_GAMES games there and its games."""
    ladders = {
        e.tournament
        for e in Entrant.objects.filter(
            bot_version__bot__owner=owner, tournament__standing=True
        ).select_related("tournament")
    }
    places: dict[int, list[dict]] = {}
    for ladder in sorted(ladders, key=lambda t: t.name):
        rows = leaderboard(ladder)
        for row in rows:
            if row.bot.owner_id != owner.pk:
                continue
            latest = _latest_ordinals(row.rating)
            earlier = latest[TREND_GAMES] if len(latest) > TREND_GAMES else None
            places.setdefault(row.bot.pk, []).append(
                {
                    "ladder": ladder,
                    "rank": row.rank,
                    "of": len(rows),
                    "rating": row.rating.ordinal if row.rating else None,
                    "games": row.rating.games if row.rating else 0,
                    "trend": (latest[0] - earlier) if earlier is not None else None,
                }
            )
    return places


def _latest_ordinals(rating) -> list[float]:
    """The rating's μ − 3σ after each of its last TREND_GAMES + 1 games, newest first (the
    unique (rating, game) index read backwards: a probe, whatever the rating's history)."""
    if rating is None:
        return []
    changes = RatingChange.objects.filter(rating=rating).order_by("-game_id")
    return list(changes.values_list("ordinal", flat=True)[: TREND_GAMES + 1])


def setbacks(owner) -> list[GameSeat]:
    """The owner's bots' latest finished seats that lost (ranked below first) or faulted."""
    return list(
        GameSeat.objects.filter(bot_version__bot__owner=owner, game__status=Game.Status.FINISHED)
        .filter(Q(rank__gt=1) | ~Q(status=GameSeat.Status.OK))
        .select_related("game__tournament", "bot_version__bot")
        .order_by("-game__finished_at", "-game_id", "-seat")[:SETBACKS]
    )
