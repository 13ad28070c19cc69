"""A tournament's standings: its ratings, best first, as plain rows that carry their
version's label, for the pages that show hundreds of them (a ladder's entrant versions)."""

from __future__ import annotations

from typing import NamedTuple

from arena.bots.models import BotVersion

from .models import Rating


class Standing(NamedTuple):
    """One rating of a tournament, with what a page shows of its version and bot."""

    bot_version_id: int
    bot_id: int
    label: str  # owner/bot vN
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    faulted_games: int
    score_total: float

    @property
    def average_score(self) -> float | None:
        return self.score_total / self.games if self.games else None


COLUMNS = (
    "bot_version_id", "bot_version__bot_id", "bot_version__bot__owner__username",
    "bot_version__bot__name", "bot_version__number", "mu", "sigma", "ordinal", "games", "wins",
    "faulted_games", "score_total",
)  # fmt: skip


def standings(tournament_id: int) -> list[Standing]:
    """The tournament's ratings, best first (ties by version), read as columns: built as
    model instances with their versions, bots and owners, a ladder's 200 took 7 of the 10 ms
    its tournament page spent reading them (bench/history.py)."""
    rows = (
        Rating.objects.filter(tournament_id=tournament_id)
        .order_by("-ordinal", "bot_version_id")
        .values_list(*COLUMNS)
    )
    return [
        Standing(version, bot, BotVersion.make_label(owner, name, number), *numbers)
        for version, bot, owner, name, number, *numbers in rows
    ]
