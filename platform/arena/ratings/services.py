"""OpenSkill Plackett-Luce ratings per tournament, applied in game order under a row lock.

Weng & Lin (2011), "A Bayesian Approximation Method for Online Ranking", as implemented by the
``openskill`` package (>= 6.2; model ``PlackettLuce``, ``rate(teams, ranks=...)`` with one-player
teams, lower rank better, equal ranks tie). Standings show the ordinal mu - 3 sigma.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction
from openskill.models import PlackettLuce

from arena.games.models import Game, GameSeat
from arena.sql import cursor, insert_rows, where_in
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


def rating_ranks(seats) -> list[int]:
    """Ranks for the rating update: every faulted seat below every clean seat, then the
    game's own rank; equal keys share a rank (competition ranking, 1 = best). ``seats``:
    anything with a seat's ``status`` and ``rank``."""
    keys = [(s.status != GameSeat.Status.OK, s.rank) for s in seats]
    ordered = sorted(keys)
    return [ordered.index(k) + 1 for k in keys]


class Pending(NamedTuple):
    """What :func:`apply_pending_ratings` did, and saw."""

    rated: int  # games rated now
    open_game: bool  # the tournament has a game not done yet (it cannot be finished)
    changes: tuple[list[Change], ...] = ()  # per game rated now, its history rows
    rated_after: int | None = None  # a rated game after an unrated one, as read (a bug)


def apply_pending_ratings(tournament_id: int, *, locked: bool = False) -> Pending:
    """Rate every finished game not rated yet, in game-number order, stopping at the first
    game still open, so ratings never depend on which worker finished first. Call inside a
    transaction; the tournament row lock serialises callers (``locked``: the caller holds it
    already).

    A batch of any length costs the same few statements (raw SQL, since every stored game
    runs them: see ``arena.sql``): the ratable read (:func:`read_ratable`, which also checks
    that rated games form a prefix) and the writes of :func:`rate_ratable`. A worker storing
    a game sends them in its own round trips instead
    (``arena.games.services.store_game_result``)."""
    if not locked:
        Tournament.objects.select_for_update().get(pk=tournament_id)
    with cursor() as read, cursor() as write:
        read_ratable(read, tournament_id)
        pending = rate_ratable(read.fetchall(), tournament_id, write)
    report_invariants(tournament_id, pending.changes, pending.rated_after)
    return pending


def read_ratable(cursor, tournament_id: int) -> None:
    """Send the ratable read (see RATABLE_SQL); its rows go to :func:`rate_ratable`."""
    cursor.execute(RATABLE_SQL, [tournament_id] * 3)


def rate_ratable(rows, tournament_id: int, cursor) -> Pending:
    """Rate the games of the ratable read's rows, and send the writes (history rows, the
    ratings' new values, the games marked rated) on ``cursor`` without reading anything back,
    so a pipeline sends them together."""
    games, ratings, open_game = _ratable_games(rows, tournament_id)
    rated_after = rows[0][1]
    if not games:
        return Pending(0, open_game, rated_after=rated_after)
    rated = [
        _rate_game(game_id, seats, ratings)
        for game_id, (status, seats) in games.items()
        if status == Game.Status.FINISHED
    ]
    if rated:
        insert_rows(cursor, RatingChange, CHANGE_COLUMNS, [c for batch in rated for c in batch])
        insert_rows(
            cursor,
            Rating,
            RATING_COLUMNS,
            [_rating_row(r) for r in ratings.values()],
            RATINGS_TAIL,
        )
    where_in(cursor, "UPDATE games_game SET rated = %s WHERE", "id", list(games), [True])
    return Pending(len(rated), open_game, tuple(rated), rated_after)


RATING_FIELDS = ["mu", "sigma", "ordinal", "games", "wins", "score_total", "faulted_games"]
RATING_COLUMNS = ["id", "tournament_id", "bot_version_id", *RATING_FIELDS]
CHANGE_COLUMNS = ["rating_id", "game_id", "mu_before", "sigma_before", "mu", "sigma", "ordinal"]
# The rating rows exist (made when the tournament starts); one upsert rewrites them all.
RATINGS_TAIL = " ON CONFLICT (id) DO UPDATE SET " + ", ".join(
    f"{f} = excluded.{f}" for f in RATING_FIELDS
)

# The tournament's first open game and the rated-prefix check (a rated game after the first
# unrated one: a bug), then the unrated games before the first open one in game order, their
# seats in seat order, each with its rating row; later games are not read. Always one row at
# least: without a ratable game, the first two columns alone. The first open game is found
# walking the (tournament, rated, number) index from the lowest unrated number, past the few
# finished games waiting for it, so a store costs the same in a tournament of 100 games or
# of 100,000 (an aggregate over every unrated game took 3.3 ms at 5,000).
RATABLE_SQL = """
    SELECT o.number, o.rated_after, g.id, g.status, s.bot_version_id, s.rating_rank,
           s.winner, s.score, s.status, r.id, r.mu, r.sigma, r.ordinal, r.games, r.wins,
           r.score_total, r.faulted_games
    FROM (SELECT f.number,
                 (SELECT min(a.number) FROM games_game a
                  WHERE a.tournament_id = %s AND a.rated AND a.number > f.number)
                     AS rated_after
          FROM (SELECT (SELECT u.number FROM games_game u
                        WHERE u.tournament_id = %s AND NOT u.rated
                          AND u.status NOT IN ('finished', 'failed', 'void')
                        ORDER BY u.number LIMIT 1) AS number) f) o
    LEFT JOIN games_game g
        ON g.tournament_id = %s AND NOT g.rated AND g.number < COALESCE(o.number, 2147483647)
    LEFT JOIN games_gameseat s ON s.game_id = g.id
    LEFT JOIN ratings_rating r
        ON r.tournament_id = g.tournament_id AND r.bot_version_id = s.bot_version_id
    ORDER BY g.number, s.seat
"""


class RatedSeat(NamedTuple):
    """A seat of a ratable game, as the ratable read gives it."""

    bot_version_id: int
    rating_rank: int
    winner: bool
    score: int | None
    status: str


@dataclass(slots=True)
class RatingRow:
    """A rating row being updated (plain values: every stored game builds a few)."""

    id: int
    tournament_id: int
    bot_version_id: int
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    score_total: int
    faulted_games: int


class Change(NamedTuple):
    """A history row (RatingChange) about to be written."""

    rating_id: int
    game_id: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    ordinal: float


def _ratable_games(rows, tournament_id: int):
    """{game id: (status, seats)} for the ratable prefix, {bot version id: RatingRow}, and
    whether the tournament has an open game."""
    games: dict[int, tuple[str, list[RatedSeat]]] = {}
    ratings: dict[int, RatingRow] = {}
    for _, _, game_id, game_status, version, rating_rank, winner, score, status, *rating in rows:
        if game_id is None:
            break  # no ratable game
        seat = RatedSeat(version, rating_rank, bool(winner), score, status)
        games.setdefault(game_id, (game_status, []))[1].append(seat)
        if rating[0] is None:
            raise Rating.DoesNotExist(f"bot version {version} has no rating in {tournament_id}")
        if version not in ratings:
            ratings[version] = RatingRow(rating[0], tournament_id, version, *rating[1:])
    return games, ratings, rows[0][0] is not None


def _rating_row(rating: RatingRow) -> list:
    return [getattr(rating, c) for c in RATING_COLUMNS]


def _rate_game(game_id: int, seats: list[RatedSeat], ratings: dict[int, RatingRow]) -> list:
    """One game's rating update on ``ratings`` (changed in place); its history rows."""
    teams = [
        [MODEL.rating(mu=ratings[s.bot_version_id].mu, sigma=ratings[s.bot_version_id].sigma)]
        for s in seats
    ]
    new = MODEL.rate(teams, ranks=[s.rating_rank for s in seats])
    changes = []
    for seat, (after,) in zip(seats, new, strict=True):
        rating = ratings[seat.bot_version_id]
        after_ordinal = ordinal(after.mu, after.sigma)
        changes.append(
            Change(
                rating.id, game_id, rating.mu, rating.sigma, after.mu, after.sigma, after_ordinal
            )
        )
        rating.mu, rating.sigma, rating.ordinal = after.mu, after.sigma, after_ordinal
        rating.games += 1
        rating.wins += int(seat.winner)
        rating.score_total += seat.score or 0
        rating.faulted_games += int(seat.status != GameSeat.Status.OK)
    return changes


def check_invariants(tournament_id: int) -> bool:
    """Ratings stay finite, each rated game changes one rating per seat, and rated games form
    a prefix in game order, over the whole tournament. Logs at critical level when one
    breaks."""
    with cursor() as check:
        read_ratable(check, tournament_id)  # its first row carries the prefix check
        rated_after = check.fetchone()[1]
    return report_invariants(tournament_id, None, rated_after)


def report_invariants(tournament_id: int, batches, rated_after: int | None) -> bool:
    """:func:`check_invariants` on what is known already: with ``batches`` (the changes
    just made) only those are checked, beside the prefix check's answer ``rated_after``
    (the number of a rated game after an unrated one, None when the prefix holds)."""
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
    if rated_after is not None:
        problems.append(f"game {rated_after} was rated before an earlier game")
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
        return apply_pending_ratings(tournament_id).rated
