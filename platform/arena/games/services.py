"""The game lifecycle on the worker side: claim with a lease, store a result once, release
after an infrastructure error, and the sweeper that recovers games held by lost workers."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.services import SeatPlan, plan_seat
from arena.queue import enqueue_game, enqueue_games, resend_unclaimed
from arena.sql import cursor, for_update, from_json, insert_rows, now_param, pipeline, to_json

from .analytics import store_analytics
from .models import Game, GameSeat

log = logging.getLogger("arena.games")


@dataclass(frozen=True)
class MatchJob:
    """Everything a worker needs to run a claimed game and store its result; plain values,
    no model objects. What it says of the game (tournament, title, options, the versions
    seated) never changes once the game exists, so the store trusts it."""

    game_id: int
    title: str
    seats: list[SeatPlan]
    seed: int
    options: dict[str, Any]
    limits: dict[str, int] = field(default_factory=dict)
    tournament_id: int = 0
    seat_versions: tuple[int, ...] = ()  # bot version id per seat


def claim_game(game_id: int, *, worker: str) -> MatchJob | None:
    """queued -> running with a lease. None when the game is gone, not queued (a duplicate
    delivery, a paused or cancelled tournament), or another worker has it.

    On PostgreSQL one prepared statement (see ``arena.sql``): the conditional UPDATE, and
    the seats with their versions and the tournament joined to the row it returned, so a
    claim is one round trip and reads nothing when it claims nothing. Elsewhere (SQLite,
    whose UPDATE cannot sit in a WITH) the UPDATE, then the same read."""
    now = timezone.now()
    lease_until = now + timedelta(seconds=settings.ARENA_GAME_LEASE_SECONDS)
    params = [worker[:255], now_param(lease_until), now_param(now), game_id]
    with cursor() as claim:
        if connection.vendor == "postgresql":
            claim.execute(CLAIM_SQL, [*params, game_id])
            rows = claim.fetchall()
        else:
            claim.execute(CLAIM_UPDATE_SQL, params)
            rows = claim.fetchall() and _read_claimed(claim, game_id)
    if not rows:
        log.info("game.claim.skipped %s", {"game_id": game_id, "worker": worker})
        return None
    tournament_id, seed, options, title, decision_ms, bank_ms = rows[0][:6]
    log.info("game.claimed %s", {"game_id": game_id, "worker": worker})
    return MatchJob(
        game_id=game_id,
        title=title,
        seats=[_seat_plan(*row[7:]) for row in rows],
        seed=seed,
        options=from_json(options),
        limits={
            "decision_ms": decision_ms,
            "bank_ms": bank_ms,
            "memory_mb": settings.ARENA_BOT_MEMORY_MB,
            "stderr_bytes": settings.ARENA_BOT_STDERR_BYTES,
        },
        tournament_id=tournament_id,
        seat_versions=tuple(row[6] for row in rows),
    )


def _read_claimed(claim, game_id: int) -> list:
    claim.execute(CLAIM_READ_SQL, [game_id])
    return claim.fetchall()


# queued -> running with a lease, only if still queued.
CLAIM_UPDATE_SQL = """
    UPDATE games_game
    SET status = 'running', worker = %s, lease_until = %s, attempts = attempts + 1,
        started_at = %s
    WHERE id = %s AND status = 'queued'
    RETURNING id, tournament_id, seed, options
"""
# What a claim reads, from the game's row ({game}): no replay record, stats or stderr.
CLAIMED_SQL = """
    SELECT g.tournament_id, g.seed, g.options, t.title, t.decision_ms, t.bank_ms, v.id,
           v.kind, v.builtin_name, v.sha256, v.artifact_format, v.entry, v.number, b.name,
           u.username
    FROM games_gameseat s
    JOIN {game} g ON g.id = s.game_id
    JOIN tournaments_tournament t ON t.id = g.tournament_id
    JOIN bots_botversion v ON v.id = s.bot_version_id
    JOIN bots_bot b ON b.id = v.bot_id
    JOIN auth_user u ON u.id = b.owner_id
    WHERE s.game_id = %s
    ORDER BY s.seat
"""
CLAIM_READ_SQL = CLAIMED_SQL.format(game="games_game")
# Both in one statement (PostgreSQL): the read joins the row the UPDATE returned.
CLAIM_SQL = f"WITH claimed AS ({CLAIM_UPDATE_SQL}) {CLAIMED_SQL.format(game='claimed')}"


def _seat_plan(kind, builtin_name, sha256, artifact_format, entry, number, bot_name, username):
    """A seat plan from the version columns of a CLAIM_SQL row."""
    return plan_seat(
        kind=kind,
        builtin_name=builtin_name,
        sha256=sha256,
        artifact_format=artifact_format,
        entry=entry,
        label=BotVersion.make_label(username, bot_name, number),
    )


def store_game_result(job: MatchJob, outcome: dict[str, Any]) -> bool:
    """Store a claimed game's result in one transaction: seats, analytics rows, replay
    record, capped stderr, then ratings in game order. False (nothing changed) if it was
    stored already or is no longer running.

    ``outcome`` is the match runner's JSON: ``result`` (scores, ranks, winners, details, stats),
    ``record``, ``faults`` / ``seat_status`` / ``stderr`` per seat, ``timings``.

    Raw prepared SQL (see ``arena.sql``) in two round trips on PostgreSQL: (1) BEGIN, lock
    the tournament row (the lock every writer of a running game takes first), finish the
    game if still running, write the seats and the analytics rows, queue the tournament's
    next scheduled game (sent on commit: see ``fill_window``), read the ratable games
    (which also checks that rated games form a prefix); (2) the rating writes and COMMIT.
    A ladder first tops up its games in the same transaction, and the last game of any
    tournament finishes it, each at the cost of a few more statements and a round trip.
    """
    from arena.ratings import services as ratings
    from arena.tournaments.models import Tournament
    from arena.tournaments.services import QUEUE_NEXT_SQL, finish_if_done, top_up_ladder

    if not (job.tournament_id and job.seat_versions):
        raise ValueError("store_game_result needs the MatchJob that claim_game returned")
    game_id, tournament_id = job.game_id, job.tournament_id
    result = outcome["result"]
    record = outcome.get("record") or {}
    seats = _result_seats(job, result, outcome)
    # Outside any other transaction, the COMMIT can go out with round trip 2 (below).
    own_transaction = not connection.in_atomic_block
    pipelined = connection.vendor == "postgresql"  # elsewhere each statement is a round trip
    with transaction.atomic(), contextlib.ExitStack() as cursors:
        lock, finish, send, read, write = (cursors.enter_context(cursor()) for _ in range(5))
        now = now_param(timezone.now())
        with pipeline():  # round trip 1, at its end
            lock.execute(LOCK_TOURNAMENT_SQL + for_update(), [tournament_id])
            finish.execute(
                FINISH_GAME_SQL,
                [
                    now,
                    to_json(record),
                    to_json(result.get("stats") or {}),
                    str(record.get("engine_version", "")),
                    str(record.get("rules_version", "")),
                    _match_ms(outcome),
                    game_id,
                ],
            )
            # Written before the finishing UPDATE is read: if it found the game no longer
            # running, the whole transaction rolls back below.
            insert_rows(write, GameSeat, SEAT_COLUMNS, [s.row(game_id) for s in seats], SEATS_TAIL)
            store_analytics(write, job, outcome)
            send.execute(QUEUE_NEXT_SQL, [now, tournament_id])  # fair share: the next game
            ratings.read_ratable(read, tournament_id)
        (form,) = lock.fetchone()
        if finish.fetchone() is None:
            transaction.set_rollback(True)
            log.info("game.store.skipped %s", {"game_id": game_id})
            return False
        for (next_game,) in send.fetchall():
            enqueue_game(next_game)  # on commit
        ladder = form == Tournament.Format.LADDER
        with pipeline():  # round trip 2
            pending = ratings.rate_ratable(read.fetchall(), tournament_id, write)
            # Nothing else to write (no ladder to top up, a game still open so no tournament
            # to finish): the COMMIT goes out now, and Django's commit at the block's end
            # finds nothing to do. Inside an outer block (tests) this block is a savepoint,
            # which Django releases.
            if own_transaction and not ladder and pending.open_game and pipelined:
                write.execute("COMMIT")
        if ladder:
            top_up_ladder(Tournament.objects.get(pk=tournament_id))
            finish_if_done(tournament_id)
        elif not pending.open_game:  # else the ratable read saw a game still to play
            finish_if_done(tournament_id)
    ratings.report_invariants(tournament_id, pending.changes, pending.rated_after)
    log.info("game.stored %s", {"game_id": game_id})
    return True


LOCK_TOURNAMENT_SQL = "SELECT format FROM tournaments_tournament WHERE id = %s"
FINISH_GAME_SQL = """
    UPDATE games_game
    SET status = 'finished', finished_at = %s, lease_until = NULL, record = %s, stats = %s,
        engine_version = %s, rules_version = %s, match_ms = %s, error = ''
    WHERE id = %s AND status = 'running'
    RETURNING id
"""
# Every seat row exists (made with the game); one INSERT ... ON CONFLICT rewrites them all.
SEAT_COLUMNS = [
    "game_id", "seat", "bot_version_id", "score", "rank", "rating_rank", "winner", "status",
    "fault_count", "faults", "details", "stderr",
]  # fmt: skip
SEATS_TAIL = " ON CONFLICT (game_id, seat) DO UPDATE SET " + ", ".join(
    f"{c} = excluded.{c}" for c in SEAT_COLUMNS[3:]
)


@dataclass(slots=True)
class SeatResult:
    """One seat of a finished game as the store writes it (plain values, not a model: every
    stored game builds one per seat)."""

    seat: int
    bot_version_id: int
    score: int | None
    rank: int | None
    winner: bool
    status: str
    faults: list
    details: dict
    stderr: str
    rating_rank: int | None = None

    def row(self, game_id: int) -> list:
        """Its values in SEAT_COLUMNS order."""
        return [
            game_id, self.seat, self.bot_version_id, self.score, self.rank, self.rating_rank,
            self.winner, self.status, len(self.faults), to_json(self.faults),
            to_json(self.details), self.stderr,
        ]  # fmt: skip


SEAT_STATUSES = frozenset(GameSeat.Status.values)


def _result_seats(job: MatchJob, result: dict, outcome: dict) -> list[SeatResult]:
    """Each seat's score, rank, win, status, faults, details and capped stderr from the
    runner's outcome; a seat with faults is faulted whatever the runner said."""
    from arena.ratings.services import rating_ranks

    n = len(job.seat_versions)
    scores = result.get("scores") or [None] * n
    ranks = result.get("ranks") or [None] * n
    winners = set(result.get("winners") or [])
    details = result.get("details") or [{}] * n
    faults = outcome.get("faults") or [[] for _ in range(n)]
    statuses = outcome.get("seat_status") or [GameSeat.Status.OK] * n
    stderr = outcome.get("stderr") or [""] * n
    cap = settings.ARENA_BOT_STDERR_BYTES
    seats = []
    for i, version in enumerate(job.seat_versions):
        seat_faults = list(faults[i] or [])
        status = statuses[i] if statuses[i] in SEAT_STATUSES else GameSeat.Status.FAULTED
        if status == GameSeat.Status.OK and seat_faults:
            status = GameSeat.Status.FAULTED
        text = stderr[i] or ""
        seats.append(
            SeatResult(
                seat=i,
                bot_version_id=version,
                score=scores[i],
                rank=ranks[i],
                winner=i in winners,
                status=str(status),
                faults=seat_faults,
                details=details[i] or {},
                stderr=text[-cap:] if cap else "",
            )
        )
    for seat, rank in zip(seats, rating_ranks(seats), strict=True):
        seat.rating_rank = rank
    return seats


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
    from arena.tournaments.services import fill_window, finish_if_done, top_up_ladder

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
        fill_window(tournament)  # the failed game's place in the window
        finish_if_done(tournament.pk)
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
    makes a duplicate message harmless; a running tournament with scheduled games and room
    in its window (ARENA_GAMES_IN_FLIGHT raised, say) sends more."""
    from arena.tournaments.models import Tournament
    from arena.tournaments.services import fill_window

    now = timezone.now()
    counts = {"requeued": 0, "failed": 0, "resent": 0, "sent": 0}
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
        unclaimed = Game.objects.filter(status=Game.Status.QUEUED, queued_at__lt=stale)
        counts["resent"] = resend_unclaimed(unclaimed, enqueue_games, now=now)
    waiting = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, games__status=Game.Status.SCHEDULED
    ).distinct()
    for tournament_id in list(waiting.values_list("id", flat=True)):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
            counts["sent"] += fill_window(tournament)
    if any(counts.values()):
        log.info("games.swept %s", counts)
    return counts
