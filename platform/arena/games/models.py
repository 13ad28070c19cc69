"""Games, their seats, and per-title analytics rows the dashboards aggregate in SQL."""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.urls import reverse
from django.utils import timezone

# The record's format whose entries a row may leave out (engine/core/records.py writes every
# one of them into every record of it).
STRIPPED_FORMAT = 3
SAID = {"options", "engine_version", "rules_version", "title", "seed"}


def _is_stripped_format(record) -> bool:
    return isinstance(record, dict) and record.get("format") == STRIPPED_FORMAT


def stored_record(record, said: dict):
    """``record`` as a game row keeps it: without the entries whose values ``said`` gives,
    the row's (:func:`said_by_row`): its rule options, which a tournament's games share, its
    versions, title and seed, about 300 of a row's 1,100 bytes. Other records whole."""
    if not _is_stripped_format(record):
        return record
    return {k: v for k, v in record.items() if k not in said or said[k] != v}


def said_by_row(game) -> dict:
    """What ``game``'s row and its tournament say of its record, which it does not keep
    (fields only: a migration's historical model has none of Game's methods)."""
    tournament = game.tournament
    options = game.options if game.options is not None else tournament.options
    return {
        "options": options, "engine_version": game.engine_version,
        "rules_version": game.rules_version, "title": tournament.title, "seed": game.seed,
    }  # fmt: skip


def _whole_record(record: dict, said: dict) -> dict:
    """The inverse of :func:`stored_record`, the keys in the order PostgreSQL's jsonb gives
    them (by length, then bytes), so that the record serves and digests byte for byte as
    it did when stored whole."""
    whole = {**said, **record}
    return dict(sorted(whole.items(), key=lambda item: (len(item[0].encode()), item[0].encode())))


class _RecordAttribute(models.query_utils.DeferredAttribute):
    """Reads a game's record whole (:func:`_whole_record`, what it left out read from the
    row), once per instance: what the reads get is what the store was given, and changes
    made to it are saved (``RecordField.pre_save``)."""

    def __get__(self, instance, cls=None):
        if instance is None:
            return self
        record = super().__get__(instance, cls)
        if _is_stripped_format(record) and not record.keys() >= SAID:
            record = _whole_record(record, said_by_row(instance))
            instance.__dict__[self.field.attname] = record
        return record

    def __set__(self, instance, value):
        # A data descriptor, so that reads of a loaded row come through __get__ too.
        instance.__dict__[self.field.attname] = value


def with_records(games: models.QuerySet, *fields: str) -> models.QuerySet:
    """``games`` loading only ``fields``, the record and what reading it whole needs
    (:func:`said_by_row`), in its one statement."""
    return games.select_related("tournament").only(
        "pk", "record", "options", "engine_version", "rules_version", "seed", "tournament",
        "tournament__options", "tournament__title", *fields,
    )  # fmt: skip


class RecordField(models.JSONField):
    """The replay record, kept without what its row already says (:func:`stored_record`)
    and read whole (:class:`_RecordAttribute`). A record of another format, or from before
    (games 0024), is kept whole."""

    descriptor_class = _RecordAttribute

    def pre_save(self, model_instance, add):
        record = super().pre_save(model_instance, add)
        if not _is_stripped_format(record):
            return record  # the row's values not read: no statement for the tournament
        return stored_record(record, said_by_row(model_instance))


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
    # The rule options, when they are not the tournament's (null: its own, which every game
    # of a tournament made by create_games shares): read them with rule_options().
    options = models.JSONField(null=True, blank=True, default=None)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=255, blank=True)
    # Why the game failed or was tried again, for everyone: a short reason, never a
    # traceback. The traceback, with server paths, goes in error_detail, which only staff
    # and the owners of the seated bots see (can_read_error_detail).
    error = models.TextField(blank=True)
    # A database default: rows are inserted by SQL that names only the columns it sets.
    error_detail = models.TextField(blank=True, default="", db_default="")
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    match_ms = models.PositiveIntegerField(null=True, blank=True)
    engine_version = models.CharField(max_length=32, blank=True)
    rules_version = models.CharField(max_length=64, blank=True)
    # Read whole, stored without the rule options when they are the game's (RecordField).
    record = RecordField(null=True, blank=True)
    # While the game runs: its record so far (a few hundred bytes), written by the worker's
    # lease heartbeat, from which a seat's owner downloads that seat's view of the running
    # game (never served whole: it holds the seed). Null before and after.
    progress = models.JSONField(null=True, blank=True)
    # The game's length in actions, as its record's seal says (record["final"]["actions"]),
    # kept beside it so that the dashboards' length figures read a column instead of
    # detoasting every record; null for games not finished (or stored without a seal).
    actions = models.PositiveIntegerField(null=True, blank=True)
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
            # The staff's queue page lists recent failures (few rows: failed games only).
            models.Index(
                fields=["finished_at"],
                condition=models.Q(status="failed"),
                name="game_failed_since",
            ),
            # Only the games still to be played: whether a seed is public yet (a games list
            # asks it of every row) is one probe of a small index.
            models.Index(
                fields=["tournament", "seed"],
                condition=~models.Q(status__in=["finished", "failed", "void"]),
                name="game_undone_seed",
            ),
            # The rating step's work: finished games not rated yet (a handful per running
            # tournament), so the title ratings' reads find their games and bots without
            # walking a tournament's games (arena.statements.TITLE_RATINGS_MISSING).
            models.Index(
                fields=["tournament"],
                condition=models.Q(status="finished", rated=False),
                name="game_finished_unrated",
            ),
            # The games not finished, per tournament: the staff's queue page counts them by
            # status and the finished ones as the rest of the tournament's numbers, so its
            # cost follows the open and failed games, not the ladder's history.
            models.Index(
                fields=["tournament", "status"],
                condition=~models.Q(status="finished"),
                name="game_unfinished",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.tournament}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    def rule_options(self) -> dict:
        """The game's rule options: its own, else its tournament's."""
        return self.options if self.options is not None else self.tournament.options

    def can_read_error_detail(self, user) -> bool:
        """Staff, and the owners of the bots seated in this game, read the traceback."""
        if not getattr(user, "is_authenticated", False):
            return False
        seats = self.seats.all()  # prefetched with their bots by the API
        return user.is_staff or any(s.bot_version.bot.owner_id == user.pk for s in seats)

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

    def replay_withheld(self) -> str | None:
        """Why the replay record is not shown yet, or None: it holds the seed, so it waits
        as the seed does (a duplicate table's other rotations play the same deal)."""
        if not self.record:
            return "This game has no replay record yet."
        if not self.seed_is_public():
            return (
                "This game's deal is still in play (this game, or another rotation of its "
                "table); its replay is shown once they are over."
            )
        return None

    def _dealt_alike(self):
        return Game.objects.filter(tournament_id=self.tournament_id, seed=self.seed)


def undone_games() -> models.Q:
    """Games still to be played (the condition of the ``game_undone_seed`` index)."""
    return ~models.Q(status__in=Game.DONE)


def deal_pending(game: str = "") -> models.Exists:
    """For a queryset's ``annotate(deal_pending=…)``: whether a game dealt from the row's
    seed is still to be played (served by the small ``game_undone_seed`` index). ``game``
    is the path to the game from a row that is not one (``"game__"`` from a seat)."""
    return models.Exists(
        Game.objects.filter(
            undone_games(),
            tournament_id=models.OuterRef(f"{game}tournament_id"),
            seed=models.OuterRef(f"{game}seed"),
        )
    )


class GameSeat(models.Model):
    class Status(models.TextChoices):
        OK = "ok", "ok"
        FAULTED = "faulted", "faulted"
        DISQUALIFIED = "disqualified", "disqualified"

    # The primary key is (game, seat), which serves lookups by game: no surrogate id, whose
    # column and index were 8 + ~23 bytes a seat (issue 25). Nothing refers to a seat.
    pk = models.CompositePrimaryKey("game", "seat")
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
    # decision id (text) -> the log line the bot sent with that answer (docs/bot-protocol.md);
    # shown to the bot's owner only, like stderr; null until the game is stored (seat rows are
    # written by raw statements that name their columns), and when the bot sent no notes
    decision_logs = models.JSONField(null=True, blank=True)
    # Times this seat's sandbox was killed because the worker process running the game died
    # (its watchdog's journal, workers/watchdog.py): kept across the game's later attempts,
    # which rewrite the rest of the row.
    runner_kills = models.PositiveSmallIntegerField(default=0, db_default=0)
    runner_killed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["bot_version", "game"], name="seat_version_game"),
            # the staff page counts the seats killed lately without walking the seats
            models.Index(
                fields=["runner_killed_at"],
                name="seat_runner_killed",
                condition=models.Q(runner_killed_at__isnull=False),
            ),
            # and the faulted seats of the last day's games (rare: scanning every seat to
            # find them took 120 ms of the page at 100,000 games, bench/history.py)
            models.Index(
                fields=["game"], name="seat_faulted", condition=models.Q(fault_count__gt=0)
            ),
        ]
        ordering = ["game", "seat"]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.game}"


class AnalyticsSeat(models.Model):
    """One seat of a stored game, as the dashboards aggregate it: the filters' columns
    (title, tournament, players, bot version, finish time) beside the outcome, with a shared
    win already counted as 1/k, so that a figure is one GROUP BY over this table."""

    # Written once per seat by the store that has just locked the game: no database check
    # (see AnalyticsFact); deleting a game still deletes its rows (Django cascades).
    # No index of its own: the unique (game, seat) serves lookups by game (one index fewer
    # to write per seat).
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="analytics_seats",
        db_constraint=False,
        db_index=False,
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
    """The facts a title reported about a stored game (engine.core.analytics.Fact), folded
    per seat, kind, subject and detail: the character a seat held (``facts``: in how many
    rounds, ``value``: the points summed over them), the crane zone a tile was taken from, a
    score source. The dashboards aggregate them by kind and subject, joined to
    AnalyticsSeat: a count of facts is ``SUM(facts)``, a mean value ``SUM(value) /
    SUM(facts)``."""

    # A game writes about a hundred of these in the store's transaction, for the game it
    # has just locked, so the database's foreign-key check would only repeat what the store
    # knows (it cost the server about 0.2 ms per game for the older character rows).
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="analytics_facts",
        db_constraint=False,
        db_index=False,
    )
    seat = models.PositiveSmallIntegerField(null=True)
    kind = models.CharField(max_length=32)
    subject = models.CharField(max_length=120)
    detail = models.CharField(max_length=64, blank=True)
    facts = models.PositiveIntegerField(default=1)  # how many facts the row folds
    value = models.IntegerField(default=1)  # the sum of their values

    class Meta:
        # Read by game only: the fold into the totals, deletion.
        indexes = [models.Index(fields=["game"], name="afact_game")]

    def __str__(self) -> str:
        return f"{self.kind} {self.subject} (game {self.game_id}, seat {self.seat})"


# -- totals: the dashboards' figures read these, folded from the rows above --------------
#
# The store writes a game's seat and fact rows and one AnalyticsPending row; a dashboard read
# first folds the pending games into the totals (arena.games.totals), a few set-based
# statements for any number of games. Each total is keyed by the filters' columns (the
# title, the player count, the tournament, whose games share its rule options, the bot
# version, the day finished, the seat), so that a figure is one GROUP BY over a table whose
# size grows with tournaments, versions and days, not with games.


class AnalyticsPending(models.Model):
    """A stored game whose analytics rows are not yet in the totals. ``batch`` marks the
    rows a fold took (rows stored while it runs stay for the next one)."""

    game_id = models.BigIntegerField(primary_key=True)
    batch = models.BigIntegerField(null=True)

    def __str__(self) -> str:
        return f"game {self.game_id}, pending"


class AnalyticsFolded(models.Model):
    """One row: how many games were folded into the totals (a rebuild folds them again and
    counts on). With the pending rows, a number that grows with every store: the
    dashboards' cache key."""

    games = models.BigIntegerField(default=0)
    # The last RatingChange id folded into RatingPoint: ratings are applied in game order,
    # sometimes long after a game was stored, so rating changes are folded by their own mark.
    # A database default: a fold of the code before it names only ``games``.
    rating_changes = models.BigIntegerField(default=0, db_default=0)

    def __str__(self) -> str:
        return f"{self.games} games folded"


class _Filters(models.Model):
    """The columns every total is keyed by first: the selection's filters."""

    title = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    tournament_id = models.BigIntegerField()
    bot_version_id = models.BigIntegerField()
    day = models.DateField()  # finished_at's date, UTC
    seat = models.PositiveSmallIntegerField()

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{type(self).__name__} {self.title} tournament {self.tournament_id} {self.day}"


FILTER_COLUMNS = ["title", "players", "tournament_id", "bot_version_id", "day", "seat"]
# The same columns in the order of the totals' unique keys (their indexes): what every read
# names first, the title and then the day (ALL_DAYS when it chose no dates), so that a read
# seeks to its days' rows however many days the history holds. With the day after the
# tournament, a read of every tournament scanned every day's rows (bench/history.py).
FILTER_KEY = ["title", "day", "players", "tournament_id", "bot_version_id", "seat"]
# Every total keeps, beside each day's rows, the same rows summed over every day under this
# day (arena.games.totals folds both): a selection without dates reads those, and costs
# the rows of one day whether the history holds one day or a year of them
# (dashboards.queries.where). Rating points have no such rows: they are runs of games.
ALL_DAYS = dt.date(1, 1, 1)


class AnalyticsSeatTotal(_Filters):
    """AnalyticsSeat's rows summed per filters: seat-games, wins (1/k each), scores,
    faulted seat-games; and the seat-games at a version's (a bot's) first seat in its game,
    which count the games a version (a bot) played."""

    games = models.BigIntegerField()
    wins = models.FloatField()
    score_total = models.BigIntegerField()
    scored = models.BigIntegerField()  # seat-games with a score
    faulted = models.BigIntegerField()
    version_games = models.BigIntegerField()
    bot_games = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=FILTER_KEY, name="aseattotal_key")]


class AnalyticsFactTotal(_Filters):
    """AnalyticsFact's seat rows summed per filters, kind, subject and detail: facts and
    their values' sum, the winners' share of both (a shared winner counts as a winner);
    and per subject (its first detail only), the seat-games it was in and their wins."""

    kind = models.CharField(max_length=32)
    subject = models.CharField(max_length=120)
    detail = models.CharField(max_length=64, blank=True)
    facts = models.BigIntegerField()
    total = models.BigIntegerField()
    winner_facts = models.BigIntegerField()
    winner_total = models.BigIntegerField()
    subject_games = models.BigIntegerField()
    subject_wins = models.FloatField()

    class Meta:
        # Figures read a title's kinds first.
        constraints = [
            models.UniqueConstraint(
                fields=["title", "kind", *FILTER_KEY[1:], "subject", "detail"],
                name="afacttotal_key",
            )
        ]


class AnalyticsGameFactTotal(_Filters):
    """Each whole-game fact (a crane configuration) summed over the seats of its games per
    filters, kind, subject and the seat's score: seat-games and wins. A seat without a score
    keys a row of its own per fold (SQL's NULLs never conflict): the sums stay exact."""

    kind = models.CharField(max_length=32)
    subject = models.CharField(max_length=120)
    score = models.IntegerField(null=True)
    games = models.BigIntegerField()
    wins = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["title", "kind", *FILTER_KEY[1:], "subject", "score"],
                name="agamefacttotal_key",
            )
        ]


# -- the Ratings and bots page's totals, folded from the same pending games ---------------
#
# That page reads the platform's own rows (games, seats, rating changes), not the analytics
# rows. A tournament fixes the title, the player count and the rule options, so these are
# keyed by tournament and day: every filter but a bot or a bot version is a condition on
# the key; a bot or bot-version filter selects the games it sat in, which the seated totals
# below key (the raw rows are what the tests compare them with).


class _GameFilters(models.Model):
    """The columns the ratings page's totals are keyed by first: a tournament's title and
    player count beside it (so that the filters read one table), and the day finished."""

    title = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    tournament_id = models.BigIntegerField()
    day = models.DateField()  # the game's finished_at, UTC

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{type(self).__name__} {self.title} tournament {self.tournament_id} {self.day}"


GAME_FILTER_COLUMNS = ["title", "players", "tournament_id", "day"]
GAME_FILTER_KEY = ["title", "day", "players", "tournament_id"]  # as FILTER_KEY


class _SeatCounts(models.Model):
    """GameSeat's rows counted per bot version, final score and seat status: seat-games and
    their faults (a seat without a score keys a row of its own per fold: NULLs never
    conflict, the sums stay exact). Bot seat-games, fault rates and score bins add these."""

    bot_version_id = models.BigIntegerField()
    status = models.CharField(max_length=12)
    score = models.IntegerField(null=True)
    seats = models.BigIntegerField()
    faults = models.BigIntegerField()

    class Meta:
        abstract = True


class _LengthCounts(models.Model):
    """Finished games with a length (``Game.actions``) counted per length: games, timed
    games and their match time summed, in ms."""

    actions = models.PositiveIntegerField()
    games = models.BigIntegerField()
    timed = models.BigIntegerField()
    match_ms = models.BigIntegerField()

    class Meta:
        abstract = True


class _PairCounts(models.Model):
    """For each ordered pair of different bots seated in a game (both ranked): the games
    they met in, their seat pairs, how often A's rank was better than B's and level."""

    bot_a = models.BigIntegerField()
    bot_b = models.BigIntegerField()
    games = models.BigIntegerField()
    pairs = models.BigIntegerField()
    above = models.BigIntegerField()
    level = models.BigIntegerField()

    class Meta:
        abstract = True


class _LineupCounts(models.Model):
    """Finished games per set of distinct bots seated (``bots``: their ids sorted, written
    ",3,7,12,"): how many games the selection holds, and how many seated two of any chosen
    bots."""

    bots = models.TextField()
    games = models.BigIntegerField()

    class Meta:
        abstract = True


# Each total's key after the filters' columns.
SEAT_KEY, LENGTH_KEY = ["bot_version_id", "status", "score"], ["actions"]
PAIR_KEY, LINEUP_KEY = ["bot_a", "bot_b"], ["bots"]


class GameSeatTotal(_GameFilters, _SeatCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(fields=[*GAME_FILTER_KEY, *SEAT_KEY], name="gameseattotal_key")
        ]


class GameLengthTotal(_GameFilters, _LengthCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=[*GAME_FILTER_KEY, *LENGTH_KEY], name="gamelengthtotal_key"
            )
        ]


class HeadToHeadTotal(_GameFilters, _PairCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(
                # the pairs before the player count: a read names its bots' pairs
                fields=[*GAME_FILTER_KEY[:2], *PAIR_KEY, *GAME_FILTER_KEY[2:]],
                name="headtoheadtotal_key",
            )
        ]


class LineupTotal(_GameFilters, _LineupCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(fields=[*GAME_FILTER_KEY, *LINEUP_KEY], name="lineuptotal_key")
        ]


# The same totals keyed first by a version seated in the game: what a bot or bot-version
# filter of the ratings page reads (the games it sat in, everyone's seats in them). Each
# game adds its rows once per distinct version seated (``seated_version_id``);
# ``first_of_bot`` marks the version of the bot's lowest seat, so that a bot's games are
# its versions' rows with it (a game seating two versions of one bot counts once).


class _Seated(_GameFilters):
    seated_version_id = models.BigIntegerField()
    first_of_bot = models.BooleanField()

    class Meta:
        abstract = True


SEATED_COLUMNS = ["seated_version_id", "first_of_bot", *GAME_FILTER_COLUMNS]
SEATED_KEY = ["seated_version_id", "first_of_bot", *GAME_FILTER_KEY]


class SeatedSeatTotal(_Seated, _SeatCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(fields=[*SEATED_KEY, *SEAT_KEY], name="seatedseat_key")
        ]


class SeatedLengthTotal(_Seated, _LengthCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(fields=[*SEATED_KEY, *LENGTH_KEY], name="seatedlength_key")
        ]


class SeatedHeadToHeadTotal(_Seated, _PairCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=[*SEATED_KEY[:4], *PAIR_KEY, *SEATED_KEY[4:]], name="seatedpair_key"
            )
        ]


class SeatedLineupTotal(_Seated, _LineupCounts):
    class Meta:
        constraints = [
            models.UniqueConstraint(fields=[*SEATED_KEY, *LINEUP_KEY], name="seatedlineup_key")
        ]


class RatingPoint(_GameFilters):
    """A point of a rating's line: the rating (one tournament, one version) after the last
    game rated of a run of its rated games (``block``: the rating's first game alone, then
    runs of ``arena.games.totals.RATING_BLOCK`` games in the order they were rated), within
    one day of finishing; ``games``: how many rated games the run holds; ``rated``: how
    many the rating had after the run's last (a drawn line keeps the points where it passes
    a multiple of its step, before the window that numbers the games: at a million games,
    windowing every point was most of a line's cost). Folded from the rating changes not
    folded yet (``AnalyticsFolded.rating_changes``), whenever a game is rated. Each
    ``level`` holds the same games in runs ``RATING_LEVEL_FACTOR`` times as long as the
    level below (level 0: ``RATING_BLOCK``), so that a thinned line reads the coarsest
    level that still has its points."""

    rating_id = models.BigIntegerField()
    level = models.PositiveSmallIntegerField(default=0)
    block = models.BigIntegerField()
    bot_version_id = models.BigIntegerField()
    games = models.BigIntegerField()
    rated = models.BigIntegerField(default=0)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    finished_at = models.DateTimeField()  # the last game's
    game_id = models.BigIntegerField()  # the last game rated
    change_id = models.BigIntegerField()  # its RatingChange

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["rating_id", "level", "day", "block"], name="ratingpoint_level_key"
            )
        ]
        # A line reads the points of its bots' versions at one level.
        indexes = [
            models.Index(fields=["bot_version_id", "level"], name="ratingpoint_version_level")
        ]


class WorkerSandbox(models.Model):
    """How a worker confines the bots it runs, as it said when it started (shown on the staff
    queue page; a worker without a cgroup per sandbox bounds memory per process only)."""

    worker = models.CharField(max_length=255, unique=True)  # Celery's node name
    cgroup = models.CharField(max_length=8)  # "v2" | "v1" | "none"
    confinement = models.TextField()
    started_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.worker}: {self.confinement}"
