"""Bots and their versions: what a player uploads, and what the built-in bots are."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from arena import pagecache


class Bot(models.Model):
    """A named bot of one player for one title; its code lives in its versions."""

    # The web form's and the API's bound on the description (the column has none).
    DESCRIPTION_MAX_LENGTH = 2000

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    title = models.CharField(max_length=32, db_index=True)
    name = models.CharField(max_length=64)
    description = models.TextField(blank=True)
    created = models.DateTimeField(default=timezone.now)
    # Off: other players cannot challenge it on a ladder (its owner still can).
    accepts_challenges = models.BooleanField(default=True)
    # On: once a game is over, everyone reads the line of reasoning its versions sent with
    # each answer (act's "log", docs/bot-protocol.md); off, only its owner (while a game
    # runs, only its owner in any case).
    decision_logs_public = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "title", "name"], name="bot_name_unique")
        ]
        ordering = ["title", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.title})"

    def get_absolute_url(self) -> str:
        return reverse("bot", args=[self.pk])

    def can_edit(self, user) -> bool:
        """Only its owner (and staff) may upload versions or change the bot."""
        return user.is_authenticated and (user.pk == self.owner_id or user.is_staff)

    def shows_decision_logs(self, user, *, game_over: bool) -> bool:
        """Whether ``user`` reads this bot's per-decision log lines of a game: its owner
        always; anyone once the game is over, if the owner shares them."""
        return self.can_edit(user) or (game_over and self.decision_logs_public)

    def next_version_number(self) -> int:
        last = self.versions.order_by("-number").values_list("number", flat=True).first()
        return (last or 0) + 1


class BotVersion(models.Model):
    """One artifact of a bot: an uploaded `.py` / zip, or a built-in bot of the engine."""

    class Kind(models.TextChoices):
        UPLOAD = "upload", "uploaded"
        BUILTIN = "builtin", "built-in"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        VALIDATING = "validating", "validating"
        READY = "ready", "ready"
        REJECTED = "rejected", "rejected"
        WITHDRAWN = "withdrawn", "withdrawn"  # by its owner: enters no new tournament

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.UPLOAD)
    builtin_name = models.CharField(max_length=64, blank=True)
    sha256 = models.CharField(max_length=64, blank=True, db_index=True)
    filename = models.CharField(max_length=255, blank=True)
    size = models.PositiveIntegerField(default=0)
    # "py" (a single file) or "zip" (a folder with a bot.json manifest).
    artifact_format = models.CharField(max_length=4, blank=True)
    entry = models.CharField(max_length=255, blank=True)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    reason = models.TextField(blank=True)
    validation_stderr = models.TextField(blank=True)
    created = models.DateTimeField(default=timezone.now)
    # When its validation was last sent to the workers, and last taken by one: the sweeper
    # resends a version nobody took and takes back one whose worker was lost.
    queued_at = models.DateTimeField(default=timezone.now)
    validation_started_at = models.DateTimeField(null=True, blank=True)
    validation_attempts = models.PositiveSmallIntegerField(default=0)
    validated_at = models.DateTimeField(null=True, blank=True)
    # Why operators should look at this version (its smoke game made system calls the sandbox
    # refused); it still plays unless they suspend it.
    review_reason = models.TextField(blank=True, default="", db_default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique"),
            models.UniqueConstraint(
                fields=["bot", "sha256"],
                condition=~models.Q(sha256=""),
                name="bot_version_artifact_unique",
            ),
        ]
        ordering = ["bot", "-number"]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("bot", args=[self.bot_id]) + f"#v{self.number}"

    @property
    def label(self) -> str:
        return self.make_label(self.bot.owner.username, self.bot.name, self.number)

    @staticmethod
    def make_label(username: str, bot_name: str, number: int) -> str:
        return f"{username}/{bot_name} v{number}"

    @property
    def title(self) -> str:
        return self.bot.title

    # -- transitions (each guarded by the current status; 0 rows = someone else moved it) --

    def claim_for_validation(self) -> bool:
        n = BotVersion.objects.filter(pk=self.pk, status=self.Status.PENDING).update(
            status=self.Status.VALIDATING,
            validation_started_at=timezone.now(),
            validation_attempts=models.F("validation_attempts") + 1,
        )
        return _moved(self, n)

    def finish_validation(self, *, ok: bool, reason: str, stderr: str, review: str = "") -> bool:
        n = BotVersion.objects.filter(pk=self.pk, status=self.Status.VALIDATING).update(
            status=self.Status.READY if ok else self.Status.REJECTED,
            reason=reason,
            validation_stderr=stderr,
            validated_at=timezone.now(),
            review_reason=review,
        )
        return _moved(self, n)

    def withdraw(self) -> bool:
        """Any status but withdrawn -> withdrawn; its games and ratings stay."""
        n = (
            BotVersion.objects.filter(pk=self.pk)
            .exclude(status=self.Status.WITHDRAWN)
            .update(status=self.Status.WITHDRAWN)
        )
        return _moved(self, n)


# Fewest finished games before a fault rate is worth flagging.
FAULT_FLAG_MIN_GAMES = 5


def fault_summary(bot: Bot) -> dict:
    """Rated games, faulted ones and whether the bot is flagged for faulting in many games."""
    from django.conf import settings
    from django.db.models import Sum

    from arena.ratings.models import Rating

    # The ratings count each rated game and its faulted seat (status not ``ok``) as they
    # rate it: a row per competition and version, where counting the seats walked every
    # game the bot played.
    counted = Rating.objects.filter(bot_version__bot=bot).aggregate(
        games=Sum("games"), faulted=Sum("faulted_games")
    )
    games, faulted = counted["games"] or 0, counted["faulted"] or 0
    percent = round(100 * faulted / games) if games else 0
    return {
        "games": games,
        "faulted": faulted,
        "percent": percent,
        "flagged": games >= FAULT_FLAG_MIN_GAMES and percent >= settings.ARENA_FAULT_FLAG_PERCENT,
    }


def _moved(version: BotVersion, rows: int) -> bool:
    """Whether a transition moved ``version`` (its bot's pages change when it did)."""
    if rows:
        pagecache.changed(bots=(version.bot_id,))
    return rows == 1
