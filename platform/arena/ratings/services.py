"""OpenSkill Plackett-Luce ratings per tournament, applied in game order under a row lock.

Weng & Lin (2011), "A Bayesian Approximation Method for Online Ranking", as implemented by the
``openskill`` package (>= 6.2; model ``PlackettLuce``, ``rate(teams, ranks=...)`` with one-player
teams, lower rank better, equal ranks tie). Standings show the ordinal mu - 3 sigma.
"""

from __future__ import annotations

import logging
import math

from django.db import transaction
from openskill.models import PlackettLuce

from arena.games.models import Game, GameSeat
from arena.tournaments.models import Tournament

from .models import Rating, RatingChange

log = logging.getLogger("arena.ratings")
MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def ensure_ratings(tournament: Tournament) -> None:
    """One rating row per entrant, at the model's prior."""
    prior = MODEL.rating()
    existing = set(tournament.ratings.values_list("bot_version_id", flat=True))
    Rating.objects.bulk_create(
        Rating(
            tournament=tournament,
            bot_version_id=e.bot_version_id,
            mu=prior.mu,
            sigma=prior.sigma,
            ordinal=ordinal(prior.mu, prior.sigma),
        )
        for e in tournament.entries.all()
        if e.bot_version_id not in existing
    )


def rating_ranks(seats: list[GameSeat]) -> list[int]:
    """Ranks for the rating update: every faulted seat below every clean seat, then the
    game's own rank; equal keys share a rank (competition ranking, 1 = best)."""
    keys = [(s.faulted, s.rank) for s in seats]
    ordered = sorted(keys)
    return [ordered.index(k) + 1 for k in keys]


def apply_pending_ratings(tournament_id: int, *, locked: bool = False) -> int:
    """Rate every finished game not rated yet, in game-number order, stopping at the first
    game still open, so ratings never depend on which worker finished first. Returns how many
    games were rated. Call inside a transaction; the tournament row lock serialises callers
    (``locked``: the caller holds it already)."""
    if not locked:
        Tournament.objects.select_for_update().get(pk=tournament_id)
    pending = Game.objects.filter(tournament_id=tournament_id, rated=False).order_by("number")
    done, rated = [], []
    for game_id, status in pending.values_list("id", "status"):
        if status not in Game.DONE:
            break
        done.append(game_id)
        if status == Game.Status.FINISHED:
            rated.append(_rate_game(game_id))
    if done:
        Game.objects.filter(pk__in=done).update(rated=True)
        check_invariants(tournament_id, rated)
    return len(rated)


def _rate_game(game_id: int) -> list[Rating]:
    seats = list(GameSeat.objects.filter(game_id=game_id).order_by("seat"))
    ratings = {
        r.bot_version_id: r
        for r in Rating.objects.filter(
            tournament__games__pk=game_id, bot_version_id__in=[s.bot_version_id for s in seats]
        )
    }
    teams = [
        [MODEL.rating(mu=ratings[s.bot_version_id].mu, sigma=ratings[s.bot_version_id].sigma)]
        for s in seats
    ]
    new = MODEL.rate(teams, ranks=[s.rating_rank for s in seats])
    changes = []
    for seat, (after,) in zip(seats, new, strict=True):
        rating = ratings[seat.bot_version_id]
        changes.append(
            RatingChange(
                rating=rating,
                game_id=game_id,
                mu_before=rating.mu,
                sigma_before=rating.sigma,
                mu=after.mu,
                sigma=after.sigma,
                ordinal=ordinal(after.mu, after.sigma),
            )
        )
        rating.mu, rating.sigma = after.mu, after.sigma
        rating.ordinal = ordinal(after.mu, after.sigma)
        rating.games += 1
        rating.wins += int(seat.winner)
        rating.score_total += seat.score or 0
        rating.faulted_games += int(seat.faulted)
    RatingChange.objects.bulk_create(changes)
    for rating in ratings.values():
        rating.save(
            update_fields=[
                "mu",
                "sigma",
                "ordinal",
                "games",
                "wins",
                "score_total",
                "faulted_games",
            ]
        )
    return changes


def check_invariants(tournament_id: int, batches: list[list[RatingChange]] | None = None) -> bool:
    """Ratings stay finite, each rated game changes one rating per seat, and rated games form
    a prefix in game order. With ``batches`` (the changes just made) only those are checked
    beside the prefix; without, the whole tournament. Logs at critical level when one breaks."""
    problems = []
    if batches is None:
        changes = RatingChange.objects.filter(rating__tournament_id=tournament_id)
        seats = GameSeat.objects.filter(
            game__tournament_id=tournament_id, game__rated=True, game__status=Game.Status.FINISHED
        ).count()
        if changes.count() != seats:
            problems.append(f"{changes.count()} rating changes for {seats} rated seats")
        values = Rating.objects.filter(tournament_id=tournament_id).values_list("mu", "sigma")
    else:
        values = [(c.mu, c.sigma) for batch in batches for c in batch]
        for batch in batches:
            if len({c.rating_id for c in batch}) != len(batch):
                problems.append(f"game {batch[0].game_id} changed a rating twice")
    for mu, sigma in values:
        if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
            problems.append(f"a rating is not finite: mu={mu} sigma={sigma}")
    games = Game.objects.filter(tournament_id=tournament_id)
    first_unrated = (
        games.filter(rated=False).order_by("number").values_list("number", flat=True).first()
    )
    if first_unrated is not None and games.filter(rated=True, number__gt=first_unrated).exists():
        problems.append(f"games after game {first_unrated} were rated before it")
    for problem in problems:
        log.critical(
            "ratings.invariant.broken %s", {"tournament_id": tournament_id, "problem": problem}
        )
    return not problems


def recompute_ratings(tournament_id: int) -> int:
    """Throw the tournament's ratings away and rate its games again from the prior."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        RatingChange.objects.filter(rating__tournament=tournament).delete()
        tournament.ratings.all().delete()
        Game.objects.filter(tournament=tournament).update(rated=False)
        ensure_ratings(tournament)
        return apply_pending_ratings(tournament_id)
