"""Tournament lifecycle: create, start (games created in one transaction, sent on its commit),
pause, resume, cancel, the fair-share window of games in flight, and the ladder's top-up."""

from __future__ import annotations

import logging
from operator import attrgetter
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, Q, Subquery
from django.utils import timezone

import engine
from arena import statements
from arena.bots.models import BotVersion
from arena.games.models import Game, GameSeat
from arena.queue import enqueue_games
from arena.ratings.services import ensure_ratings
from arena.sql import (
    RoundTrip,
    Rows,
    cursor,
    defaults,
    insert_rows,
    now_param,
    row_timestamp,
    to_json,
)
from workers.limits import DEFAULT_LIMITS

from . import scheduling
from .models import Entrant, Tournament

log = logging.getLogger("arena.tournaments")


def window(tournament: Tournament) -> int:
    """How many of its games may be queued or running at once: its share of the workers.

    The broker delivers in order and each stored game sends its competition's next, so
    competitions running together share the workers in proportion to their windows
    (docs/ladders.md): ARENA_GAMES_IN_FLIGHT for a tournament, ARENA_LADDER_IN_FLIGHT for a
    ladder."""
    if tournament.format == Tournament.Format.LADDER:
        return settings.ARENA_LADDER_IN_FLIGHT
    return settings.ARENA_GAMES_IN_FLIGHT


class TournamentError(ValueError):
    """A tournament change that is not allowed now; the message says why."""


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
    decision_ms: int = DEFAULT_LIMITS.decision_ms,
    bank_ms: int = DEFAULT_LIMITS.bank_ms,
    seed: int | None = None,
    standing: bool = False,
) -> Tournament:
    """A draft tournament; TournamentError / engine.ConfigError say what is wrong.

    ``standing``: a ladder that never closes (``arena.tournaments.ladders``); it needs no
    game budget, and its entrants may be fewer than its seats until more bots join."""
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
            decision_ms=decision_ms,
            bank_ms=bank_ms,
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
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.DRAFT:
            raise TournamentError(f"The tournament is {tournament.status}; only a draft can start.")
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["status", "started_at"])
        ensure_ratings(tournament)
        if tournament.format == Tournament.Format.LADDER:
            top_up_ladder(tournament)
        else:
            versions = [e.bot_version for e in tournament.entries.select_related("bot_version")]
            _create_games(tournament, plan_games(tournament), versions, first_number=1)
            fill_window(tournament)
    log.info("tournament.started %s", {"tournament_id": tournament_id})
    return tournament


def _create_games(
    tournament, planned, versions, *, first_number: int, send: bool = False
) -> list[int]:
    """The planned games with their seats: scheduled, or queued and sent on commit (``send``).
    Their ids, in game order.

    Two multi-row INSERTs of one shape each (``arena.sql``), whatever the number of games: the
    ORM's bulk_create prepared every value of every row in Python, so a 5,000-game round robin
    took 4.4 s to start, most of it there."""
    queued_at = row_timestamp(timezone.now()) if send else None
    status = Game.Status.QUEUED if send else Game.Status.SCHEDULED
    options = to_json(tournament.options)
    with cursor() as sql:
        insert_rows(
            sql,
            Game,
            GAME_COLUMNS,
            [
                [tournament.pk, first_number + i, p.table, p.seed, options, status, queued_at]
                + NEW_GAME_TAIL
                for i, p in enumerate(planned)
            ],
        )
        ids = list(
            Game.objects.filter(tournament=tournament, number__gte=first_number)
            .order_by("number")
            .values_list("id", flat=True)
        )
        insert_rows(
            sql,
            GameSeat,
            NEW_SEAT_COLUMNS,
            [
                [game_id, seat, versions[entrant].pk] + NEW_SEAT_TAIL
                for game_id, p in zip(ids, planned, strict=True)
                for seat, entrant in enumerate(p.seating)
            ],
        )
    if send:
        enqueue_games(ids)
    return ids


# A new game's columns: the first seven from the plan, the rest at the model's defaults.
GAME_COLUMNS = statements.columns(
    Game, "tournament", "number", "table", "seed", "options", "status", "queued_at",
    "attempts", "worker", "error", "engine_version", "rules_version", "stats", "rated",
)  # fmt: skip
NEW_GAME_TAIL = defaults(Game, GAME_COLUMNS[7:])
# A new seat's: game, seat and version, the rest at the model's defaults.
NEW_SEAT_COLUMNS = statements.columns(
    GameSeat, "game", "seat", "bot_version",
    "winner", "status", "fault_count", "faults", "details", "stderr",
)  # fmt: skip
NEW_SEAT_TAIL = defaults(GameSeat, NEW_SEAT_COLUMNS[3:])


def fill_window(tournament: Tournament) -> int:
    """Queue scheduled games, lowest numbers first, until ARENA_GAMES_IN_FLIGHT of the
    tournament are queued or running; their messages go out on commit. Returns how many.

    Fair share: the broker delivers in order, so a tournament that sent all its games at
    once would make every tournament started after it wait for the last of them. With a
    window, each tournament has a few games in the queue and each stored game adds the next
    at the back (:func:`queue_next_game`), so running tournaments take turns. Called with
    the tournament row locked (start, resume, a failed game, the sweeper)."""
    if tournament.status != Tournament.Status.RUNNING:
        return 0
    in_flight = tournament.games.filter(status__in=[Game.Status.QUEUED, Game.Status.RUNNING])
    room = window(tournament) - in_flight.count()
    if room <= 0:
        return 0
    with RoundTrip() as trip:
        queued = queue_next_game(trip, tournament.pk, games=room)
    return send_queued(queued)


def queue_next_game(trip: RoundTrip, tournament_id: int, *, games: int = 1) -> Rows:
    """scheduled -> queued for the running tournament's lowest-numbered scheduled
    ``games`` (``statements.QUEUE_NEXT``): a stored game's place in the window goes to the
    next one. Once ``trip`` is over, :func:`send_queued` sends them."""
    return trip.read(statements.QUEUE_NEXT, [now_param(timezone.now()), tournament_id, games])


def send_queued(queued: Rows, *, cursor=None) -> int:
    """Send the games :func:`queue_next_game` queued, in game order, once the transaction
    commits (their outbox rows written on ``cursor``, if given). Returns how many."""
    games = sorted(queued.rows, key=attrgetter("number"))
    enqueue_games((game.id for game in games), cursor=cursor)
    return len(games)


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
        from . import ladders

        return ladders.top_up(tournament, faulted=faulted)
    existing = tournament.games.aggregate(
        total=Count("id"),
        open=Count("id", filter=Q(status__in=[Game.Status.QUEUED, Game.Status.RUNNING])),
        last=Max("number"),
    )
    budget = tournament.ladder_games - existing["total"]
    wanted = min(budget, window(tournament) - existing["open"])
    if wanted <= 0:
        return 0
    entries = list(tournament.entries.select_related("bot_version").order_by("id"))
    versions = [e.bot_version for e in entries]
    ratings = {r.bot_version_id: r for r in tournament.ratings.all()}
    played = dict(
        GameSeat.objects.filter(game__tournament=tournament)
        .exclude(game__status__in=[Game.Status.FAILED, Game.Status.VOID])
        .values_list("bot_version")
        .annotate(n=Count("id"))
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
    _create_games(tournament, planned, versions, first_number=number, send=True)
    return wanted


def pause_tournament(tournament_id: int) -> Tournament:
    """running -> paused: queued games go back to scheduled (running ones finish)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            raise TournamentError(
                f"The tournament is {tournament.status}; only a running one pauses."
            )
        tournament.status = Tournament.Status.PAUSED
        tournament.save(update_fields=["status"])
        tournament.games.filter(status=Game.Status.QUEUED).update(status=Game.Status.SCHEDULED)
    return tournament


def resume_tournament(tournament_id: int) -> Tournament:
    """paused -> running: scheduled games are queued and sent again, up to the window."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.PAUSED:
            raise TournamentError(
                f"The tournament is {tournament.status}; only a paused one resumes."
            )
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        fill_window(tournament)
        if tournament.format == Tournament.Format.LADDER:
            top_up_ladder(tournament)
        if finish_if_done(tournament.pk):
            tournament.refresh_from_db()
    return tournament


def cancel_tournament(tournament_id: int) -> Tournament:
    """running/paused/draft -> cancelled: games not started are void; running ones finish."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(f"The tournament is already {tournament.status}.")
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        tournament.games.filter(status__in=[Game.Status.SCHEDULED, Game.Status.QUEUED]).update(
            status=Game.Status.VOID, error="tournament cancelled"
        )
    return tournament


def finish_if_done(tournament_id: int) -> bool:
    """running -> finished once every game is done (and, for a ladder, its budget spent).

    One conditional UPDATE. An open game is never rated, so looking among unrated games
    finds one with the (tournament, rated, number) index. Only a tournament's last games and
    a ladder's ask, so the ORM's cost does not show per game."""
    games = Game.objects.filter(tournament=OuterRef("pk"))
    open_game = games.filter(rated=False).exclude(status__in=Game.DONE)
    played = games.order_by().values("tournament").annotate(n=Count("id")).values("n")
    finished = (
        Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING)
        .exclude(Exists(open_game))
        .exclude(standing=True)
        .exclude(format=Tournament.Format.LADDER, ladder_games__gt=Subquery(played))
        .update(status=Tournament.Status.FINISHED, finished_at=timezone.now())
    ) == 1
    if finished:
        log.info("tournament.finished %s", {"tournament_id": tournament_id})
    return finished


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
