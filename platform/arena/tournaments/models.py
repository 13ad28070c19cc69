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
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="entries"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot_version"], name="entrant_unique")
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.bot_version} in {self.tournament}"
