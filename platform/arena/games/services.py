"""The game lifecycle on the worker side: claim with a lease, renew it while the game runs,
store a result once, release after an infrastructure error (or fail at once after a
permanent one), and the sweeper that recovers games held by lost workers."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

import engine
from arena import leases, pagecache_scopes, statements
from arena.bots.services import StoredArtifact, planned_seat, stored_artifact
from arena.queue import enqueue_game, enqueue_games
from arena.sql import RoundTrip, Rows, cursor, from_json, insert_rows, now_param, to_json
from workers.limits import Limits
from workers.match import MatchResult, SeatSpec

from .analytics import store_analytics
from .models import Game, GameSeat, stored_record
from .outcome import SeatOutcome, seat_outcomes

log = logging.getLogger("arena.games")


@dataclass(frozen=True)
class MatchJob:
    """Everything a worker needs to run a claimed game and store its result; plain values,
    no model objects. What it says of the game (tournament, title, options, the versions
    seated) never changes once the game exists, so the store trusts it."""

    game_id: int
    title: str
    seats: list[SeatSpec]
    seed: int
    options: dict[str, Any]
    limits: Limits  # the platform's, with the tournament's time control
    tournament_id: int = 0
    seat_versions: tuple[int, ...] = ()  # bot version id per seat
    artifacts: tuple[StoredArtifact, ...] = ()  # the uploaded bots' files, to ready first
    worker: str = ""  # the claim's worker name: only its holder may store or renew it


def claim_game(game_id: int, *, worker: str) -> MatchJob | None:
    """queued -> running with a lease. None when the game is gone, not queued (a duplicate
    delivery, a paused or cancelled tournament), or another worker has it.

    On PostgreSQL one prepared statement, ``statements.CLAIM`` (the conditional UPDATE and
    the read of the seats joined to the row it returned); elsewhere (SQLite) the UPDATE,
    then the same read."""
    now = timezone.now()
    lease_until = now + leases.lease()
    worker = worker[:255]
    params = [worker, now_param(lease_until), now_param(now), game_id]
    with cursor() as claim:
        if connection.vendor == "postgresql":
            claim.execute(statements.CLAIM.text, [*params, game_id])
            seats = statements.CLAIM.rows(claim.fetchall())
        else:
            claim.execute(statements.CLAIM_UPDATE, params)
            seats = claim.fetchall() and _read_claimed(claim, game_id)
    if not seats:
        log.info("game.claim.skipped %s", {"game_id": game_id, "worker": worker})
        return None
    game = seats[0]
    log.info("game.claimed %s", {"game_id": game_id, "worker": worker})
    return MatchJob(
        game_id=game_id,
        title=game.title,
        seats=[planned_seat(seat) for seat in seats],
        seed=game.seed,
        options=from_json(game.options),
        limits=_time_control(settings.ARENA_BOT_LIMITS, game.decision_ms, game.bank_ms),
        tournament_id=game.tournament_id,
        seat_versions=tuple(seat.bot_version_id for seat in seats),
        artifacts=tuple(a for seat in seats if (a := stored_artifact(seat)) is not None),
        worker=worker,
    )


def renew_lease(job: MatchJob, state=None) -> bool:
    """Extend a claimed game's lease by ARENA_GAME_LEASE_SECONDS from now (the worker's
    heartbeat, ``arena.games.heartbeat``), and keep the game's record so far from ``state``,
    the runner's live game, when given (:func:`progress_record`). False when this worker no
    longer holds the game: the sweeper took it back, and it may be playing elsewhere."""
    held = Game.objects.filter(pk=job.game_id, status=Game.Status.RUNNING, worker=job.worker)
    change = {"lease_until": timezone.now() + leases.lease()}
    if state is not None:
        try:
            change["progress"] = progress_record(job, state.actions())
        except Exception as err:  # the lease matters more than a view of the game
            log.warning("game.progress.failed %s", {"game_id": job.game_id, "error": repr(err)})
    return held.update(**change) == 1


def progress_record(job: MatchJob, actions: list[dict]) -> dict:
    """The record of ``job``'s game played from its seed through ``actions``. Called on the
    heartbeat's thread while the runner plays on: the list of actions is copied in one step,
    and the game played again from it, never read half-changed from the live state."""
    state = engine.title(job.title).new_game(len(job.seats), job.options, job.seed)
    for action in actions:
        state.apply(action)
    return state.record()


@functools.lru_cache(maxsize=64)
def _time_control(limits: Limits, decision_ms: int, bank_ms: int) -> Limits:
    """The platform's limits with a tournament's time control (a few per process: each
    claim would otherwise check every limit again, 20 microseconds)."""
    return limits.replace(decision_ms=decision_ms, bank_ms=bank_ms)


def _read_claimed(claim, game_id: int) -> list[statements.ClaimedSeat]:
    claim.execute(statements.CLAIMED_READ.text, [game_id])
    return statements.CLAIMED_READ.rows(claim.fetchall())


def store_game_result(job: MatchJob, played: MatchResult) -> bool:
    """Store a claimed game's result in one transaction: lock the tournament, finish the
    game, save the seats, the analytics rows, queue the tournament's next game, then the
    ratings in game order (and, for its last game, finish the tournament). False (nothing
    changed) if it was stored already or is no longer running.

    ``played`` is the match runner's result: the engine's ``result`` (scores, ranks,
    winners, details, stats) and ``record``, ``faults`` / ``seat_status`` / ``stderr`` per
    seat, and ``match_ms``.

    On PostgreSQL the steps up to the reads of the ratable games and their title ratings go
    in one round trip, the rating writes in a second (``arena.sql.RoundTrip``), then Django
    commits (sending the COMMIT with the rating writes saved no CPU: see
    docs/performance.md); a ladder's top-up and a tournament's finish, when there is one,
    cost a few more statements.
    """
    from arena.ratings import services as ratings
    from arena.tournaments import queueing
    from arena.tournaments import services as tournaments
    from arena.tournaments.models import Tournament

    if not (job.tournament_id and job.seat_versions):
        raise ValueError("store_game_result needs the MatchJob that claim_game returned")
    seats = seat_outcomes(job.seat_versions, played)
    now = timezone.now()  # the game's finish, and its analytics rows' (one day for both)
    with transaction.atomic():
        with RoundTrip() as first:
            tournament = tournaments.lock_for_store(first, job.tournament_id)
            finished = finish_game(first, job, played, now)
            # Written before the finish is read: if it found the game no longer running,
            # the whole transaction rolls back below.
            save_seats(first.cursor, job.game_id, seats)
            store_analytics(first.cursor, job, seats, played.analytics, now)
            next_game = queueing.queue_next_game(first, job.tournament_id)
            ratable = ratings.read_ratable(first, job.tournament_id)
            titles = ratings.read_title_ratings(first, job.tournament_id)
        if finished.first is None:
            transaction.set_rollback(True)
            log.info("game.store.skipped %s", {"game_id": job.game_id})
            return False
        with RoundTrip() as second:
            # The next game's outbox row goes with the rating writes; sent on commit.
            queueing.send_queued(next_game, cursor=second.cursor)
            pending = ratings.rate_ratable(ratable.rows, job.tournament_id, second.cursor)
            ratings.rate_titles(pending, titles, second.cursor)
        pagecache_scopes.rated(job.tournament_id, pending, job.seat_versions)
        ladder = tournament.first.format == Tournament.Format.LADDER
        if ladder:
            tournaments.top_up_ladder(
                Tournament.objects.get(pk=job.tournament_id),
                faulted=tuple(s.bot_version_id for s in seats if s.status != GameSeat.Status.OK),
            )
        if ladder or not pending.open_game:  # else the ratable read saw a game still to play
            Tournament.finish_if_done(job.tournament_id)
    ratings.report_invariants(job.tournament_id, pending.changes, pending.rated_after)
    log.info("game.stored %s", {"game_id": job.game_id})
    return True


def finish_game(trip: RoundTrip, job: MatchJob, played: MatchResult, now=None) -> Rows:
    """running -> finished with the record and versions (``statements.FINISH_GAME``);
    its rows, once ``trip`` is over, are empty when the game was no longer running."""
    record = played.record or {}
    # what the row says of the record (models.said_by_row): the versions are written from it
    said = {
        "options": job.options, "engine_version": str(record.get("engine_version", "")),
        "rules_version": str(record.get("rules_version", "")), "title": job.title,
        "seed": job.seed,
    }  # fmt: skip
    return trip.read(
        statements.FINISH_GAME,
        [
            now_param(now or timezone.now()),
            to_json(stored_record(record, said)),
            str(record.get("engine_version", "")),
            str(record.get("rules_version", "")),
            played.match_ms,
            recorded_actions(record),
            job.game_id,
            job.worker,
        ],
    )


def recorded_actions(record: dict) -> int | None:
    """The game's length in actions as its record's seal holds it (``final.actions``, see
    engine/core/records.py); None for a record without a seal."""
    final = record.get("final") if isinstance(record, dict) else None
    actions = final.get("actions") if isinstance(final, dict) else None
    return actions if isinstance(actions, int) and not isinstance(actions, bool) else None


def save_seats(cursor, game_id: int, seats: list[SeatOutcome]) -> None:
    """Every seat's result, over the rows made with the game, in one statement."""
    rows = [s.row(game_id) for s in seats]
    insert_rows(cursor, GameSeat, statements.SEAT_COLUMNS, rows, statements.SEATS_UPSERT)


def release_game(game_id: int, *, reason: str, detail: str = "", worker: str = "") -> str:
    """After an infrastructure error (not a bot fault): requeue the game, or fail it after
    ARENA_GAME_MAX_ATTEMPTS attempts. ``reason`` is public, ``detail`` (a traceback) for
    staff and the seats' owners; given a ``worker``, only while that worker holds the game.
    Returns the new status."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != Game.Status.RUNNING or (worker and game.worker != worker):
            return game.status
        return _requeue_or_fail(game, reason, detail)


def fail_game(game_id: int, *, reason: str, detail: str = "", worker: str = "") -> str:
    """After a permanent error (``workers.errors``): fail the game at once, whatever its
    attempts, with the public ``reason`` and the ``detail`` for staff and owners; the
    tournament's ratings and window move past it. Given a ``worker``, only while that
    worker holds the game. Returns the new status."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != Game.Status.RUNNING or (worker and game.worker != worker):
            return game.status
        _fail(game, reason, detail)
        return game.status


def _lock_game(game_id: int) -> Game:
    """Lock the game's tournament, then the game: every writer takes them in this order, so
    a worker storing a game and the sweeper recovering one never deadlock."""
    from arena.tournaments.models import Tournament

    tournament = Tournament.objects.select_for_update().get(games__pk=game_id)
    game = Game.objects.select_for_update().get(pk=game_id)
    game.tournament = tournament  # the locked row, fresh
    return game


def _requeue_or_fail(game: Game, reason: str, detail: str = "") -> str:
    if leases.gives_up(game.attempts):
        _fail(game, f"gave up after {game.attempts} attempts; last: {reason}", detail)
    else:
        game.lease_until = None
        game.status = Game.Status.QUEUED
        game.queued_at = timezone.now()
        game.error, game.error_detail = reason[:4000], detail[:20000]
        game.save(update_fields=["status", "lease_until", "error", "error_detail", "queued_at"])
        enqueue_game(game.pk)
        log.warning("game.requeued %s", {"game_id": game.pk, "reason": reason})
    return game.status


def _fail(game: Game, reason: str, detail: str) -> None:
    """Fail the locked ``game``: its later games' ratings, the tournament's window and its
    finish stop waiting for it."""
    from arena.ratings.services import apply_pending_ratings
    from arena.tournaments.models import Tournament
    from arena.tournaments.queueing import fill_window
    from arena.tournaments.services import top_up_ladder

    game.lease_until, game.progress = None, None
    game.status = Game.Status.FAILED
    game.finished_at = timezone.now()
    game.error, game.error_detail = reason[:4000], detail[:20000]
    game.save(
        update_fields=["status", "lease_until", "error", "error_detail", "finished_at", "progress"]
    )
    log.warning("game.failed %s", {"game_id": game.pk, "reason": reason})
    apply_pending_ratings(game.tournament_id)
    tournament = game.tournament
    if tournament.format == tournament.Format.LADDER:
        top_up_ladder(tournament)
    fill_window(tournament)  # the failed game's place in the window
    Tournament.finish_if_done(tournament.pk)


def _take_back_game(game_id: int, now) -> str | None:
    game = _lock_game(game_id)
    if game.status != Game.Status.RUNNING or game.lease_until >= now:
        return None  # stored or renewed meanwhile
    status = _requeue_or_fail(
        game, f"its worker stopped answering (lease expired on worker {game.worker or '?'})"
    )
    return "failed" if status == Game.Status.FAILED else "requeued"


GAMES = leases.LeasedWork(
    name="games",
    lost=lambda now: Game.objects.filter(status=Game.Status.RUNNING, lease_until__lt=now),
    waiting=lambda stale: Game.objects.filter(status=Game.Status.QUEUED, queued_at__lt=stale),
    take_back=_take_back_game,
    enqueue=enqueue_games,
    outcomes=("requeued", "failed"),
)


def sweep_games() -> dict[str, int]:
    """One sweep (``arena.leases``): running games whose lease expired are requeued (or
    failed after ARENA_GAME_MAX_ATTEMPTS attempts), queued games nobody claimed are sent
    again; then a running tournament with scheduled games and room in its window
    (ARENA_GAMES_IN_FLIGHT raised, say) sends more."""
    from arena.tournaments.models import Tournament
    from arena.tournaments.queueing import fill_window

    counts = {**leases.sweep(GAMES), "sent": 0}
    waiting = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, games__status=Game.Status.SCHEDULED
    ).distinct()
    for tournament_id in list(waiting.values_list("id", flat=True)):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
            counts["sent"] += fill_window(tournament)
    if counts["sent"]:
        log.info("games.window.filled %s", {"sent": counts["sent"]})
    return counts


def record_runner_kills() -> int:
    """Record, for their seats, the sandboxes this machine's watchdogs killed because the
    worker process running them died (``workers.watchdog.collect_kills``: labels
    ``game-<id>/<seat>``); returns how many seats were recorded."""
    from django.db.models import F

    from workers.watchdog import collect_kills

    recorded = 0
    now = timezone.now()
    for label in collect_kills():
        game, _, seat = label.removeprefix("game-").partition("/")
        if not (game.isdigit() and seat.isdigit()):
            continue
        recorded += GameSeat.objects.filter(game_id=int(game), seat=int(seat)).update(
            runner_kills=F("runner_kills") + 1, runner_killed_at=now
        )
        log.warning("game.runner.killed_sandbox %s", {"game_id": int(game), "seat": int(seat)})
    return recorded
