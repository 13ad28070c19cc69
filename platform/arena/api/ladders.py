"""The ladders' API: standing ladders, their leaderboards and bots' rating histories,
challenges and withdrawals, and the title ratings across every competition."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Prefetch
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, Throttled, ValidationError
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

import engine
from arena.bots.models import Bot
from arena.games.models import Game
from arena.ratings.lines import rating_lines
from arena.ratings.models import TitleRating, TitleRatingChange
from arena.tournaments import house_ladders, ladders, spec
from arena.tournaments.leaderboard import leaderboard
from arena.tournaments.models import Challenge, Tournament
from arena.tournaments.services import TournamentError

from .errors import Conflict
from .fields import IdField, StrictCharField
from .filters import LadderFilter, TitleRatingFilter
from .serializers import KnownFieldsOnly
from .views import ArenaViewSet


class LadderSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    """A ladder; created as on the web form: running at once, with the house bots and every
    bot's newest ready version of the title."""

    name = StrictCharField(max_length=spec.NAME_MAX_LENGTH)
    title = serializers.ChoiceField(choices=())
    players = serializers.IntegerField(
        source="seats",
        min_value=ladders.PLAYERS_MIN,
        max_value=ladders.PLAYERS_MAX,
        help_text="players at each table (within the title's range)",
    )
    options = serializers.DictField(
        required=False,
        child=serializers.JSONField(),
        help_text="rule option overrides (see the title's options); answered resolved",
    )

    class Meta:
        model = Tournament
        fields = ["id", "name", "title", "players", "options", "status", "created"]
        read_only_fields = ["status", "created"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].choices = engine.titles()

    def validate(self, attrs):
        title = engine.title(attrs["title"])
        if not title.min_players <= attrs["seats"] <= title.max_players:
            raise serializers.ValidationError(
                {"players": [f"{title.name} takes {title.min_players} to {title.max_players}."]}
            )
        return attrs


class LeaderboardRowSerializer(serializers.Serializer):
    """A bot on the ladder, with its current version's ladder rating."""

    rank = serializers.IntegerField()
    bot_id = serializers.IntegerField(source="bot.pk")
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    version = serializers.IntegerField(source="version.number")
    bot_version = serializers.IntegerField(source="version.pk")
    status = serializers.CharField(help_text="active, or suspended (its games kept faulting)")
    ordinal = serializers.FloatField(source="rating.ordinal", help_text="μ − 3σ")
    mu = serializers.FloatField(source="rating.mu")
    sigma = serializers.FloatField(source="rating.sigma")
    games = serializers.IntegerField(source="rating.games")
    wins = serializers.IntegerField(source="rating.wins")
    win_rate = serializers.FloatField(allow_null=True)
    win_low = serializers.SerializerMethodField(help_text="95 % Wilson interval, low end")
    win_high = serializers.SerializerMethodField(help_text="95 % Wilson interval, high end")
    fault_rate = serializers.FloatField(allow_null=True)
    last_game = serializers.DateTimeField(allow_null=True)

    def get_win_low(self, row) -> float | None:
        return row.win_interval[0] if row.win_interval else None

    def get_win_high(self, row) -> float | None:
        return row.win_interval[1] if row.win_interval else None


class HistoryPointSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id", help_text="the point's (last) game")
    game_index = serializers.IntegerField(help_text="the bot's rated games on the ladder so far")
    games = serializers.IntegerField(help_text="the rated games the point stands for")
    finished_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    new_version = serializers.BooleanField(help_text="the first point of this version")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class ChallengeSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    bot = IdField(queryset=Bot.objects.all(), write_only=True, help_text="your bot on the ladder")
    opponents = IdField(
        queryset=Bot.objects.all(), many=True, write_only=True, help_text="bots on the ladder"
    )
    games = serializers.IntegerField(
        source="game_count",
        min_value=1,
        max_value=settings.ARENA_CHALLENGE_MAX_GAMES,
        help_text="how many games to play now (ARENA_CHALLENGE_MAX_GAMES at most)",
    )
    requester = serializers.CharField(source="requester.username", read_only=True)
    game_ids = serializers.PrimaryKeyRelatedField(
        source="games", many=True, read_only=True, help_text="its games, in order"
    )

    class Meta:
        model = Challenge
        fields = [
            "id",
            "requester",
            "bot",
            "bot_version",
            "opponents",
            "games",
            "game_ids",
            "created",
        ]
        read_only_fields = ["bot_version", "created"]


class WithdrawSerializer(KnownFieldsOnly, serializers.Serializer):
    bot = IdField(queryset=Bot.objects.all(), help_text="your bot")


class LadderViewSet(
    mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, ArenaViewSet
):
    """Standing ladders (one per title and player count, and organisers' own): the
    leaderboard, each bot's rating history with markers at new versions, challenges (games
    now, ahead of the ladder's; throttled per player) and withdrawals."""

    queryset = Tournament.objects.filter(standing=True).order_by("id")
    serializer_class = LadderSerializer
    filterset_class = LadderFilter
    throttle_scopes = {"create": "tournament", "challenges": "tournament"}
    conflict_actions = ("withdraw",)

    def perform_create(self, serializer):
        data = serializer.validated_data
        try:
            serializer.instance = house_ladders.create_ladder(
                organiser=self.request.user, name=data["name"], title=data["title"],
                players=data["seats"], options=data.get("options") or None,
            )  # fmt: skip
        except engine.ConfigError as err:
            raise ValidationError({"options": [str(err)]}) from None
        except TournamentError as err:
            raise ValidationError({"players": [str(err)]}) from None

    @extend_schema(responses=LeaderboardRowSerializer(many=True), summary="The leaderboard")
    @action(detail=True, methods=["get"], filterset_class=None)
    def leaderboard(self, request, pk=None):
        rows = leaderboard(self.get_object())
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(LeaderboardRowSerializer(page, many=True).data)

    @extend_schema(
        parameters=[OpenApiParameter("bot_id", int, OpenApiParameter.PATH)],
        responses=HistoryPointSerializer(many=True),
        summary="A bot's ladder rating over its games, across its versions (thinned to about "
        "100 points, every version's first kept; every game's: ratings/{id}/history/)",
    )
    @action(
        detail=True, methods=["get"], url_path=r"history/(?P<bot_id>\d+)",
        filterset_class=None,
    )  # fmt: skip
    def history(self, request, pk=None, bot_id=None):
        bot = get_object_or_404(Bot, pk=bot_id)
        line = rating_lines([bot.pk], tournament=self.get_object().pk)
        page = self.paginate_queryset(line)
        return self.get_paginated_response(HistoryPointSerializer(page, many=True).data)

    @extend_schema(
        methods=["post"], request=ChallengeSerializer, responses={201: ChallengeSerializer},
        summary="Challenge: games now between your bot and chosen opponents",
    )  # fmt: skip
    @extend_schema(methods=["get"], responses=ChallengeSerializer(many=True))
    @action(
        detail=True, methods=["get", "post"], filterset_class=None,
        permission_classes=[permissions.IsAuthenticatedOrReadOnly],
    )  # fmt: skip
    def challenges(self, request, pk=None):
        ladder = self.get_object()
        if request.method == "GET":
            page = self.paginate_queryset(
                Challenge.objects.filter(tournament=ladder)
                .select_related("requester")
                .prefetch_related(Prefetch("games", Game.objects.only("id")))
            )
            return self.get_paginated_response(ChallengeSerializer(page, many=True).data)
        data = ChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if not values["bot"].can_edit(request.user):
            raise PermissionDenied("Only the bot's owner may challenge with it.")
        try:
            challenge = ladders.create_challenge(
                requester=request.user, ladder=ladder, bot=values["bot"],
                opponents=values["opponents"], games=values["game_count"],
            )  # fmt: skip
        except ladders.ChallengeLimit as err:
            raise Throttled(wait=3600, detail=str(err)) from None
        except ladders.LadderError as err:
            raise ValidationError({err.field: [str(err)]}) from None
        return Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=WithdrawSerializer, responses={200: None},
        summary="Withdraw your bot: it plays no new ladder game; a new version joins again",
    )  # fmt: skip
    @action(
        detail=True, methods=["post"], filterset_class=None,
        permission_classes=[permissions.IsAuthenticated],
    )  # fmt: skip
    def withdraw(self, request, pk=None):
        ladder = self.get_object()
        data = WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot = data.validated_data["bot"]
        if not bot.can_edit(request.user):
            raise PermissionDenied("Only the bot's owner may withdraw it.")
        try:
            ladders.withdraw(ladder, bot)
        except ladders.LadderError as err:
            raise Conflict(str(err)) from None
        return Response(status=status.HTTP_200_OK)


class TitleRatingSerializer(serializers.ModelSerializer):
    bot_name = serializers.CharField(source="bot.name", read_only=True)
    title = serializers.CharField(source="bot.title", read_only=True)
    version = serializers.IntegerField(source="bot_version.number", read_only=True)

    class Meta:
        model = TitleRating
        fields = [
            "id", "bot", "bot_name", "title", "players", "version", "ordinal", "mu", "sigma",
            "games", "wins", "faulted_games",
        ]  # fmt: skip


class TitleRatingPointSerializer(serializers.ModelSerializer):
    # the version the bot played the game with (TitleRatingChange.with_version)
    bot_version = serializers.IntegerField(source="version_id", read_only=True)
    version = serializers.IntegerField(source="version_number", read_only=True)
    ordinal = serializers.FloatField(source="ordinal_value", read_only=True)

    class Meta:
        model = TitleRatingChange
        fields = ["game", "bot_version", "version", "mu", "sigma", "ordinal", "at"]


class TitleRatingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ArenaViewSet):
    """Each bot's rating over all its rated games of one player count on its title, whatever
    the competition and version, best first; its history names the version of each point."""

    queryset = TitleRating.objects.select_related("bot", "bot_version").order_by(
        "players", "-ordinal", "id"
    )
    serializer_class = TitleRatingSerializer
    filterset_class = TitleRatingFilter

    @extend_schema(responses=TitleRatingPointSerializer(many=True), summary="One point a game")
    @action(detail=True, methods=["get"], filterset_class=None)
    def history(self, request, pk=None):
        points = TitleRatingChange.with_version(
            TitleRatingChange.objects.filter(title_rating=self.get_object())
        )
        page = self.paginate_queryset(points.order_by("at", "game", "title_rating"))
        return self.get_paginated_response(TitleRatingPointSerializer(page, many=True).data)
