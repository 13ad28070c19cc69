"""The work queue as the staff watch it: games scheduled, queued, running and failed per
tournament (a ladder is one), and running and failed per worker process, with the leases
that ran out and await the sweep. Read by the staff's queue page and ``/api/v1/queue/``.

Every query starts from an index: the active tournaments' games through (tournament, rated,
number), running and queued games through their partial indexes, recently failed ones
through theirs; nothing walks the whole games table.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, OuterRef, Q, Subquery
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.tournaments.models import Tournament

from .models import Game, GameSeat, WorkerSandbox

#: Failed games of tournaments no longer running are listed this long after they failed.
RECENT_FAILURES = timedelta(hours=24)
COUNTED = ("scheduled", "queued", "running", "failed", "finished")


@dataclass(frozen=True)
class TournamentQueue:
    id: int
    name: str
    title: str
    format: str
    status: str
    scheduled: int
    queued: int
    running: int
    failed: int
    finished: int
    expired: int  # running games whose lease ran out: their worker is lost
    oldest_queued_at: datetime | None


@dataclass(frozen=True)
class WorkerQueue:
    worker: str  # host:pid:suffix of one pool process
    running: int
    expired: int
    failed: int  # games it last held that failed in the last RECENT_FAILURES
    oldest_started_at: datetime | None


@dataclass(frozen=True)
class SandboxWatch:
    """What the sandboxes refused or ended lately, and how each worker confines bots."""

    refused_calls: int  # seats of games finished in the last RECENT_FAILURES
    memory_faults: int
    runner_kills: int  # seats whose sandbox was killed with its runner, lately
    flagged_versions: list[dict]  # {"id", "bot", "number", "review_reason"}
    workers: list[dict]  # {"worker", "cgroup", "confinement", "started_at"}


@dataclass(frozen=True)
class QueueStatus:
    at: datetime
    tournaments: list[TournamentQueue]
    workers: list[WorkerQueue]
    lease_seconds: int
    sweep_seconds: int
    games_in_flight: int
    sandbox: SandboxWatch | None = None

    @property
    def totals(self) -> dict[str, int]:
        """Each count summed over the tournaments listed."""
        return {k: sum(getattr(t, k) for t in self.tournaments) for k in (*COUNTED, "expired")}

    def as_dict(self) -> dict:
        return {**asdict(self), "totals": self.totals}


def queue_status(now: datetime | None = None) -> QueueStatus:
    """The queue at ``now``: every running or paused tournament, and any other with a game
    queued, running or failed in the last RECENT_FAILURES; every worker process holding a
    game or whose game failed lately."""
    now = now or timezone.now()
    since = now - RECENT_FAILURES
    failed_lately = Game.objects.filter(status=Game.Status.FAILED, finished_at__gte=since)
    ids = (
        set(
            Tournament.objects.filter(
                status__in=[Tournament.Status.RUNNING, Tournament.Status.PAUSED]
            ).values_list("id", flat=True)
        )
        | _tournaments_of(Game.objects.filter(status=Game.Status.QUEUED))
        | _tournaments_of(Game.objects.filter(status=Game.Status.RUNNING))
        | _tournaments_of(failed_lately)
    )
    return QueueStatus(
        at=now,
        tournaments=_per_tournament(ids, now),
        workers=_per_worker(now, failed_lately),
        lease_seconds=settings.ARENA_GAME_LEASE_SECONDS,
        sweep_seconds=settings.ARENA_SWEEP_SECONDS,
        games_in_flight=settings.ARENA_GAMES_IN_FLIGHT,
        sandbox=sandbox_watch(since),
    )


#: Fault kinds that are the sandbox's doing: a refused system call, an out-of-memory kill.
SANDBOX_FAULTS = ("refused", "memory")


def sandbox_watch(since) -> SandboxWatch:
    """Seats of games finished since ``since`` with refused calls or memory faults (counted
    from the faulted seats only), seats whose sandbox was killed with its runner since then,
    versions flagged at validation, and each worker's sandbox."""
    counts = dict.fromkeys(SANDBOX_FAULTS, 0)
    faulted = GameSeat.objects.filter(game__finished_at__gte=since, fault_count__gt=0)
    for faults in faulted.values_list("faults", flat=True).iterator():
        for kind in {f.get("kind") for f in faults or []} & set(SANDBOX_FAULTS):
            counts[kind] += 1
    flagged = (
        BotVersion.objects.exclude(review_reason="")
        .exclude(status=BotVersion.Status.WITHDRAWN)
        .select_related("bot")
        .order_by("-validated_at")[:50]
    )
    killed = GameSeat.objects.filter(runner_killed_at__gte=since)  # its partial index
    return SandboxWatch(
        refused_calls=counts["refused"],
        memory_faults=counts["memory"],
        runner_kills=killed.count(),
        flagged_versions=[
            {
                "id": v.pk,
                "bot": v.bot.name,
                "bot_id": v.bot_id,
                "number": v.number,
                "review_reason": v.review_reason,
            }
            for v in flagged
        ],
        workers=list(
            WorkerSandbox.objects.order_by("-started_at").values(
                "worker", "cgroup", "confinement", "started_at"
            )[:50]
        ),
    )


def _tournaments_of(games) -> set[int]:
    return set(games.values_list("tournament_id", flat=True).distinct())


def _expired(now) -> Q:
    return Q(status=Game.Status.RUNNING, lease_until__lt=now)


def _per_tournament(ids: set[int], now) -> list[TournamentQueue]:
    """Each tournament's games by status. Only the games not finished are counted (by the
    partial index ``game_unfinished``); the finished ones are the rest of its numbers (a
    tournament numbers its games 1, 2, … as it creates them), so a ladder's row costs its
    open and failed games, not its history."""
    unfinished = [name for name in COUNTED if name != Game.Status.FINISHED]
    counts = {
        row.pop("tournament_id"): row
        for row in Game.objects.filter(tournament_id__in=ids)
        .exclude(status=Game.Status.FINISHED)
        .values("tournament_id")
        .annotate(
            **{name: Count("id", filter=Q(status=name)) for name in unfinished},
            expired=Count("id", filter=_expired(now)),
            oldest_queued_at=Min("queued_at", filter=Q(status=Game.Status.QUEUED)),
            open=Count("id"),
        )
    }
    empty = dict.fromkeys((*unfinished, "expired", "open"), 0) | {"oldest_queued_at": None}
    last = Game.objects.filter(tournament=OuterRef("pk")).order_by("-number").values("number")
    tournaments = (
        Tournament.objects.filter(pk__in=ids)
        .order_by("-id")
        .only("id", "name", "title", "format", "status")
        .annotate(numbered=Subquery(last[:1]))
    )
    rows = []
    for t in tournaments:
        row = dict(counts.get(t.pk, empty))
        not_finished = row.pop("open")
        rows.append(
            TournamentQueue(
                id=t.pk,
                name=t.name,
                title=t.title,
                format=t.format,
                status=t.status,
                finished=(t.numbered or 0) - not_finished,
                **row,
            )  # fmt: skip
        )
    return rows


def _per_worker(now, failed_lately) -> list[WorkerQueue]:
    running = {
        row["worker"]: row
        for row in Game.objects.filter(status=Game.Status.RUNNING)
        .values("worker")
        .annotate(
            running=Count("id"),
            expired=Count("id", filter=Q(lease_until__lt=now)),
            oldest_started_at=Min("started_at"),
        )
    }
    failed = dict(failed_lately.values("worker").annotate(n=Count("id")).values_list("worker", "n"))
    return [
        WorkerQueue(
            worker=name or "?",
            running=running.get(name, {}).get("running", 0),
            expired=running.get(name, {}).get("expired", 0),
            failed=failed.get(name, 0),
            oldest_started_at=running.get(name, {}).get("oldest_started_at"),
        )
        for name in sorted(set(running) | set(failed))
    ]


def chart(status: QueueStatus) -> dict:
    """A stacked bar per tournament (scheduled, queued, running, failed) as Plotly JSON."""
    names = [f"{t.name} (#{t.id})" for t in status.tournaments]
    colours = {
        "scheduled": "#aab7b8",
        "queued": "#f5b041",
        "running": "#2e86c1",
        "failed": "#c0392b",
    }
    return {
        "data": [
            {
                "type": "bar",
                "orientation": "h",  # long tournament names read beside their bars
                "name": kind,
                "y": names,
                "x": [getattr(t, kind) for t in status.tournaments],
                "marker": {"color": colour},
            }
            for kind, colour in colours.items()
        ],
        "layout": {
            "barmode": "stack",
            "height": 140 + 28 * len(names),
            "margin": {"l": 20, "r": 20, "t": 20, "b": 50},
            "xaxis": {"title": {"text": "games"}},
            "yaxis": {"title": {"text": "tournament"}, "automargin": True},
            "legend": {"orientation": "h", "y": 1.1},
        },
    }
