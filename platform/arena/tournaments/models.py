"""Tournaments: who plays what, in which format, and how far it has got."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from workers.limits import DEFAULT_LIMITS


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
    decision_ms = models.PositiveIntegerField(default=DEFAULT_LIMITS.decision_ms)
    bank_ms = models.PositiveIntegerField(default=DEFAULT_LIMITS.bank_ms)
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

    @property
    def is_open(self) -> bool:
        return self.status in (self.Status.RUNNING, self.Status.PAUSED)

    def limits(self) -> dict:
        return {"decision_ms": self.decision_ms, "bank_ms": self.bank_ms}


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
