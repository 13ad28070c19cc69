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
    # No index (issue 25: 15 bytes a change, 60 a 4-player game): no read looks changes up
    # by game (they are read by rating, or joined to their game by its key); deleting
    # games, which the platform does not, would scan the changes once per batch.
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    # The rating before the game: null when it is the rating's previous change's μ and σ (by
    # game: ratings are applied in game order), or the prior for its first, which is every
    # change the store writes now (16 bytes a row less); read with_before().
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
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


def with_before(changes, prior_mu: float, prior_sigma: float):
    """``changes`` (a RatingChange queryset) with ``mu_prior`` and ``sigma_prior``: the rating
    before each game, as stored or else its previous change's (one probe of the unique
    (rating, game) index per row), else the prior."""
    from django.db.models import F, OuterRef, Subquery, Value
    from django.db.models.functions import Coalesce

    previous = RatingChange.objects.filter(
        rating_id=OuterRef("rating_id"), game_id__lt=OuterRef("game_id")
    ).order_by("-game_id")
    return changes.annotate(
        mu_prior=Coalesce(
            F("mu_before"), Subquery(previous.values("mu")[:1]), Value(prior_mu),
            output_field=models.FloatField(),
        ),
        sigma_prior=Coalesce(
            F("sigma_before"), Subquery(previous.values("sigma")[:1]), Value(prior_sigma),
            output_field=models.FloatField(),
        ),
    )  # fmt: skip


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
    change of version is a marker on the chart). Keyed by (title rating, game), which is
    unique (a game counts once in a title rating): no surrogate id, whose column and index
    were 8 + ~23 bytes a point, four points a 4-player game (issue 25). In rating order by
    ``at``, game and title rating (a rating step stamps its points alike and rates its games
    in order)."""

    pk = models.CompositePrimaryKey("title_rating", "game")
    title_rating = models.ForeignKey(
        TitleRating, on_delete=models.CASCADE, related_name="history", db_index=False
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    # No index: nothing reads these by version (a version that played is protected by its
    # seats, so deleting one finds none to cascade to). Null when it is the version of the
    # bot's seat in the game (a bot sits once in a game its title rating counts), which is
    # every point the store writes now (8 bytes a row less): read with_version().
    bot_version = models.ForeignKey(
        "bots.BotVersion",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        null=True,
        blank=True,
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    # Null when it is mu - 3 sigma, which is every point the store writes now (8 bytes a
    # row less): read ordinal_value.
    ordinal = models.FloatField(null=True, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "game", "title_rating"]

    def __str__(self) -> str:
        return f"{self.title_rating.bot} after game {self.game_id}: {self.ordinal_value:.2f}"

    @staticmethod
    def with_version(points):
        """``points`` (a TitleRatingChange queryset) with ``version_id`` and
        ``version_number``: the version as stored, else that of the bot's seat in the game
        (one probe of the seats' unique (game, seat) index per row)."""
        from django.db.models import F, OuterRef, Subquery
        from django.db.models.functions import Coalesce

        from arena.games.models import GameSeat

        version_model = TitleRatingChange._meta.get_field("bot_version").related_model

        seated = GameSeat.objects.filter(
            game_id=OuterRef("game_id"), bot_version__bot_id=OuterRef("title_rating__bot_id")
        ).values("bot_version_id")[:1]
        number = version_model.objects.filter(pk=OuterRef("version_id")).values("number")[:1]
        version = Coalesce(
            F("bot_version_id"), Subquery(seated), output_field=models.BigIntegerField()
        )
        return points.annotate(version_id=version).annotate(version_number=Subquery(number))

    @property
    def ordinal_value(self) -> float:
        """mu - 3 sigma, as stored or computed as the store computes it."""
        return self.ordinal if self.ordinal is not None else self.mu - 3 * self.sigma
