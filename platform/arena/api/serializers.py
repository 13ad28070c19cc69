from rest_framework import serializers

import engine
from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating
from arena.tournaments.models import Tournament


class BotSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    title = serializers.CharField(max_length=32, help_text="a title id, e.g. citadels or praga")

    class Meta:
        model = Bot
        fields = ["id", "owner", "title", "name", "description", "created"]
        read_only_fields = ["created"]

    def validate_title(self, value: str) -> str:
        if value not in engine.titles():
            raise serializers.ValidationError(
                f"Unknown title {value!r}; titles are {', '.join(engine.titles())}."
            )
        return value


class BotVersionSerializer(serializers.ModelSerializer):
    bot = serializers.PrimaryKeyRelatedField(queryset=Bot.objects.all())
    file = serializers.FileField(
        write_only=True,
        allow_empty_file=True,
        help_text="a .py or .js file, or a zip of the bot's folder (see docs/bot-protocol.md)",
    )
    validation_stderr = serializers.SerializerMethodField()

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


class TournamentSerializer(HiddenSeedMixin, serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username", read_only=True)
    entrants = serializers.PrimaryKeyRelatedField(
        many=True, queryset=BotVersion.objects.filter(status=BotVersion.Status.READY)
    )
    options = serializers.DictField(required=False, help_text="rule option overrides")
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
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


class GameSeatSerializer(serializers.ModelSerializer):
    bot_version = serializers.PrimaryKeyRelatedField(read_only=True)
    bot = serializers.CharField(source="bot_version.label", read_only=True)

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


class GameSerializer(HiddenSeedMixin, serializers.ModelSerializer):
    seats = GameSeatSerializer(many=True, read_only=True)
    seed = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="null until every game dealt from it is over"
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "tournament",
            "number",
            "table",
            "seed",
            "status",
            "attempts",
            "error",
            "queued_at",
            "started_at",
            "finished_at",
            "match_ms",
            "engine_version",
            "rules_version",
            "seats",
        ]


class StandingSerializer(serializers.ModelSerializer):
    bot = serializers.CharField(source="bot_version.label", read_only=True)
    average_score = serializers.FloatField(read_only=True)

    class Meta:
        model = Rating
        fields = [
            "bot_version",
            "bot",
            "ordinal",
            "mu",
            "sigma",
            "games",
            "wins",
            "average_score",
            "faulted_games",
        ]
