"""The game lifecycle on the worker side: claim with a lease, store a result once, release
after an infrastructure error, and the sweeper that recovers games held by lost workers."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.bots.services import SeatPlan, seat_plan
from arena.queue import enqueue_game

from .analytics import store_analytics
from .models import Game, GameSeat

log = logging.getLogger("arena.games")


@dataclass(frozen=True)
class MatchJob:
    """Everything a worker needs to run a claimed game; plain values, no model objects."""

    game_id: int
    title: str
    seats: list[SeatPlan]
    seed: int
    options: dict[str, Any]
    limits: dict[str, int] = field(default_factory=dict)


def claim_game(game_id: int, *, worker: str) -> MatchJob | None:
    """queued -> running with a lease. None when the game is gone, not queued (a duplicate
    delivery, a paused or cancelled tournament), or another worker has it."""
    game = Game.objects.select_related("tournament").filter(pk=game_id).first()
    if game is None or not game.claim(worker, settings.ARENA_GAME_LEASE_SECONDS):
        log.info("game.claim.skipped %s", {"game_id": game_id, "worker": worker})
        return None
    seats = game.seats.select_related("bot_version__bot__owner").order_by("seat")
    tournament = game.tournament
    log.info("game.claimed %s", {"game_id": game_id, "worker": worker})
    return MatchJob(
        game_id=game.pk,
        title=tournament.title,
        seats=[seat_plan(s.bot_version) for s in seats],
        seed=game.seed,
        options=game.options,
        limits={
            "decision_ms": tournament.decision_ms,
            "bank_ms": tournament.bank_ms,
            "memory_mb": settings.ARENA_BOT_MEMORY_MB,
            "stderr_bytes": settings.ARENA_BOT_STDERR_BYTES,
        },
    )


SEAT_FIELDS = [
    "score", "rank", "rating_rank", "winner", "status", "fault_count", "faults", "details",
    "stderr",
]  # fmt: skip
STORED_FIELDS = [
    "status", "finished_at", "lease_until", "record", "stats", "engine_version",
    "rules_version", "match_ms", "error",
]  # fmt: skip


def store_game_result(game_id: int, outcome: dict[str, Any]) -> bool:
    """Store a finished game in one transaction: seats, analytics rows, replay record, capped
    stderr, then ratings in game order. False (nothing changed) if it was stored already or is
    no longer running.

    ``outcome`` is the match runner's JSON: ``result`` (scores, ranks, winners, details, stats),
    ``record``, ``faults`` / ``seat_status`` / ``stderr`` per seat, ``timings``.
    """
    from arena.ratings.services import apply_pending_ratings
    from arena.tournaments.models import Tournament
    from arena.tournaments.services import finish_if_done, top_up_ladder

    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != Game.Status.RUNNING:
            log.info("game.store.skipped %s", {"game_id": game_id, "status": game.status})
            return False
        result = outcome["result"]
        seats = list(game.seats.order_by("seat"))
        _fill_seats(seats, result, outcome)
        for seat in seats:  # a few plain UPDATEs compile faster than one bulk CASE update
            seat.save(update_fields=SEAT_FIELDS)
        record = outcome.get("record") or {}
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.lease_until = None
        game.record = record
        game.stats = result.get("stats") or {}
        game.engine_version = str(record.get("engine_version", ""))
        game.rules_version = str(record.get("rules_version", ""))
        game.match_ms = _match_ms(outcome)
        game.error = ""
        game.save(update_fields=STORED_FIELDS)
        store_analytics(game, result, game.tournament.title)
        apply_pending_ratings(game.tournament_id, locked=True)
        tournament = game.tournament
        if tournament.format == Tournament.Format.LADDER:
            top_up_ladder(tournament)
        finish_if_done(tournament)
    log.info("game.stored %s", {"game_id": game_id})
    return True


def _fill_seats(seats: list[GameSeat], result: dict, outcome: dict) -> None:
    from arena.ratings.services import rating_ranks

    n = len(seats)
    scores = result.get("scores") or [None] * n
    ranks = result.get("ranks") or [None] * n
    winners = set(result.get("winners") or [])
    details = result.get("details") or [{}] * n
    faults = outcome.get("faults") or [[] for _ in range(n)]
    statuses = outcome.get("seat_status") or [GameSeat.Status.OK] * n
    stderr = outcome.get("stderr") or [""] * n
    cap = settings.ARENA_BOT_STDERR_BYTES
    for i, seat in enumerate(seats):
        seat.score = scores[i]
        seat.rank = ranks[i]
        seat.winner = i in winners
        seat.faults = list(faults[i] or [])
        seat.fault_count = len(seat.faults)
        status = statuses[i] if statuses[i] in GameSeat.Status.values else GameSeat.Status.FAULTED
        if status == GameSeat.Status.OK and seat.fault_count:
            status = GameSeat.Status.FAULTED
        seat.status = status
        seat.details = details[i] or {}
        text = stderr[i] or ""
        seat.stderr = text[-cap:] if cap else ""
    for seat, rank in zip(seats, rating_ranks(seats), strict=True):
        seat.rating_rank = rank


def _match_ms(outcome: dict) -> int | None:
    value = outcome.get("match_ms")
    return int(value) if isinstance(value, int | float) else None


def release_game(game_id: int, *, reason: str) -> str:
    """After an infrastructure error (not a bot fault): requeue the game, or fail it after
    ARENA_GAME_MAX_ATTEMPTS attempts. Returns the new status."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != Game.Status.RUNNING:
            return game.status
        return _requeue_or_fail(game, reason)


def _lock_game(game_id: int) -> Game:
    """Lock the game's tournament, then the game: every writer takes them in this order, so
    a worker storing a game and the sweeper recovering one never deadlock."""
    from arena.tournaments.models import Tournament

    tournament = Tournament.objects.select_for_update().get(games__pk=game_id)
    game = Game.objects.select_for_update().get(pk=game_id)
    game.tournament = tournament  # the locked row, fresh
    return game


def _requeue_or_fail(game: Game, reason: str) -> str:
    from arena.ratings.services import apply_pending_ratings
    from arena.tournaments.services import finish_if_done, top_up_ladder

    game.lease_until = None
    game.error = reason[:4000]
    if game.attempts >= settings.ARENA_GAME_MAX_ATTEMPTS:
        game.status = Game.Status.FAILED
        game.finished_at = timezone.now()
        game.error = f"gave up after {game.attempts} attempts; last: {reason}"[:4000]
        game.save(update_fields=["status", "lease_until", "error", "finished_at"])
        log.warning("game.failed %s", {"game_id": game.pk, "reason": reason})
        apply_pending_ratings(game.tournament_id)
        tournament = game.tournament
        if tournament.format == tournament.Format.LADDER:
            top_up_ladder(tournament)
        finish_if_done(tournament)
    else:
        game.status = Game.Status.QUEUED
        game.queued_at = timezone.now()
        game.save(update_fields=["status", "lease_until", "error", "queued_at"])
        enqueue_game(game.pk)
        log.warning("game.requeued %s", {"game_id": game.pk, "reason": reason})
    return game.status


def sweep_games() -> dict[str, int]:
    """One sweep: running games whose lease expired are requeued (or failed after K attempts);
    queued games nobody claimed for ARENA_QUEUED_RESEND_SECONDS are sent again, since a claim
    makes a duplicate message harmless."""
    now = timezone.now()
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    expired = Game.objects.filter(status=Game.Status.RUNNING, lease_until__lt=now)
    for game_id in list(expired.values_list("id", flat=True)):
        with transaction.atomic():
            game = _lock_game(game_id)
            if game.status != Game.Status.RUNNING or game.lease_until >= now:
                continue  # stored or renewed meanwhile
            status = _requeue_or_fail(game, f"lease expired on worker {game.worker or '?'}")
            counts["failed" if status == Game.Status.FAILED else "requeued"] += 1
    stale = now - timedelta(seconds=settings.ARENA_QUEUED_RESEND_SECONDS)
    with transaction.atomic():
        ids = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(status=Game.Status.QUEUED, queued_at__lt=stale)
            .values_list("id", flat=True)
        )
        Game.objects.filter(pk__in=ids).update(queued_at=now)
        for game_id in ids:
            enqueue_game(game_id)
        counts["resent"] = len(ids)
    if any(counts.values()):
        log.info("games.swept %s", counts)
    return counts
