"""What a standing ladder shows: its leaderboard (one row per bot on it, its current version)
and the versions no longer playing. Each bot's rating history is read by
``arena.ratings.lines``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, Subquery

from arena.ratings.models import Rating, RatingChange
from arena.web.text import url_former, when
from engine.core.stats import wilson_interval

from .models import Entrant, Tournament

# Rows the leaderboard shows: bots playing, and suspended ones (flagged).
SHOWN = (Entrant.Status.ACTIVE, Entrant.Status.SUSPENDED)


@dataclass(frozen=True)
class Row:
    """A leaderboard row: the bot's current version on the ladder and its ladder rating."""

    rank: int
    entrant: Entrant
    rating: Rating
    win_rate: float | None
    win_interval: tuple[float, float] | None
    fault_rate: float | None
    last_game: datetime | None

    @property
    def version(self):
        return self.entrant.bot_version

    @property
    def bot(self):
        return self.entrant.bot_version.bot

    @property
    def status(self) -> str:
        return self.entrant.status


def leaderboard(ladder: Tournament) -> list[Row]:
    """Bots on the ladder by μ − 3σ of their current version (suspended ones included, last
    among equals), with win rate and its 95 % Wilson interval, fault rate and last game."""
    entrants = list(
        ladder.entries.filter(status__in=SHOWN).select_related("bot_version__bot__owner")
    )
    versions = [e.bot_version_id for e in entrants]
    # The finish of each version's last rated game: one probe of the rating's changes by
    # (rating, game) per row, not a scan of every game its seats played.
    last_game = RatingChange.objects.filter(rating=OuterRef("pk")).order_by("-game_id")
    ratings = {
        r.bot_version_id: r
        for r in Rating.objects.filter(tournament=ladder, bot_version__in=versions).annotate(
            last_at=Subquery(last_game.values("game__finished_at")[:1])
        )
    }
    entrants.sort(key=lambda e: (-ratings[e.bot_version_id].ordinal, e.status, e.pk))
    rows = []
    for rank, entry in enumerate(entrants, start=1):
        rating = ratings[entry.bot_version_id]
        n = rating.games
        rows.append(
            Row(
                rank=rank,
                entrant=entry,
                rating=rating,
                win_rate=rating.wins / n if n else None,
                win_interval=wilson_interval(rating.wins, n) if n else None,
                fault_rate=rating.faulted_games / n if n else None,
                last_game=rating.last_at,
            )
        )
    return rows


def past_versions(ladder: Tournament) -> list[dict]:
    """Entrants no longer playing (replaced, withdrawn), newest first: their history stays.
    Each as the page's cells (text): a ladder keeps every version it has had, hundreds of
    rows read as columns, not as entrants, versions, bots and owners."""
    bot_url = url_former("bot")
    statuses = dict(Entrant.Status.choices)
    rows = (
        ladder.entries.exclude(status__in=SHOWN)
        .order_by("-left_at", "-id")
        .values_list(
            "bot_version__bot_id",
            "bot_version__bot__owner__username",
            "bot_version__bot__name",
            "bot_version__number",
            "status",
            "left_at",
        )  # fmt: skip
    )
    return [
        {"url": bot_url(bot), "bot": f"{owner}/{name}", "version": f"v{number}",
         "status": statuses[status], "left": when(left_at)}
        for bot, owner, name, number, status, left_at in rows
    ]  # fmt: skip
