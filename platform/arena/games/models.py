"""Games, their seats, and per-title analytics rows the dashboards aggregate in SQL."""

from __future__ import annotations

from django.db import models
from django.urls import reverse


class Game(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "scheduled"  # created, not sent yet (fair share, or paused)
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        FAILED = "failed", "failed"
        VOID = "void", "void"

    DONE = (Status.FINISHED, Status.FAILED, Status.VOID)

    # No index of its own: the unique (tournament, number) serves lookups by tournament.
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="games", db_index=False
    )
    # Position in the tournament; ratings are applied in this order.
    number = models.PositiveIntegerField()
    # Duplicate format: games of one table share it (same seed, seats rotated).
    table = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField()
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=255, blank=True)
    error = models.TextField(blank=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    match_ms = models.PositiveIntegerField(null=True, blank=True)
    engine_version = models.CharField(max_length=32, blank=True)
    rules_version = models.CharField(max_length=64, blank=True)
    record = models.JSONField(null=True, blank=True)
    stats = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="game_number_unique")
        ]
        ordering = ["tournament", "number"]
        # Every game row is updated three times (claimed, finished, rated), each time in
        # every index whose columns or condition it touches: few indexes, and the sweeper's
        # only over the games it looks for.
        indexes = [
            models.Index(fields=["tournament", "rated", "number"]),
            models.Index(
                fields=["lease_until"],
                condition=models.Q(status="running"),
                name="game_running_lease",
            ),
            models.Index(
                fields=["queued_at"], condition=models.Q(status="queued"), name="game_queued_since"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.tournament}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    def seed_is_public(self) -> bool:
        """The seed fixes the whole deal: shown once no game dealt from it is left to play
        (the seat rotations of a duplicate table share one)."""
        if self.status not in self.DONE:
            return False
        dealt_alike = Game.objects.filter(tournament_id=self.tournament_id, seed=self.seed)
        return not dealt_alike.exclude(status__in=self.DONE).exists()


class GameSeat(models.Model):
    class Status(models.TextChoices):
        OK = "ok", "ok"
        FAULTED = "faulted", "faulted"
        DISQUALIFIED = "disqualified", "disqualified"

    # No index of its own: the unique (game, seat) serves lookups by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="seats"
    )
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # Rank used for ratings: faulted seats below every clean seat.
    rating_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.BooleanField(default=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OK)
    fault_count = models.PositiveIntegerField(default=0)
    faults = models.JSONField(default=list, blank=True)
    details = models.JSONField(default=dict, blank=True)
    stderr = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="game_seat_unique")]
        ordering = ["game", "seat"]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.game}"


class CitadelsCharacterHeld(models.Model):
    """Citadels: which character a seat held in a round (one row per seat per round)."""

    # Every stored game writes a few dozen of these rows, only ever for the game it has just
    # finished under that game's lock, so the database's foreign-key check (a lookup of the
    # game per row at commit) would only repeat what the store knows: it cost the server
    # about 0.2 ms per game. Deleting a game still deletes its rows (Django cascades).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="characters_held", db_constraint=False
    )
    seat = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    # Not indexed: dashboards aggregate over every row, which an index does not speed up,
    # and each game would write a few dozen entries to it.
    character = models.CharField(max_length=64)
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "round", "seat"]

    def __str__(self) -> str:
        return f"{self.character} at seat {self.seat}, round {self.round}"


class PragaCraneConfiguration(models.Model):
    """Praga: the crane configuration a game was played with (one row per game)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="crane_configuration")
    configuration = models.CharField(max_length=200)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [models.Index(fields=["configuration"], name="crane_configuration")]

    def __str__(self) -> str:
        return self.configuration
