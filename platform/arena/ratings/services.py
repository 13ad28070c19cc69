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
from django.utils import timezone
from openskill.models import PlackettLuce

from arena import pagecache_scopes, statements
from arena.games import totals
from arena.games.models import Game, GameSeat
from arena.sql import RoundTrip, Rows, insert_rows, row_timestamp, where_in
from arena.statements import RatableSeat
from arena.tournaments.models import Tournament
from workers.leaderboard import rating_ranks as local_rating_ranks

from .models import Rating, RatingChange, TitleRating, TitleRatingChange, with_before

log = logging.getLogger("arena.ratings")
MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def changes_with_before(changes):
    """``changes`` (RatingChange) with the rating before each game (``mu_prior``,
    ``sigma_prior``): see ``models.with_before``."""
    prior = MODEL.rating()
    return with_before(changes, prior.mu, prior.sigma)


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
    seats = list(seats)
    return local_rating_ranks(
        [s.status == GameSeat.Status.OK for s in seats], [s.rank for s in seats]
    )


class Pending(NamedTuple):
    """What :func:`apply_pending_ratings` did, and saw."""

    rated: int  # games rated now
    open_game: bool  # the tournament has a game not done yet (it cannot be finished)
    changes: tuple[list[Change], ...] = ()  # per game rated now, its history rows
    rated_after: int | None = None  # a rated game after an unrated one, as read (a bug)
    games: tuple[tuple[int, list[RatedSeat]], ...] = ()  # per game rated now, its seats


def apply_pending_ratings(tournament_id: int, *, locked: bool = False) -> Pending:
    """Rate every finished game not rated yet, in game-number order, stopping at the first
    game still open, so ratings never depend on which worker finished first; then its bots'
    title ratings. Call inside a transaction; the tournament row lock serialises callers
    (``locked``: the caller holds it already).

    A batch of any length costs the same two round trips: the reads (:func:`read_ratable`,
    which also checks that rated games form a prefix, and :func:`read_title_ratings`), then
    the writes of :func:`rate_ratable` and :func:`rate_titles`. A worker storing a game
    sends them in its own two round trips (``arena.games.services.store_game_result``)."""
    if not locked:
        Tournament.objects.select_for_update().get(pk=tournament_id)
    with RoundTrip() as first:
        ratable = read_ratable(first, tournament_id)
        titles = read_title_ratings(first, tournament_id)
    with RoundTrip() as second:
        pending = rate_ratable(ratable.rows, tournament_id, second.cursor)
        rate_titles(pending, titles, second.cursor)
    report_invariants(tournament_id, pending.changes, pending.rated_after)
    pagecache_scopes.rated(tournament_id, pending)
    return pending


class TitleRead(NamedTuple):
    """What :func:`read_title_ratings` read, once its round trip is over."""

    ratings: Rows  # statements.TitleRatingRow, one per version seated, locked
    points: Rows  # statements.TitlePoint: those games' points already written


def read_title_ratings(trip: RoundTrip, tournament_id: int) -> TitleRead:
    """Make the missing title ratings and send the read of those of every bot seated in the
    tournament's finished games not rated yet (locked), and of those games' title points.
    Those games hold every game the ratable read sent before it in ``trip`` will rate, so
    the title ratings cost no round trip of their own (``bench/store_path.py``: the two
    they took cost each store 0.6-1.2 ms of the worker's CPU; docs/performance.md)."""
    prior = MODEL.rating()
    trip.cursor.execute(
        statements.TITLE_RATINGS_MISSING,
        [tournament_id, prior.mu, prior.sigma, ordinal(prior.mu, prior.sigma), tournament_id],
    )
    return TitleRead(
        trip.read(statements.title_ratings(), [tournament_id] * 2),
        trip.read(statements.TITLE_POINTS_OF_UNRATED, [tournament_id]),
    )


def rate_titles(pending: Pending, read: TitleRead, cursor) -> int:
    """Apply the games just rated in their competition to their bots' title ratings (one per
    bot and player count, across every competition and version; a game that seats one bot
    twice is left out), with a history point per game and bot that names the version, and send the writes on ``cursor`` without reading
    anything back. ``read``: :func:`read_title_ratings`, sent in the round trip before.
    Returns how many points were written."""
    games = [(game_id, seats) for game_id, seats in pending.games if seats]
    if not games:
        return 0
    bot_of = {row.bot_version_id: row.bot_id for row in read.ratings.rows}
    ratings = {(row.bot_id, row.players): row for row in read.ratings.rows}
    seen = {(p.title_rating_id, p.game_id) for p in read.points.rows}
    at, points = row_timestamp(timezone.now()), []
    for game_id, seats in games:
        keys = [(bot_of[s.bot_version_id], len(seats)) for s in seats]
        if len(set(keys)) < len(keys):
            # One bot in two seats (a new version against its previous one): its title
            # rating measures it against other bots, and one rating cannot be two teams of
            # one match. The versions' own ratings in the competition count the game.
            continue
        if any((ratings[key].id, game_id) in seen for key in keys):
            continue  # rated into the title already (its competition was rated again)
        teams = [[MODEL.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in keys]
        new = MODEL.rate(teams, ranks=[s.rating_rank for s in seats])
        for seat, key, (after,) in zip(seats, keys, new, strict=True):
            before = ratings[key]
            ratings[key] = rating = before._replace(
                mu=after.mu,
                sigma=after.sigma,
                ordinal=ordinal(after.mu, after.sigma),
                games=before.games + 1,
                wins=before.wins + int(seat.winner),
                faulted_games=before.faulted_games + int(seat.status != GameSeat.Status.OK),
                last_version_id=seat.bot_version_id,
            )
            points.append(
                [rating.id, game_id, rating.mu, rating.sigma, at]
            )  # fmt: skip
    if points:
        insert_rows(cursor, TitleRatingChange, statements.TITLE_POINT_COLUMNS, points)
        insert_rows(
            cursor,
            TitleRating,
            statements.TITLE_RATING_COLUMNS,
            [_title_rating_row(r) for r in ratings.values()],
            statements.TITLE_RATINGS_UPSERT,
        )
    return len(points)


def _title_rating_row(rating: statements.TitleRatingRow) -> list:
    """Its values in ``statements.TITLE_RATING_COLUMNS`` order."""
    return [
        rating.id, rating.bot_id, rating.players, rating.mu, rating.sigma, rating.ordinal,
        rating.games, rating.wins, rating.faulted_games, rating.last_version_id,
    ]  # fmt: skip


def read_ratable(trip: RoundTrip, tournament_id: int) -> Rows:
    """Send the ratable read (``statements.RATABLE``); its rows, once ``trip`` is over, go
    to :func:`rate_ratable`."""
    return trip.read(statements.RATABLE, [tournament_id] * 3)


def rate_ratable(rows: list[RatableSeat], tournament_id: int, cursor) -> Pending:
    """Rate the games of the ratable read's rows, and send the writes (history rows, the
    ratings' new values, the games marked rated) on ``cursor`` without reading anything back,
    so a pipeline sends them together."""
    games, ratings = _ratable_games(rows, tournament_id)
    open_game, rated_after = rows[0].first_open is not None, rows[0].rated_after
    if not games:
        return Pending(0, open_game, rated_after=rated_after)
    finished = tuple(
        (game_id, seats)
        for game_id, (status, seats) in games.items()
        if status == Game.Status.FINISHED
    )
    rated = [_rate_game(game_id, seats, ratings) for game_id, seats in finished]
    if rated:
        changes = [c for batch in rated for c in batch]
        insert_rows(cursor, RatingChange, statements.CHANGE_COLUMNS, changes)
        insert_rows(
            cursor,
            Rating,
            statements.RATING_COLUMNS,
            [_rating_row(r) for r in ratings.values()],
            statements.RATINGS_UPSERT,
        )
    where_in(cursor, statements.MARK_RATED, statements.GAME_ID, list(games), [True])
    return Pending(len(rated), open_game, tuple(rated), rated_after, finished)


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
    """A history row (RatingChange) about to be written, in ``statements.CHANGE_COLUMNS``
    order."""

    rating_id: int
    game_id: int
    mu: float
    sigma: float
    ordinal: float


def _ratable_games(rows: list[RatableSeat], tournament_id: int):
    """{game id: (status, seats)} for the ratable prefix, and {bot version id: RatingRow}."""
    games: dict[int, tuple[str, list[RatedSeat]]] = {}
    ratings: dict[int, RatingRow] = {}
    for row in rows:
        if row.game_id is None:
            break  # no ratable game
        version = row.bot_version_id
        seat = RatedSeat(version, row.rating_rank, bool(row.winner), row.score, row.status)
        games.setdefault(row.game_id, (row.game_status, []))[1].append(seat)
        if row.rating_id is None:
            raise Rating.DoesNotExist(f"bot version {version} has no rating in {tournament_id}")
        if version not in ratings:
            ratings[version] = RatingRow(
                row.rating_id, tournament_id, version, row.mu, row.sigma, row.ordinal,
                row.games, row.wins, row.score_total, row.faulted_games,
            )  # fmt: skip
    return games, ratings


def _rating_row(rating: RatingRow) -> list:
    """Its values in ``statements.RATING_COLUMNS`` order."""
    return [
        rating.id, rating.tournament_id, rating.bot_version_id, rating.mu, rating.sigma,
        rating.ordinal, rating.games, rating.wins, rating.score_total, rating.faulted_games,
    ]  # fmt: skip


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
        changes.append(Change(rating.id, game_id, after.mu, after.sigma, after_ordinal))
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
    with RoundTrip() as check:
        ratable = read_ratable(check, tournament_id)  # its first row carries the prefix check
    return report_invariants(tournament_id, None, ratable.first.rated_after)


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
    """Set the tournament's ratings back to the prior and rate its games again; the
    dashboards' rating points of the old changes are folded again with them. The rating
    rows are kept, not made anew, so their ids (in stored /api/v1/ratings/{id}/ URLs) stay."""
    prior = MODEL.rating()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        RatingChange.objects.filter(rating__tournament=tournament).delete()
        tournament.ratings.update(
            mu=prior.mu, sigma=prior.sigma, ordinal=ordinal(prior.mu, prior.sigma),
            games=0, wins=0, faulted_games=0, score_total=0,
        )  # fmt: skip
        Game.objects.filter(tournament=tournament).update(rated=False)
        ensure_ratings(tournament)
        rated = apply_pending_ratings(tournament_id).rated
        totals.refold_ratings(tournament_id)
        versions = tournament.ratings.values_list("bot_version_id", flat=True)
        pagecache_scopes.changed(tournaments=(tournament_id,), versions=list(versions))
        return rated
