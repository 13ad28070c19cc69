"""OpenSkill ratings per tournament, with a history row per rated game."""

from __future__ import annotations

from django.db import models


class RatingValues(models.Model):
    """What a rating is, wherever it is kept: OpenSkill's μ and σ, the ordinal standings sort
    by, and the counts beside it."""

    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu - 3 sigma, what standings show")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    faulted_games = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


class Rating(RatingValues):
    # No index of its own: the unique (tournament, bot_version) serves lookups by tournament.
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="ratings"
    )
    score_total = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot_version"], name="rating_unique")
        ]
        ordering = ["tournament", "-ordinal"]

    def __str__(self) -> str:
        return f"{self.bot_version} in {self.tournament}: {self.ordinal:.2f}"

    @property
    def average_score(self) -> float | None:
        return self.score_total / self.games if self.games else None


class RatingChange(models.Model):
    # No index of its own: the unique (rating, game) serves lookups by rating.
    rating = models.ForeignKey(
        Rating, on_delete=models.CASCADE, related_name="history", db_index=False
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["rating", "game"], name="rating_change_unique")
        ]
        ordering = ["game__number"]

    def __str__(self) -> str:
        return f"{self.rating.bot_version} after game {self.game.number}: {self.ordinal:.2f}"


class TitleRating(RatingValues):
    """A bot's rating over all its rated games of one player count on its title, whatever
    the competition and version (each game updates it once, when its own competition rates
    it)."""

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="title_ratings")
    players = models.PositiveSmallIntegerField()
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="+", help_text="its last game's"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot", "players"], name="title_rating_unique")
        ]
        ordering = ["players", "-ordinal"]

    def __str__(self) -> str:
        return f"{self.bot} at {self.players} players: {self.ordinal:.2f}"


class TitleRatingChange(models.Model):
    """A point of a bot's title rating history: after which game, with which version (a
    change of version is a marker on the chart)."""

    title_rating = models.ForeignKey(
        TitleRating, on_delete=models.CASCADE, related_name="history", db_index=False
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    # No index: nothing reads these by version (a version that played is protected by its
    # seats, so deleting one finds none to cascade to).
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["title_rating", "game"], name="title_rating_change_unique"
            )
        ]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.title_rating.bot} after game {self.game_id}: {self.ordinal:.2f}"
