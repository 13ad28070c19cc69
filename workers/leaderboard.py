"""A local round robin's leaderboard, in the standing ladders' format.

The columns and their order are the ladder page's (``platform/arena/tournaments/leaderboard.py``
and its template): rank, bot, μ − 3σ, μ, σ, games, win rate with its 95 % Wilson interval,
fault rate. Ratings are OpenSkill Plackett-Luce updated game by game exactly as the site rates
(``arena/ratings/services.py``): one-player teams, every faulted seat ranked below every clean
seat, then the game's own rank; a win is a first place.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

from engine.core.commandline import table
from engine.core.stats import wilson_interval

MODEL = PlackettLuce()


def rating_ranks(clean: list[bool], ranks: list[int]) -> list[int]:
    """The ranks the rating update uses: faulted seats after clean ones, then the game's rank;
    equal keys share a rank (the site's ``ratings.services.rating_ranks``)."""
    keys = [(not ok, rank) for ok, rank in zip(clean, ranks, strict=True)]
    ordered = sorted(keys)
    return [ordered.index(k) + 1 for k in keys]


@dataclass
class Standing:
    """One bot's rating and counts over the round robin."""

    label: str
    rating: object
    games: int = 0
    wins: int = 0
    faulted_games: int = 0

    @property
    def ordinal(self) -> float:
        return self.rating.mu - 3 * self.rating.sigma


class Leaderboard:
    """Ratings of the labels seen, updated one game at a time in the order games were played."""

    def __init__(self):
        self.standings: dict[str, Standing] = {}

    def add_game(self, labels: list[str], ranks: list[int], clean: list[bool]) -> None:
        """Rate one game: ``labels``, ``ranks`` (1 = best) and ``clean`` (no fault) by seat."""
        seats = [self.standings.setdefault(x, Standing(x, MODEL.rating(name=x))) for x in labels]
        rated = MODEL.rate([[s.rating] for s in seats], ranks=rating_ranks(clean, ranks))
        for standing, team, rank, ok in zip(seats, rated, ranks, clean, strict=True):
            standing.rating = team[0]
            standing.games += 1
            standing.wins += int(rank == 1)
            standing.faulted_games += int(not ok)

    def rows(self) -> list[Standing]:
        """Standings by μ − 3σ, best first."""
        return sorted(self.standings.values(), key=lambda s: (-s.ordinal, s.label))

    def render(self) -> str:
        """The leaderboard as a text table with the ladder page's columns."""
        header = (" #  bot", "μ − 3σ", "μ", "σ", "games", "win rate (95 % interval)", "fault rate")  # fmt: skip
        rows = []
        for rank, s in enumerate(self.rows(), start=1):
            low, high = wilson_interval(s.wins, s.games)
            rows.append(
                (
                    f"{rank:>2}  {s.label}",
                    f"{s.ordinal:.2f}",
                    f"{s.rating.mu:.2f}",
                    f"{s.rating.sigma:.2f}",
                    str(s.games),
                    f"{100 * s.wins / s.games:.0f} % ({100 * low:.0f}–{100 * high:.0f} %)",
                    f"{100 * s.faulted_games / s.games:.0f} %",
                )
            )
        return "\n".join(table(header, rows))
