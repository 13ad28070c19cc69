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
from django.db.models import Count, Min, Q
from django.utils import timezone

from arena.tournaments.models import Tournament

from .models import Game

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
class QueueStatus:
    at: datetime
    tournaments: list[TournamentQueue]
    workers: list[WorkerQueue]
    lease_seconds: int
    sweep_seconds: int
    games_in_flight: int

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
    )


def _tournaments_of(games) -> set[int]:
    return set(games.values_list("tournament_id", flat=True).distinct())


def _expired(now) -> Q:
    return Q(status=Game.Status.RUNNING, lease_until__lt=now)


def _per_tournament(ids: set[int], now) -> list[TournamentQueue]:
    counts = {
        row.pop("tournament_id"): row
        for row in Game.objects.filter(tournament_id__in=ids)
        .values("tournament_id")
        .annotate(
            **{name: Count("id", filter=Q(status=name)) for name in COUNTED},
            expired=Count("id", filter=_expired(now)),
            oldest_queued_at=Min("queued_at", filter=Q(status=Game.Status.QUEUED)),
        )
    }
    empty = dict.fromkeys((*COUNTED, "expired"), 0) | {"oldest_queued_at": None}
    tournaments = Tournament.objects.filter(pk__in=ids).order_by("-id")
    return [
        TournamentQueue(
            id=t.pk,
            name=t.name,
            title=t.title,
            format=t.format,
            status=t.status,
            **counts.get(t.pk, empty),
        )
        for t in tournaments.only("id", "name", "title", "format", "status")
    ]


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
