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
            # Only the games still to be played: whether a seed is public yet (a games list
            # asks it of every row) is one probe of a small index.
            models.Index(
                fields=["tournament", "seed"],
                condition=~models.Q(status__in=["finished", "failed", "void"]),
                name="game_undone_seed",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.tournament}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    def seed_is_public(self) -> bool:
        """The seed fixes the whole deal: shown once no game dealt from it is left to play
        (the seat rotations of a duplicate table share one). A list reads it from the
        ``deal_pending`` annotation (:func:`deal_pending`), one sub-query per row in the
        list's own statement, instead of a statement per game."""
        if self.status not in self.DONE:
            return False
        pending = getattr(self, "deal_pending", None)
        if pending is None:
            return not self._dealt_alike().filter(undone_games()).exists()
        return not pending

    def _dealt_alike(self):
        return Game.objects.filter(tournament_id=self.tournament_id, seed=self.seed)


def undone_games() -> models.Q:
    """Games still to be played (the condition of the ``game_undone_seed`` index)."""
    return ~models.Q(status__in=Game.DONE)


def deal_pending() -> models.Exists:
    """For a queryset's ``annotate(deal_pending=…)``: whether a game dealt from the row's
    seed is still to be played (served by the small ``game_undone_seed`` index)."""
    return models.Exists(
        Game.objects.filter(
            undone_games(),
            tournament_id=models.OuterRef("tournament_id"),
            seed=models.OuterRef("seed"),
        )
    )


class GameSeat(models.Model):
    class Status(models.TextChoices):
        OK = "ok", "ok"
        FAULTED = "faulted", "faulted"
        DISQUALIFIED = "disqualified", "disqualified"

    # No index of its own: the unique (game, seat) serves lookups by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    # Indexed with the game (seat_version_game): "the games a bot (version) played" is then
    # read from the index alone, and lookups by version use its first column.
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="seats", db_index=False
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
        indexes = [models.Index(fields=["bot_version", "game"], name="seat_version_game")]
        ordering = ["game", "seat"]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.game}"


class AnalyticsSeat(models.Model):
    """One seat of a stored game, as the dashboards aggregate it: the filters' columns
    (title, tournament, players, bot version, finish time) beside the outcome, with a shared
    win already counted as 1/k, so that a figure is one GROUP BY over this table."""

    # Written once per seat by the store that has just locked the game: no database check
    # (see AnalyticsFact); deleting a game still deletes its rows (Django cascades).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="analytics_seats", db_constraint=False
    )
    seat = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=32)
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, db_constraint=False, db_index=False
    )
    players = models.PositiveSmallIntegerField()
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, db_constraint=False, db_index=False
    )
    score = models.IntegerField(null=True)
    rank = models.PositiveSmallIntegerField(null=True)
    win_share = models.FloatField(default=0.0)  # 1/k for each of k winners, else 0
    faulted = models.BooleanField(default=False)
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="analytics_seat_unique")
        ]
        # Every figure filters by title first, then most often by player count.
        indexes = [models.Index(fields=["title", "players", "finished_at"], name="aseat_filter")]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id}"


class AnalyticsFact(models.Model):
    """One fact a title reported about a stored game (engine.core.analytics.Fact): the
    character a seat held in a round, the crane zone a tile was taken from, a score source.
    The dashboards aggregate them by kind and subject, joined to AnalyticsSeat."""

    # A game writes a few hundred of these in the store's transaction, for the game it has
    # just locked, so the database's foreign-key check would only repeat what the store
    # knows (it cost the server about 0.2 ms per game for the older character rows).
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="analytics_facts",
        db_constraint=False,
        db_index=False,
    )
    seat = models.PositiveSmallIntegerField(null=True)
    step = models.PositiveSmallIntegerField(null=True)
    kind = models.CharField(max_length=32)
    subject = models.CharField(max_length=120)
    value = models.IntegerField(default=1)
    detail = models.CharField(max_length=64, blank=True)

    class Meta:
        # Figures read one kind at a time; the game id serves deletion and joins.
        indexes = [models.Index(fields=["kind", "game"], name="afact_kind_game")]

    def __str__(self) -> str:
        return f"{self.kind} {self.subject} (game {self.game_id}, seat {self.seat})"
