""" "Did my change help?": on each ladder where a bot has rated games with two versions, its
newest version beside the one before it: ratings with their μ ± 3σ range, win rates with
Wilson intervals, and how often the new one finished above the old where they met."""

from __future__ import annotations

from django.db.models import Max, Min

from arena.games.models import GameSeat
from arena.ratings.models import Rating
from engine.core.stats import wilson_interval

# Games the owner's "new against previous" challenge asks for unless told otherwise.
VERSUS_PREVIOUS_GAMES = 10


def _side(rating: Rating, which: str) -> dict:
    low, high = wilson_interval(rating.wins, rating.games)
    return {
        "which": which,
        "version": rating.bot_version,
        "rating": rating,
        "range": (rating.mu - 3 * rating.sigma, rating.mu + 3 * rating.sigma),
        "win_rate": rating.wins / rating.games if rating.games else None,
        "win_interval": (low, high),
    }


def _games_span(version) -> tuple[int | None, int | None]:
    """The first and last game a version sat in (two probes of the seats' (version, game)
    index)."""
    span = GameSeat.objects.filter(bot_version=version).aggregate(Min("game_id"), Max("game_id"))
    return span["game_id__min"], span["game_id__max"]


def head_to_head(ladder_id: int, new, old) -> dict:
    """The games of the ladder in which both versions sat: new above, level, below. Only the
    seats of the games between the later first game and the earlier last game of the two
    are read: a version replaced by the next plays on only while they are compared, so
    this is what they played together, not every game of both (which grew with the
    history: tens of thousands of seats at a million games)."""
    (new_first, new_last), (old_first, old_last) = _games_span(new), _games_span(old)
    if None in (new_first, old_first):
        low, high = 0, -1  # one of them never sat: they never met
    else:
        low, high = max(new_first, old_first), min(new_last, old_last)
    seats = (
        GameSeat.objects.filter(
            game__tournament_id=ladder_id,
            game__status="finished",
            bot_version__in=[new, old],
            game_id__gte=low,
            game_id__lte=high,
        )
        .order_by()  # any order: the seats are grouped by game below
        .values_list("game_id", "bot_version_id", "rank")
    )
    ranks: dict[int, dict[int, int]] = {}
    for game, version, rank in seats:
        ranks.setdefault(game, {})[version] = rank
    met = [r for r in ranks.values() if len(r) == 2]
    above = sum(r[new.pk] < r[old.pk] for r in met)
    level = sum(r[new.pk] == r[old.pk] for r in met)
    share = above + level / 2
    low, high = wilson_interval(share, len(met))
    return {"games": len(met), "above": above, "level": level,
            "rate": share / len(met) if met else None, "interval": (low, high)}  # fmt: skip


def version_comparisons(bot) -> list[dict]:
    """Per ladder with rated games of at least two of the bot's versions: the newest and
    the one before it."""
    ratings = (
        Rating.objects.filter(bot_version__bot=bot, tournament__standing=True, games__gt=0)
        .select_related("tournament", "bot_version")
        .order_by("tournament_id", "-bot_version__number")
    )
    by_ladder: dict[int, list[Rating]] = {}
    for rating in ratings:
        by_ladder.setdefault(rating.tournament_id, []).append(rating)
    comparisons = []
    for ladder_id, found in by_ladder.items():
        if len(found) < 2:
            continue
        new, old = found[0], found[1]
        comparisons.append(
            {
                "ladder": new.tournament,
                "new": new,
                "old": old,
                "sides": [_side(new, "new"), _side(old, "before")],
                "met": head_to_head(ladder_id, new.bot_version, old.bot_version),
            }
        )
    return comparisons
