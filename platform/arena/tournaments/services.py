"""Tournament lifecycle: create, start (games created in one transaction, sent on its commit),
pause, resume, cancel, finish, and the ladder's top-up; the games' window is ``queueing``."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, Q

import engine
from arena import statements
from arena.bots.models import BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.services import ensure_ratings
from arena.sql import RoundTrip, Rows

from . import ladders, queueing, scheduling
from .models import Entrant, Tournament, TournamentError

log = logging.getLogger("arena.tournaments")


def resolve_options(title: str, seats: int, overrides: dict[str, Any]) -> dict[str, Any]:
    """The title's resolved options; engine.ConfigError (person-readable) when refused."""
    return engine.title(title).options(seats, **overrides)


def create_tournament(
    *,
    organiser,
    name: str,
    title: str,
    seats: int,
    entrants: list[BotVersion],
    format: str = Tournament.Format.ROUND_ROBIN,
    rounds: int = 1,
    ladder_games: int = 0,
    options: dict[str, Any] | None = None,
    decision_ms: int | None = None,
    bank_ms: int | None = None,
    seed: int | None = None,
    standing: bool = False,
) -> Tournament:
    """A draft tournament; TournamentError / engine.ConfigError say what is wrong.

    ``standing``: a ladder that never closes (``arena.tournaments.ladders``); it needs no
    game budget, and its entrants may be fewer than its seats until more bots join.
    ``decision_ms`` and ``bank_ms``, the time control, default to the platform's
    (``settings.ARENA_BOT_LIMITS``, as the web form and the API offer them)."""
    resolved = resolve_options(title, seats, options or {})
    if standing:
        format = Tournament.Format.LADDER
    _check_entrants(title, seats, entrants, standing=standing)
    if format == Tournament.Format.LADDER and ladder_games < 1 and not standing:
        raise TournamentError("A ladder needs a number of games (at least 1) before it closes.")
    if format != Tournament.Format.LADDER and rounds < 1:
        raise TournamentError("Play at least one round.")
    with transaction.atomic():
        tournament = Tournament.objects.create(
            organiser=organiser,
            name=name,
            title=title,
            seats=seats,
            options=resolved,
            format=format,
            rounds=rounds,
            ladder_games=ladder_games,
            decision_ms=settings.ARENA_BOT_LIMITS.decision_ms
            if decision_ms is None
            else decision_ms,
            bank_ms=settings.ARENA_BOT_LIMITS.bank_ms if bank_ms is None else bank_ms,
            seed=(scheduling.draw_seed() if seed is None else seed) & scheduling.SEED_MASK,
            standing=standing,
        )
        Entrant.objects.bulk_create(Entrant(tournament=tournament, bot_version=v) for v in entrants)
    return tournament


def _check_entrants(
    title: str, seats: int, entrants: list[BotVersion], *, standing: bool = False
) -> None:
    if len({v.pk for v in entrants}) != len(entrants):
        raise TournamentError("An entrant is listed twice.")
    if len(entrants) < seats and not standing:
        raise TournamentError(
            f"{seats}-seat games need at least {seats} entrants; {len(entrants)} chosen."
        )
    for version in entrants:
        if version.bot.title != title:
            raise TournamentError(f"{version.label} plays {version.bot.title}, not {title}.")
        if version.status != BotVersion.Status.READY:
            raise TournamentError(
                f"{version.label} is {version.status}; only ready versions can enter."
            )


def plan_games(tournament: Tournament) -> list[scheduling.PlannedGame]:
    n = tournament.entries.count()
    if tournament.format == Tournament.Format.DUPLICATE:
        return scheduling.duplicate(n, tournament.seats, tournament.rounds, tournament.seed)
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return scheduling.round_robin(n, tournament.seats, tournament.rounds, tournament.seed)
    return []


def planned_total(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.LADDER:
        return tournament.ladder_games
    n = tournament.entries.count()
    per_round = n * (tournament.seats if tournament.format == Tournament.Format.DUPLICATE else 1)
    if tournament.format == Tournament.Format.DUPLICATE and n == tournament.seats:
        per_round = tournament.seats
    return per_round * tournament.rounds


def start_tournament(tournament_id: int) -> Tournament:
    """draft -> running: create every game (or the ladder's first ones) in one transaction and
    send the first ARENA_GAMES_IN_FLIGHT on its commit; each stored game sends the next."""
    with transaction.atomic():
        tournament = Tournament.objects.get(pk=tournament_id)
        tournament.start()
        ensure_ratings(tournament)
        if tournament.format == Tournament.Format.LADDER:
            top_up_ladder(tournament)
        else:
            versions = [e.bot_version for e in tournament.entries.select_related("bot_version")]
            queueing.create_games(tournament, plan_games(tournament), versions, first_number=1)
            queueing.fill_window(tournament)
    log.info("tournament.started %s", {"tournament_id": tournament_id})
    return tournament


def lock_for_store(trip: RoundTrip, tournament_id: int) -> Rows:
    """Lock the tournament's row (the lock every writer of a running game takes first, so
    a store and the sweeper never deadlock); its one row, once ``trip`` is over, says the
    tournament's format."""
    return trip.read(statements.lock_tournament(), [tournament_id])


def top_up_ladder(tournament: Tournament, *, faulted: tuple[int, ...] = ()) -> int:
    """Create ladder games until its window (ARENA_LADDER_IN_FLIGHT) is full or the game
    budget is spent; a standing ladder's top-up is ``arena.tournaments.ladders.top_up``
    (``faulted``: the versions whose seat faulted in the game just stored).

    Called with the tournament row locked (start, and after each stored ladder game)."""
    if tournament.status != Tournament.Status.RUNNING:
        return 0
    if tournament.standing:
        return ladders.top_up(tournament, faulted=faulted)
    existing = tournament.games.aggregate(
        total=Count("id"),
        open=Count("id", filter=Q(status__in=[Game.Status.QUEUED, Game.Status.RUNNING])),
        last=Max("number"),
    )
    budget = tournament.ladder_games - existing["total"]
    wanted = min(budget, queueing.window(tournament) - existing["open"])
    if wanted <= 0:
        return 0
    entries = list(tournament.entries.select_related("bot_version").order_by("id"))
    versions = [e.bot_version for e in entries]
    ratings = {r.bot_version_id: r for r in tournament.ratings.all()}
    played = dict(
        GameSeat.objects.filter(game__tournament=tournament)
        .exclude(game__status__in=[Game.Status.FAILED, Game.Status.VOID])
        .values_list("bot_version")
        .annotate(n=Count("*"))
    )
    counts = [played.get(v.pk, 0) for v in versions]
    ordinals = [ratings[v.pk].ordinal if v.pk in ratings else 0.0 for v in versions]
    planned = []
    number = (existing["last"] or 0) + 1
    for i in range(wanted):
        pick = scheduling.ladder_pick(
            counts, ordinals, tournament.seats, tournament.seed, number + i
        )
        planned.append(pick)
        for entrant in pick.seating:
            counts[entrant] += 1
    queueing.create_games(tournament, planned, versions, first_number=number, send=True)
    return wanted


def pause_tournament(tournament_id: int) -> Tournament:
    """running -> paused (:meth:`Tournament.pause`)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    tournament.pause()
    return tournament


def resume_tournament(tournament_id: int) -> Tournament:
    """paused -> running: scheduled games are queued and sent again, up to the window."""
    with transaction.atomic():
        tournament = Tournament.objects.get(pk=tournament_id)
        tournament.resume()
        queueing.fill_window(tournament)
        if tournament.format == Tournament.Format.LADDER:
            top_up_ladder(tournament)
        if Tournament.finish_if_done(tournament.pk):
            tournament.refresh_from_db()
    return tournament


def cancel_tournament(tournament_id: int) -> Tournament:
    """-> cancelled (:meth:`Tournament.cancel`)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    tournament.cancel()
    return tournament


def progress(tournament: Tournament) -> dict[str, int]:
    # The games not finished by status (the partial index game_unfinished), the finished ones
    # the rest of its numbered games: counting every game by status walked a ladder's history.
    counts = dict(
        tournament.games.exclude(status=Game.Status.FINISHED)
        .values_list("status")
        .annotate(n=Count("id"))
        .order_by()
    )
    numbered = tournament.games.order_by("-number").values_list("number", flat=True).first()
    counts[Game.Status.FINISHED] = (numbered or 0) - sum(counts.values())
    total = (
        planned_total(tournament)
        if tournament.status == Tournament.Status.DRAFT
        else max(planned_total(tournament), sum(counts.values()))
    )
    done = sum(counts.get(s, 0) for s in Game.DONE)
    return {
        "total": total,
        "done": done,
        "finished": counts.get(Game.Status.FINISHED, 0),
        "failed": counts.get(Game.Status.FAILED, 0),
        "running": counts.get(Game.Status.RUNNING, 0),
        "queued": counts.get(Game.Status.QUEUED, 0) + counts.get(Game.Status.SCHEDULED, 0),
        "percent": int(100 * done / total) if total else 0,
    }
