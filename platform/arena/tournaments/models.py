"""Tournaments: who plays what, in which format, and how far it has got."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import models, transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from arena import pagecache
from arena.games.models import Game

log = logging.getLogger("arena.tournaments")


def default_decision_ms() -> int:
    """The platform's time for one decision (ARENA_BOT_DECISION_MS, ``ARENA_BOT_LIMITS``)."""
    return settings.ARENA_BOT_LIMITS.decision_ms


def default_bank_ms() -> int:
    """The platform's time bank per game (ARENA_BOT_BANK_MS, ``ARENA_BOT_LIMITS``)."""
    return settings.ARENA_BOT_LIMITS.bank_ms


class TournamentError(ValueError):
    """A tournament change that is not allowed now; the message says why."""


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin (seat-balanced tables)"
        DUPLICATE = "duplicate", "duplicate (same seed, seats rotated)"
        LADDER = "ladder", "ladder (continuous)"

    class Status(models.TextChoices):
        DRAFT = "draft", "draft"
        RUNNING = "running", "running"
        PAUSED = "paused", "paused"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "cancelled"

    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(max_length=100)
    title = models.CharField(max_length=32, db_index=True)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, help_text="resolved rule options of the title")
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.ROUND_ROBIN)
    # Round robin and duplicate: how many rounds; ladder: how many games before it closes.
    rounds = models.PositiveIntegerField(default=1)
    ladder_games = models.PositiveIntegerField(default=0)
    # A standing ladder never closes: bots' newest versions join and leave it as they are
    # uploaded, withdrawn or suspended (arena.tournaments.ladders).
    standing = models.BooleanField(default=False, db_index=True)
    # The tournament's time control; every other limit is the platform's (ARENA_BOT_LIMITS).
    decision_ms = models.PositiveIntegerField(default=default_decision_ms)
    bank_ms = models.PositiveIntegerField(default=default_bank_ms)
    seed = models.BigIntegerField(default=1)
    entrants = models.ManyToManyField("bots.BotVersion", through="Entrant", related_name="+")
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    created = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    def can_edit(self, user) -> bool:
        """Only its organiser (and staff) may change, start, pause or cancel it."""
        return user.is_authenticated and (user.pk == self.organiser_id or user.is_staff)

    def seed_is_public(self) -> bool:
        """Every game's seed derives from it: shown once no game is left to play."""
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    # -- transitions: each locks the row, checks the status it leaves, and saves -------------
    # (Every writer of a running game locks the tournament's row first, so a transition and
    # a store or a sweep never interleave.) Call them inside the caller's transaction when
    # more follows (games created, the window filled); each is atomic on its own.

    def start(self) -> None:
        """draft -> running; the caller creates the games in the same transaction."""
        self._move(
            (self.Status.DRAFT,),
            self.Status.RUNNING,
            "only a draft can start",
            started_at=timezone.now(),
        )

    def pause(self) -> None:
        """running -> paused: queued games go back to scheduled (running ones finish)."""
        with transaction.atomic():
            self._move((self.Status.RUNNING,), self.Status.PAUSED, "only a running one pauses")
            self.games.filter(status=Game.Status.QUEUED).update(status=Game.Status.SCHEDULED)

    def resume(self) -> None:
        """paused -> running; the caller queues its games again, up to the window."""
        self._move((self.Status.PAUSED,), self.Status.RUNNING, "only a paused one resumes")

    def cancel(self) -> None:
        """draft, running or paused -> cancelled: games not started are void; running ones
        finish."""
        with transaction.atomic():
            self._move(
                (self.Status.DRAFT, self.Status.RUNNING, self.Status.PAUSED),
                self.Status.CANCELLED,
                "only one not over can be cancelled",
                finished_at=timezone.now(),
            )
            self.games.filter(status__in=[Game.Status.SCHEDULED, Game.Status.QUEUED]).update(
                status=Game.Status.VOID, error="tournament cancelled"
            )

    @classmethod
    def finish_if_done(cls, tournament_id: int) -> bool:
        """running -> finished once every game is done (and, for a ladder, its budget spent);
        a standing ladder never finishes. Whether it finished now.

        One conditional UPDATE, so it takes no lock of its own. An open game is never rated,
        so looking among unrated games finds one with the (tournament, rated, number) index.
        A ladder's games are numbered from 1 as they are made, so its budget is spent once
        its game numbered ``ladder_games`` exists: one probe of the (tournament, number)
        index. Counting its games instead cost a standing ladder's every store 15 ms at
        500,000 games (PostgreSQL evaluated the count before the standing flag,
        bench/history.py)."""
        games = Game.objects.filter(tournament=OuterRef("pk"))
        open_game = games.filter(rated=False).exclude(status__in=Game.DONE)
        budget_spent = Exists(games.filter(number__gte=OuterRef("ladder_games")))
        finished = (
            cls.objects.filter(pk=tournament_id, status=cls.Status.RUNNING)
            .exclude(Exists(open_game))
            .exclude(standing=True)
            .exclude(Q(format=cls.Format.LADDER, ladder_games__gt=0) & ~budget_spent)
            .update(status=cls.Status.FINISHED, finished_at=timezone.now())
        ) == 1
        if finished:
            log.info("tournament.finished %s", {"tournament_id": tournament_id})
            pagecache.changed(tournaments=(tournament_id,))
        return finished

    def _move(self, leaves: tuple[str, ...], to: str, refusal: str, **fields) -> None:
        """Lock this row, check its status is one of ``leaves`` (TournamentError: it is
        not, and ``refusal``), then save status ``to`` and ``fields``."""
        with transaction.atomic():
            status = type(self).objects.select_for_update().values_list("status", flat=True)
            self.status = status.get(pk=self.pk)
            if self.status not in leaves:
                raise TournamentError(f"The tournament is {self.status}; {refusal}.")
            self.status = to
            for name, value in fields.items():
                setattr(self, name, value)
            self.save(update_fields=["status", *fields])


class Entrant(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "active"
        REPLACED = "replaced", "replaced by a newer version"
        WITHDRAWN = "withdrawn", "withdrawn by its owner"
        SUSPENDED = "suspended", "suspended (its games kept faulting)"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="entries"
    )
    # Only a standing ladder's entrants change status; matchmaking seats active ones.
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    reason = models.TextField(blank=True)
    joined_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    # Games planned for it in this competition (queued, running or played), in all and per
    # seat: what matchmaking balances, kept here so a top-up reads no game rows.
    planned_games = models.PositiveIntegerField(default=0)
    seat_games = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot_version"], name="entrant_unique")
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.bot_version} in {self.tournament}"


class Challenge(models.Model):
    """An owner's request for ``games`` games now, on a standing ladder, between their bot's
    version and chosen opponents; its games are queued ahead of the ladder's own."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="challenges")
    requester = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges"
    )
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="challenges"
    )
    opponents = models.ManyToManyField("bots.BotVersion", related_name="+")
    games = models.ManyToManyField("games.Game", related_name="challenges", blank=True)
    game_count = models.PositiveIntegerField()
    created = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"challenge {self.pk}: {self.bot_version} x{self.game_count}"
