"""What the API reads and writes. Checks a person can fail are here (as 400s with fields);
the writes themselves go through the services the web pages use."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers

import engine
from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating, RatingChange
from arena.tournaments import spec
from arena.tournaments.models import Tournament

from .fields import IdField, StrictBooleanField, StrictCharField


class KnownFieldsOnly:
    """A body naming a field the serializer does not have is refused, naming it (DRF would
    drop it silently, and a misspelt option would go unnoticed)."""

    def to_internal_value(self, data):
        known = {name for name, field in self.fields.items() if not field.read_only}
        unknown = sorted(set(data) - known) if hasattr(data, "keys") else []
        if unknown:
            raise serializers.ValidationError({k: ["There is no such field."] for k in unknown})
        return super().to_internal_value(data)


# -- titles and players ----------------------------------------------------------------------


class TitleOptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField()
    list = serializers.BooleanField(help_text="the value is a list of allowed elements")
    allowed = serializers.ListField(child=serializers.JSONField(), help_text="allowed values")
    defaults = serializers.DictField(
        child=serializers.JSONField(), help_text="the default for each number of seats"
    )


class TitleSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    rules_version = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    builtin_bots = serializers.ListField(child=serializers.CharField())
    options = TitleOptionSerializer(many=True)


def describe_title(title_id: str) -> dict[str, Any]:
    """A title's facts and its option schema, with each option's default per seat count."""
    title = engine.title(title_id)
    defaults = {}
    for players in range(title.min_players, title.max_players + 1):
        try:
            defaults[str(players)] = title.options(players)
        except engine.ConfigError:  # no default game at this count
            continue
    return {
        "id": title.id,
        "name": title.name,
        "rules_version": title.rules_version,
        "min_players": title.min_players,
        "max_players": title.max_players,
        "builtin_bots": list(engine.bots(title.id)),
        "options": [
            {**o, "defaults": {n: d[o["name"]] for n, d in defaults.items()}}
            for o in title.option_help()
        ],
    }


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = get_user_model()
        fields = ["id", "username", "is_staff", "date_joined"]
        read_only_fields = fields


# -- bots and versions -----------------------------------------------------------------------


class BotSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    title = serializers.ChoiceField(
        choices=(), help_text="a title id; it cannot change once the bot has versions"
    )
    name = StrictCharField(max_length=64, help_text="unique among the owner's bots")
    description = StrictCharField(
        max_length=Bot.DESCRIPTION_MAX_LENGTH, required=False, allow_blank=True
    )
    decision_logs_public = StrictBooleanField(
        required=False,
        help_text="true: once a game is over, everyone reads the log line its bot sent with "
        "each answer (in the game's replay); false (the default): only the owner",
    )

    class Meta:
        model = Bot
        fields = [
            "id", "owner", "title", "name", "description", "accepts_challenges",
            "decision_logs_public", "created",
        ]  # fmt: skip
        read_only_fields = ["created", "accepts_challenges"]
        extra_kwargs = {
            "accepts_challenges": {
                "help_text": "false: others cannot challenge it on ladders "
                "(POST /bots/{id}/challenges/ sets it)"
            },
        }
        # The name's uniqueness is checked in validate(), with a message naming the bot.
        validators = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].choices = engine.titles()

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if not value:
            raise serializers.ValidationError("Give the bot a name.")
        return value

    def validate(self, attrs):
        bot = self.instance
        title = attrs.get("title", bot.title if bot else None)
        if bot is not None and title != bot.title and bot.versions.exists():
            raise serializers.ValidationError(
                {
                    "title": [
                        f"{bot.name} has versions for {bot.title}; its title cannot change. "
                        "Create another bot for the other title."
                    ]
                }
            )
        name = attrs.get("name", bot.name if bot else None)
        owner = bot.owner if bot else self.context["request"].user
        others = Bot.objects.filter(owner=owner, title=title, name=name)
        if bot is not None:
            others = others.exclude(pk=bot.pk)
        if others.exists():
            raise serializers.ValidationError(
                {"name": [f"You already have a {title} bot named {name!r}; pick another name."]}
            )
        return attrs


class BotVersionSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    bot = IdField(queryset=Bot.objects.all())
    file = serializers.FileField(
        write_only=True,
        allow_empty_file=True,
        help_text="a .py or .js file, or a zip of the bot's folder (see docs/bot-protocol.md)",
    )
    validation_stderr = serializers.SerializerMethodField(
        help_text="the smoke game's stderr: shown to the bot's owner only"
    )

    class Meta:
        model = BotVersion
        fields = [
            "id",
            "bot",
            "number",
            "kind",
            "builtin_name",
            "sha256",
            "filename",
            "size",
            "artifact_format",
            "entry",
            "status",
            "reason",
            "validation_stderr",
            "created",
            "validated_at",
            "file",
        ]
        # everything but the upload itself and the bot it belongs to is set by the server
        read_only_fields = [
            f for f in fields if f not in ("id", "bot", "file", "validation_stderr")
        ]

    def get_validation_stderr(self, obj) -> str | None:
        request = self.context.get("request")
        if request and obj.bot.can_edit(request.user):
            return obj.validation_stderr
        return None


class HiddenSeedMixin:
    """``seed`` reads as null until the object says it is public (``seed_is_public()``): a
    seed known before the games are played gives their whole deal away."""

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not instance.seed_is_public():
            data["seed"] = None
        return data


# -- tournaments -----------------------------------------------------------------------------


def _bounded(name: str) -> serializers.IntegerField:
    """An API field with the bounds and default of the shared tournament specification."""
    bound = spec.FIELDS[name]
    return serializers.IntegerField(
        min_value=bound.low,
        max_value=bound.high,
        default=bound.default,
        help_text=bound.help,
    )


class TournamentSerializer(KnownFieldsOnly, HiddenSeedMixin, serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username", read_only=True)
    name = StrictCharField(max_length=spec.NAME_MAX_LENGTH)
    title = serializers.ChoiceField(choices=())
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=spec.DEFAULT_FORMAT)
    entrants = IdField(
        many=True,
        queryset=BotVersion.objects.select_related("bot__owner"),
        help_text="ids of ready bot versions of the title",
    )
    options = serializers.DictField(
        required=False,
        child=serializers.JSONField(),
        help_text="rule option overrides (see the title's options); answered resolved",
    )
    seats = _bounded("seats")
    rounds = _bounded("rounds")
    ladder_games = _bounded("ladder_games")
    decision_ms = _bounded("decision_ms")
    bank_ms = _bounded("bank_ms")
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=spec.FIELDS["seed"].low,
        max_value=spec.FIELDS["seed"].high,
        help_text="left out: drawn at random; reads as null until the tournament is over",
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "organiser",
            "title",
            "seats",
            "format",
            "rounds",
            "ladder_games",
            "options",
            "entrants",
            "decision_ms",
            "bank_ms",
            "seed",
            "status",
            "created",
            "started_at",
            "finished_at",
        ]
        read_only_fields = ["status", "created", "started_at", "finished_at"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].choices = engine.titles()

    def validate(self, attrs):
        try:
            checked = spec.check_spec(attrs)
        except spec.SpecError as err:
            raise serializers.ValidationError(err.fields) from None
        return checked.as_kwargs()


class ProgressSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    total = serializers.IntegerField(help_text="games planned")
    done = serializers.IntegerField(help_text="finished, failed or void")
    finished = serializers.IntegerField()
    failed = serializers.IntegerField()
    running = serializers.IntegerField()
    queued = serializers.IntegerField(help_text="queued or scheduled")
    percent = serializers.IntegerField()


# -- games -----------------------------------------------------------------------------------


class GameSeatSerializer(serializers.ModelSerializer):
    bot_version = serializers.PrimaryKeyRelatedField(read_only=True)
    bot = serializers.CharField(source="bot_version.label", read_only=True)

    def to_representation(self, seat):
        # By hand, the declared fields' values (a test compares it with DRF's own): a page of
        # the games list has 200 seats, and DRF's field-by-field walk was a quarter of the
        # list's CPU (bench/api.py).
        return {
            "seat": seat.seat,
            "bot_version": seat.bot_version_id,
            "bot": seat.bot_version.label,
            "score": seat.score,
            "rank": seat.rank,
            "winner": seat.winner,
            "status": seat.status,
            "fault_count": seat.fault_count,
            "faults": seat.faults,
        }

    class Meta:
        model = GameSeat
        fields = [
            "seat",
            "bot_version",
            "bot",
            "score",
            "rank",
            "winner",
            "status",
            "fault_count",
            "faults",
        ]


class GameSerializer(serializers.ModelSerializer):
    title = serializers.CharField(source="tournament.title", read_only=True)
    seats = GameSeatSerializer(many=True, read_only=True)
    seed = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="null until every game dealt from it is over"
    )
    error = serializers.CharField(
        read_only=True, help_text="why the game failed or was tried again: a short reason"
    )
    error_detail = serializers.SerializerMethodField(
        help_text="the traceback behind `error`: for staff and the seated bots' owners, else null"
    )

    def get_error_detail(self, game) -> str | None:
        request = self.context.get("request")
        if not game.error_detail or request is None:
            return None
        return game.error_detail if game.can_read_error_detail(request.user) else None

    def to_representation(self, game):
        # By hand, as GameSeatSerializer's (same reason, same test); the seed hidden as
        # HiddenSeedMixin hides it.
        moment = self.fields["finished_at"].to_representation
        return {
            "id": game.id,
            "tournament": game.tournament_id,
            "title": game.tournament.title,
            "number": game.number,
            "table": game.table,
            "seed": game.seed if game.seed_is_public() else None,
            "status": game.status,
            "attempts": game.attempts,
            "error": game.error,
            "error_detail": self.get_error_detail(game),
            "queued_at": moment(game.queued_at) if game.queued_at else None,
            "started_at": moment(game.started_at) if game.started_at else None,
            "finished_at": moment(game.finished_at) if game.finished_at else None,
            "match_ms": game.match_ms,
            "engine_version": game.engine_version,
            "rules_version": game.rules_version,
            "seats": self.fields["seats"].to_representation(game.seats.all()),
        }

    class Meta:
        model = Game
        fields = [
            "id",
            "tournament",
            "title",
            "number",
            "table",
            "seed",
            "status",
            "attempts",
            "error",
            "error_detail",
            "queued_at",
            "started_at",
            "finished_at",
            "match_ms",
            "engine_version",
            "rules_version",
            "seats",
        ]


class QueueCountsSerializer(serializers.Serializer):
    scheduled = serializers.IntegerField(help_text="waiting for room in the tournament's window")
    queued = serializers.IntegerField(help_text="sent to the workers, not claimed yet")
    running = serializers.IntegerField()
    expired = serializers.IntegerField(help_text="running, lease run out: the sweep requeues it")
    failed = serializers.IntegerField()
    finished = serializers.IntegerField()


class TournamentQueueSerializer(QueueCountsSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    title = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    oldest_queued_at = serializers.DateTimeField(allow_null=True)


class WorkerQueueSerializer(serializers.Serializer):
    worker = serializers.CharField(help_text="one pool process: host:pid:suffix")
    running = serializers.IntegerField()
    expired = serializers.IntegerField(help_text="of its running games, leases run out")
    failed = serializers.IntegerField(help_text="games it last held that failed in 24 h")
    oldest_started_at = serializers.DateTimeField(allow_null=True)


class SandboxCountsSerializer(serializers.Serializer):
    refused_calls = serializers.IntegerField(
        help_text="seats of games finished in 24 h whose bot made system calls the sandbox refused"
    )
    memory_faults = serializers.IntegerField(
        help_text="seats of games finished in 24 h whose sandbox ran out of memory"
    )
    runner_kills = serializers.IntegerField(
        help_text="seats whose sandbox was killed in the last 24 h because the worker process "
        "running their game died"
    )


class RecordKeySerializer(serializers.Serializer):
    algorithm = serializers.CharField()
    public_key = serializers.CharField(help_text="base64url of the key's 32 bytes")
    development_key = serializers.BooleanField(
        help_text="true while the platform signs with the development key its source "
        "publishes: such a signature proves nothing"
    )
    verify = serializers.CharField(help_text="the command that checks a downloaded record")


class QueueStatusSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    tournaments = TournamentQueueSerializer(
        many=True,
        help_text="running or paused tournaments, and any with a game queued, running or "
        "failed in the last 24 hours",
    )
    workers = WorkerQueueSerializer(many=True)
    totals = QueueCountsSerializer(help_text="over the tournaments listed")
    lease_seconds = serializers.IntegerField(help_text="ARENA_GAME_LEASE_SECONDS")
    sweep_seconds = serializers.IntegerField(help_text="ARENA_SWEEP_SECONDS")
    games_in_flight = serializers.IntegerField(help_text="ARENA_GAMES_IN_FLIGHT")
    sandbox = SandboxCountsSerializer(help_text="what the sandboxes refused or ended lately")


# -- ratings ---------------------------------------------------------------------------------


class RatingSerializer(serializers.ModelSerializer):
    """A bot version's rating in one tournament: a row of its standings."""

    bot = serializers.CharField(source="bot_version.label", read_only=True)
    bot_id = serializers.IntegerField(source="bot_version.bot_id", read_only=True)
    average_score = serializers.FloatField(read_only=True, allow_null=True)

    class Meta:
        model = Rating
        fields = [
            "id",
            "tournament",
            "bot_version",
            "bot_id",
            "bot",
            "ordinal",
            "mu",
            "sigma",
            "games",
            "wins",
            "average_score",
            "faulted_games",
        ]


class RatingChangeSerializer(serializers.ModelSerializer):
    # the rating before the game (arena.ratings.services.changes_with_before)
    mu_before = serializers.FloatField(source="mu_prior", read_only=True)
    sigma_before = serializers.FloatField(source="sigma_prior", read_only=True)
    game_number = serializers.IntegerField(source="game.number", read_only=True)
    finished_at = serializers.DateTimeField(
        source="game.finished_at", read_only=True, allow_null=True
    )

    class Meta:
        model = RatingChange
        fields = [
            "game",
            "game_number",
            "finished_at",
            "mu_before",
            "sigma_before",
            "mu",
            "sigma",
            "ordinal",
        ]


class ChallengeOptSerializer(KnownFieldsOnly, serializers.Serializer):
    accepts = StrictBooleanField(help_text="false: others cannot challenge it on ladders")
