"""REST API: declarative viewsets; writes go through the same services as the web pages."""

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

import engine
from arena.bots import services as bot_services
from arena.bots.artifacts import UploadRefused
from arena.bots.models import Bot, BotVersion
from arena.games.models import Game
from arena.tournaments import services as tournament_services
from arena.tournaments.models import Tournament

from .permissions import CanEditOrReadOnly
from .serializers import (
    BotSerializer,
    BotVersionSerializer,
    GameSerializer,
    StandingSerializer,
    TournamentSerializer,
)


class BotFilter(filters.FilterSet):
    owner = filters.CharFilter(field_name="owner__username")

    class Meta:
        model = Bot
        fields = ["title", "owner"]


class BotViewSet(viewsets.ModelViewSet):
    queryset = Bot.objects.select_related("owner").order_by("id")
    serializer_class = BotSerializer
    filterset_class = BotFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, CanEditOrReadOnly]

    def perform_create(self, serializer):
        try:
            serializer.instance = bot_services.create_bot(
                owner=self.request.user,
                title=serializer.validated_data["title"],
                name=serializer.validated_data["name"],
                description=serializer.validated_data.get("description", ""),
            )
        except ValueError as err:
            raise ValidationError({"name": [str(err)]}) from None


class BotVersionViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    queryset = BotVersion.objects.select_related("bot__owner").order_by("id")
    serializer_class = BotVersionSerializer
    filterset_fields = ["bot", "status", "bot__title"]
    parser_classes = [MultiPartParser, FormParser]

    def perform_create(self, serializer):
        bot = serializer.validated_data["bot"]
        if not bot.can_edit(self.request.user):
            raise PermissionDenied("Only the bot's owner may upload versions.")
        upload = serializer.validated_data["file"]
        try:
            serializer.instance = bot_services.upload_version(
                bot=bot, filename=upload.name, data=upload.read(self._limit() + 1)
            )
        except UploadRefused as err:
            raise ValidationError({"file": [str(err)]}) from None

    @staticmethod
    def _limit() -> int:
        from django.conf import settings

        return settings.ARENA_UPLOAD_MAX_BYTES


class TournamentViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    queryset = Tournament.objects.select_related("organiser").prefetch_related("entries")
    serializer_class = TournamentSerializer
    filterset_fields = ["title", "status", "format"]
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, CanEditOrReadOnly]
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    def perform_create(self, serializer):
        data = serializer.validated_data
        try:
            serializer.instance = tournament_services.create_tournament(
                organiser=self.request.user,
                name=data["name"],
                title=data["title"],
                seats=data["seats"],
                entrants=list(data["entrants"]),
                format=data.get("format", Tournament.Format.ROUND_ROBIN),
                rounds=data.get("rounds", 1),
                ladder_games=data.get("ladder_games", 0),
                options=data.get("options") or {},
                decision_ms=data.get("decision_ms", 1000),
                bank_ms=data.get("bank_ms", 10_000),
                seed=data.get("seed"),  # None: drawn at random
            )
        except engine.ConfigError as err:
            raise ValidationError({"options": [str(err)]}) from None
        except tournament_services.TournamentError as err:
            raise ValidationError({"entrants": [str(err)]}) from None

    def _act(self, request, change):
        tournament = self.get_object()
        try:
            change(tournament.pk)
        except tournament_services.TournamentError as err:
            return Response({"detail": str(err)}, status=status.HTTP_409_CONFLICT)
        tournament.refresh_from_db()
        return Response(self.get_serializer(tournament).data)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._act(request, tournament_services.start_tournament)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        return self._act(request, tournament_services.pause_tournament)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._act(request, tournament_services.resume_tournament)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        return self._act(request, tournament_services.cancel_tournament)

    @extend_schema(responses=StandingSerializer(many=True))
    @action(detail=True, methods=["get"], permission_classes=[permissions.AllowAny])
    def standings(self, request, pk=None):
        tournament = self.get_object()
        ratings = tournament.ratings.select_related("bot_version__bot__owner").order_by(
            "-ordinal", "bot_version_id"
        )
        return Response(StandingSerializer(ratings, many=True).data)


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Game.objects.prefetch_related("seats__bot_version__bot__owner").order_by("id")
    serializer_class = GameSerializer
    filterset_fields = ["tournament", "status"]

    @extend_schema(responses={200: dict})
    @action(detail=True, methods=["get"])
    def replay(self, request, pk=None):
        game = self.get_object()
        if not game.record:
            return Response({"detail": "no replay yet"}, status=status.HTTP_404_NOT_FOUND)
        return Response(game.record)
