"""A running tournament's games: created in bulk, queued within its window, sent.

Fair share: each competition keeps a window of games queued or running, and each stored game
queues its competition's next at the back of the broker's queue, so competitions running
together take turns (docs/ladders.md). Used by the tournament's lifecycle (``services``), the
standing ladders' top-up (``ladders``) and the store (``arena.games.services``).
"""

from __future__ import annotations

from operator import attrgetter

from django.conf import settings
from django.utils import timezone

from arena import statements
from arena.games.models import Game, GameSeat
from arena.queue import enqueue_games
from arena.sql import (
    RoundTrip,
    Rows,
    cursor,
    defaults,
    insert_rows,
    now_param,
    row_timestamp,
)

from .models import Tournament


def window(tournament: Tournament) -> int:
    """How many of its games may be queued or running at once: its share of the workers.

    The broker delivers in order and each stored game sends its competition's next, so
    competitions running together share the workers in proportion to their windows
    (docs/ladders.md): ARENA_GAMES_IN_FLIGHT for a tournament, ARENA_LADDER_IN_FLIGHT for a
    ladder."""
    if tournament.format == Tournament.Format.LADDER:
        return settings.ARENA_LADDER_IN_FLIGHT
    return settings.ARENA_GAMES_IN_FLIGHT


def create_games(
    tournament, planned, versions, *, first_number: int, send: bool = False
) -> list[int]:
    """The planned games with their seats: scheduled, or queued and sent on commit (``send``).
    Their ids, in game order.

    Two multi-row INSERTs of one shape each (``arena.sql``), whatever the number of games: the
    ORM's bulk_create prepared every value of every row in Python, so a 5,000-game round robin
    took 4.4 s to start, most of it there."""
    queued_at = row_timestamp(timezone.now()) if send else None
    status = Game.Status.QUEUED if send else Game.Status.SCHEDULED
    options = None  # the tournament's (Game.rule_options)
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
