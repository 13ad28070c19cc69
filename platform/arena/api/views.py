"""REST API: declarative viewsets; writes go through the same services as the web pages.

Each viewset declares what its actions can refuse beyond the usual (``conflict_actions``,
``upload_actions``, ``private_actions``) and what they are throttled as (``throttle_scopes``),
so the schema lists exactly the error statuses an operation can answer.
"""

from __future__ import annotations

from django.db.models import Prefetch, ProtectedError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, mixins, permissions, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.exceptions import (
    NotAuthenticated,
    NotFound,
    PermissionDenied,
    ValidationError,
)
from rest_framework.generics import get_object_or_404
from rest_framework.parsers import MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.serializers import CharField, Serializer
from rest_framework.settings import api_settings
from rest_framework.views import APIView

import engine
from arena.bots import services as bot_services
from arena.bots.artifacts import UploadRefused
from arena.bots.forms import oversize_file, oversize_request
from arena.bots.models import Bot, BotVersion
from arena.games import signing
from arena.games.models import Game, GameSeat, deal_pending
from arena.games.presentation import served_record
from arena.games.queue_status import queue_status
from arena.players.services import revoke_token, rotate_token
from arena.ratings.models import Rating, RatingChange
from arena.ratings.services import changes_with_before
from arena.tournaments import services as tournament_services
from arena.tournaments.models import Tournament
from engine.core import signatures

from . import exports
from .caching import CachedReads
from .errors import Conflict, PayloadTooLarge
from .fields import StrictCharField, whole_number
from .filters import BotFilter, BotVersionFilter, GameFilter, RatingFilter, TournamentFilter
from .pagination import Keyset, KeysetByGame
from .permissions import CanEditOrReadOnly
from .serializers import (
    BotSerializer,
    BotVersionSerializer,
    ChallengeOptSerializer,
    GameSerializer,
    PlayerSerializer,
    ProgressSerializer,
    QueueStatusSerializer,
    RatingChangeSerializer,
    RatingSerializer,
    RecordKeySerializer,
    TitleSerializer,
    TournamentSerializer,
    describe_title,
)
from .throttles import ScopedThrottle

CSV = {(200, "text/csv"): OpenApiTypes.STR}


class ArenaViewSet(CachedReads, viewsets.GenericViewSet):
    throttle_classes = [ScopedThrottle]
    throttle_scopes: dict[str, str] = {}
    conflict_actions: tuple[str, ...] = ()
    upload_actions: tuple[str, ...] = ()
    private_actions: tuple[str, ...] = ()

    def initial(self, request, *args, **kwargs):
        for raw in kwargs.values():  # ids in the path: digits beyond a column name nothing
            if raw.lstrip("-").isdigit() and whole_number(raw) is None:
                raise NotFound("No such resource.")
        super().initial(request, *args, **kwargs)
        repeated = sorted(k for k, v in request.query_params.lists() if len(v) > 1)
        if repeated:
            # Django would silently keep the last value; say so instead of guessing.
            raise ValidationError({k: ["Give this query parameter once."] for k in repeated})


# -- titles and the player -------------------------------------------------------------------


class TitleViewSet(ArenaViewSet):
    """The game titles: facts, rules version, built-in bots and rule options with defaults."""

    serializer_class = TitleSerializer
    queryset = Bot.objects.none()  # titles come from the engine; this only names a model
    permission_classes = [permissions.AllowAny]
    pagination_class = None
    lookup_value_regex = r"[a-z0-9_]+"

    def list(self, request):
        return Response([describe_title(t) for t in engine.titles()])

    def retrieve(self, request, pk=None):
        if pk not in engine.titles():
            raise NotFound(f"No title {pk!r}; titles are {', '.join(engine.titles())}.")
        return Response(describe_title(pk))


class SelfView(generics.RetrieveAPIView):
    """The signed-in player (whose token or session this is)."""

    serializer_class = PlayerSerializer
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ScopedThrottle]

    def get_object(self):
        return self.request.user


class TokenRequestSerializer(AuthTokenSerializer):
    """Username and password, as JSON (each as long as the sign-up form allows)."""

    username = StrictCharField(max_length=150, write_only=True)
    password = StrictCharField(
        max_length=4096, write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )


class TokenSerializer(Serializer):
    token = CharField(help_text='send it as the header "Authorization: Token <token>"')


@extend_schema(
    request=TokenRequestSerializer,
    responses={200: TokenSerializer},
    summary="Exchange a username and password for the player's API token",
)
class TokenView(ObtainAuthToken):
    """The player's API token (created on first use); throttled per address."""

    throttle_classes = [ScopedThrottle]
    throttle_scopes = {"post": "login"}
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    serializer_class = TokenRequestSerializer


class TokenRotateView(APIView):
    """A new token for the player whose token (or session) this is; the old one stops
    working at once (the profile page's "replace")."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ScopedThrottle]
    throttle_scopes = {"post": "login"}

    @extend_schema(
        request=None,
        responses=TokenSerializer,
        summary="Replace your API token: the old one stops working",
    )
    def post(self, request):
        return Response({"token": rotate_token(request.user).key})


class TokenRevokeView(APIView):
    """Revoke the player's token: it stops working; POST token/ with the password makes a new
    one (the profile page's "revoke")."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ScopedThrottle]
    throttle_scopes = {"post": "login"}

    @extend_schema(request=None, responses={204: None}, summary="Revoke your API token")
    def post(self, request):
        revoke_token(request.user)
        return Response(status=204)


# -- bots and versions -----------------------------------------------------------------------


class BotViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    ArenaViewSet,
):
    """Bots: a name per title per owner. A bot that has played cannot be deleted (409);
    withdraw its versions instead."""

    queryset = Bot.objects.select_related("owner").order_by("id")
    serializer_class = BotSerializer
    filterset_class = BotFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, CanEditOrReadOnly]
    conflict_actions = ("destroy", "withdraw")

    @extend_schema(
        request=None,
        responses=BotVersionSerializer(many=True),
        summary="Withdraw every version: none enters a new tournament; games stay",
    )
    @action(detail=True, methods=["post"], filterset_class=None, pagination_class=None)
    def withdraw(self, request, pk=None):
        bot = self.get_object()
        versions = bot.versions.exclude(status=BotVersion.Status.WITHDRAWN).order_by("number")
        withdrawn = [v for v in versions if v.withdraw()]
        if not withdrawn:
            raise Conflict(f"{bot.name} has no version to withdraw.")
        fresh = BotVersion.objects.filter(pk__in=[v.pk for v in withdrawn]).order_by("number")
        context = self.get_serializer_context()
        return Response(BotVersionSerializer(fresh, many=True, context=context).data)

    @extend_schema(
        request=ChallengeOptSerializer,
        responses=BotSerializer,
        summary="Let others challenge the bot on ladders, or not",
    )
    @action(
        detail=True,
        methods=["post"],
        filterset_class=None,
        pagination_class=None,
    )
    def challenges(self, request, pk=None):
        bot = self.get_object()
        opt = ChallengeOptSerializer(data=request.data)
        opt.is_valid(raise_exception=True)
        bot.accepts_challenges = opt.validated_data["accepts"]
        bot.save(update_fields=["accepts_challenges"])
        return Response(self.get_serializer(bot).data)

    def perform_create(self, serializer):
        try:
            serializer.instance = bot_services.create_bot(
                owner=self.request.user,
                title=serializer.validated_data["title"],
                name=serializer.validated_data["name"],
                description=serializer.validated_data.get("description", ""),
                decision_logs_public=serializer.validated_data.get("decision_logs_public", False),
            )
        except ValueError as err:
            raise ValidationError({"name": [str(err)]}) from None

    def perform_destroy(self, instance):
        if has_played(instance):
            raise Conflict(
                f"{instance.name} has played or is entered in a tournament, so its games keep "
                "it; withdraw its versions instead."
            )
        try:
            instance.delete()
        except ProtectedError:  # entered between the check and the delete
            raise Conflict(f"{instance.name} was just entered in a tournament.") from None


def has_played(bot: Bot) -> bool:
    """Whether any version of ``bot`` sits in a game or is entered in a tournament."""
    return (
        GameSeat.objects.filter(bot_version__bot=bot).exists()
        or BotVersion.objects.filter(bot=bot, entries__isnull=False).exists()
    )


class BotVersionViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    ArenaViewSet,
):
    """Versions: upload (multipart), then poll ``status`` (pending, validating, ready or
    rejected with ``reason``); the owner reads the smoke game's ``validation_stderr``."""

    queryset = BotVersion.objects.select_related("bot__owner").order_by("id")
    serializer_class = BotVersionSerializer
    filterset_class = BotVersionFilter
    parser_classes = [MultiPartParser]
    throttle_scopes = {"create": "upload"}
    upload_actions = ("create",)
    conflict_actions = ("withdraw",)

    @extend_schema(request=None, summary="Withdraw the version: it enters no new tournament")
    @action(detail=True, methods=["post"], filterset_class=None)
    def withdraw(self, request, pk=None):
        version = self.get_object()
        if not version.bot.can_edit(request.user):
            raise PermissionDenied("Only the bot's owner may withdraw its versions.")
        if not version.withdraw():
            raise Conflict(f"{version.label} is already withdrawn.")
        version.refresh_from_db()
        return Response(self.get_serializer(version).data)

    def initial(self, request, *args, **kwargs):
        if self.action in self.upload_actions:
            # Before authentication, whose CSRF check would read the body whole.
            refused = oversize_request(request.META.get("CONTENT_LENGTH"))
            if refused:
                raise PayloadTooLarge(refused)
        super().initial(request, *args, **kwargs)

    def perform_create(self, serializer):
        bot = serializer.validated_data["bot"]
        if not bot.can_edit(self.request.user):
            raise PermissionDenied("Only the bot's owner may upload versions.")
        upload = serializer.validated_data["file"]
        refused = oversize_file(upload.size)
        if refused:
            raise PayloadTooLarge(refused)
        try:
            serializer.instance = bot_services.upload_version(
                bot=bot, filename=upload.name, data=upload.read()
            )
        except UploadRefused as err:
            raise ValidationError({"file": [str(err)]}) from None


# -- tournaments -----------------------------------------------------------------------------

STATE_CHANGES = {
    "start": tournament_services.start_tournament,
    "pause": tournament_services.pause_tournament,
    "resume": tournament_services.resume_tournament,
    "cancel": tournament_services.cancel_tournament,
}
_state_change = extend_schema(request=None, responses=TournamentSerializer)


@extend_schema_view(
    start=extend_schema(summary="draft → running: create the games and send them"),
    pause=extend_schema(summary="running → paused: queued games wait"),
    resume=extend_schema(summary="paused → running"),
    cancel=extend_schema(summary="→ cancelled: games not started are void"),
)
class TournamentViewSet(
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    ArenaViewSet,
):
    """Tournaments: create a draft (bounds and defaults as on the web form), then start,
    pause, resume or cancel it (409 when its state does not allow it); follow ``progress``
    and ``standings``."""

    queryset = Tournament.objects.select_related("organiser").order_by("id")
    serializer_class = TournamentSerializer
    filterset_class = TournamentFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, CanEditOrReadOnly]
    throttle_scopes = {"create": "tournament"}
    conflict_actions = tuple(STATE_CHANGES)

    def get_queryset(self):
        if self.action in ("list", "retrieve", "create"):  # the answers that list entrants
            return self.queryset.prefetch_related("entries")
        return self.queryset

    def perform_create(self, serializer):
        try:
            serializer.instance = tournament_services.create_tournament(
                organiser=self.request.user, **serializer.validated_data
            )
        except engine.ConfigError as err:
            raise ValidationError({"options": [str(err)]}) from None
        except tournament_services.TournamentError as err:
            raise ValidationError({"entrants": [str(err)]}) from None

    def _change(self, name: str):
        tournament = self.get_object()
        try:
            STATE_CHANGES[name](tournament.pk)
        except tournament_services.TournamentError as err:
            raise Conflict(str(err)) from None
        tournament.refresh_from_db()
        return Response(self.get_serializer(tournament).data)

    @_state_change
    @action(detail=True, methods=["post"])
    def start(self, request, pk=None):
        return self._change("start")

    @_state_change
    @action(detail=True, methods=["post"])
    def pause(self, request, pk=None):
        return self._change("pause")

    @_state_change
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return self._change("resume")

    @_state_change
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        return self._change("cancel")

    @extend_schema(responses=ProgressSerializer, summary="How many games are done")
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=None)
    def progress(self, request, pk=None):
        tournament = self.get_object()
        progress = tournament_services.progress(tournament)
        return Response({"status": tournament.status, **progress})

    def _standings(self):
        tournament = self.get_object()
        return tournament.ratings.select_related("bot_version__bot__owner").order_by(
            "-ordinal", "bot_version_id"
        )

    @extend_schema(responses=RatingSerializer(many=True), summary="Ratings, best first")
    @action(detail=True, methods=["get"], filterset_class=None)
    def standings(self, request, pk=None):
        page = self.paginate_queryset(self._standings())
        return self.get_paginated_response(RatingSerializer(page, many=True).data)

    @extend_schema(responses=CSV, summary="The standings as CSV")
    @action(
        detail=True,
        methods=["get"],
        url_path="standings/csv",
        renderer_classes=[JSONRenderer, exports.CSVRenderer],
        filterset_class=None,
        pagination_class=None,
    )
    def standings_csv(self, request, pk=None):
        return exports.standings_csv(self._standings(), f"tournament-{pk}-standings.csv")


# -- games -----------------------------------------------------------------------------------


# What a listed seat shows: only these columns of the seat are read (its ``bot`` label comes
# from the versions prefetched beside it).
SEAT_LISTED = (
    "game_id", "seat", "bot_version_id", "score", "rank", "winner", "status", "fault_count",
    "faults",
)  # fmt: skip


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ArenaViewSet):
    """Games with their seats (scores, ranks, faults); the replay record; each seat's stderr
    for its bot's owner; CSV of the filtered games, one row per seat."""

    # The tournament is prefetched, not joined: with the join in the statement, PostgreSQL
    # plans the bot filter's semi-join as a nested loop over every seat of the bot for each
    # game (seconds at 10,000 games; bench/api.py). What the list does not show (records,
    # running games' records so far, stats, stderr logs) is never read. The seats' versions
    # are prefetched too, so a page's 200 seats share the few versions they name: joined,
    # each seat built its own version, bot and owner, which took a third of the list's CPU.
    queryset = (
        Game.objects.defer("record", "progress", "stats")
        .prefetch_related(
            "tournament",
            Prefetch(
                "seats",
                # ordered by the game's id, not its ordering (which would join the games
                # and their tournaments to sort the seats)
                GameSeat.objects.only(*SEAT_LISTED).order_by("game_id", "seat"),
            ),
            Prefetch(
                "seats__bot_version",
                BotVersion.objects.select_related("bot__owner").only(
                    "number", "bot__name", "bot__owner__username"
                ),
            ),
        )
        .annotate(deal_pending=deal_pending())  # the seed's publicness, in the same statement
        .order_by("id")
    )
    serializer_class = GameSerializer
    filterset_class = GameFilter
    pagination_class = Keyset  # a ladder's games grow without end: no page numbers, no count
    throttle_scopes = {"*": "games"}
    private_actions = ("stderr",)

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="The replay record (title, options, seed, chance outcomes, actions), signed "
        "by the platform (its public key: /api/v1/record-key/); decision_logs: the bots' "
        "notes the caller may read (act's log), by seat and decision",
    )
    @action(detail=True, methods=["get"], filterset_class=None)
    def replay(self, request, pk=None):
        game = get_object_or_404(Game, pk=pk)
        refused = game.replay_withheld()
        if refused:
            raise NotFound(refused)
        seats = game.seats.select_related("bot_version__bot").order_by("seat")
        return Response(served_record(game, seats, request.user))

    @extend_schema(
        parameters=[OpenApiParameter("seat", int, OpenApiParameter.PATH)],
        responses={(200, "text/plain"): OpenApiTypes.STR},
        summary="A seat's stderr log: for the owner of that seat's bot (and staff)",
    )
    @action(
        detail=True,
        methods=["get"],
        url_path=r"seats/(?P<seat>\d+)/stderr",
        renderer_classes=[JSONRenderer, exports.PlainTextRenderer],
        filterset_class=None,
    )
    def stderr(self, request, pk=None, seat=None):
        row = get_object_or_404(
            GameSeat.objects.select_related("bot_version__bot"), game_id=pk, seat=seat
        )
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not row.bot_version.bot.can_edit(request.user):
            raise PermissionDenied("Only the bot's owner may read its stderr log.")
        return exports.text(row.stderr)

    @extend_schema(
        responses=CSV, filters=True, summary="The filtered games as CSV, one row per seat"
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="csv",
        pagination_class=None,
        renderer_classes=[JSONRenderer, exports.CSVRenderer],
    )
    def csv(self, request):
        games = self.filter_queryset(Game.objects.order_by("id"))
        seated = GameFilter.seated_versions(request.query_params)
        only = GameFilter.only_seated(request.query_params)
        return exports.games_csv(games, "games.csv", seated, only_seated=only)


class RecordKeyView(generics.GenericAPIView):
    """The public key that the records this platform serves are signed with, and how to
    check a downloaded record with it."""

    serializer_class = RecordKeySerializer
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ScopedThrottle]

    @extend_schema(summary="The public key of the records' signatures")
    def get(self, request):
        key = signing.public_key()
        return Response(
            RecordKeySerializer(
                {
                    "algorithm": signatures.ALGORITHM,
                    "public_key": key,
                    "development_key": signing.is_development_key(),
                    "verify": f"python -m engine replay --verify --public-key {key} RECORD.json",
                }
            ).data
        )


class QueueView(generics.GenericAPIView):
    """Staff only: games scheduled, queued, running and failed per tournament (ladders
    included) and running and failed per worker process, with leases run out."""

    serializer_class = QueueStatusSerializer
    permission_classes = [permissions.IsAdminUser]
    throttle_classes = [ScopedThrottle]
    private_actions = ("get",)

    @extend_schema(summary="The work queue per tournament and per worker (staff only)")
    def get(self, request):
        return Response(QueueStatusSerializer(queue_status().as_dict()).data)


# -- ratings ---------------------------------------------------------------------------------


RATING_CHANGE_LISTED = (
    "rating_id",
    "game_id",
    "mu_before",
    "sigma_before",
    "mu",
    "sigma",
    "ordinal",
)


class RatingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ArenaViewSet):
    """Ratings (OpenSkill μ, σ and μ−3σ) per tournament and bot version, and their history."""

    queryset = Rating.objects.select_related("bot_version__bot__owner").order_by("id")
    serializer_class = RatingSerializer
    filterset_class = RatingFilter

    @extend_schema(
        responses=RatingChangeSerializer(many=True),
        summary="One row per rated game, in the order they were rated",
    )
    @action(detail=True, methods=["get"], filterset_class=None, pagination_class=KeysetByGame)
    def history(self, request, pk=None):
        rating = self.get_object()
        # the game's number and finish only, not its record and stats
        changes = changes_with_before(
            RatingChange.objects.filter(rating=rating)
            .select_related("game")
            .only(*RATING_CHANGE_LISTED, "game__number", "game__finished_at")
        )
        page = self.paginate_queryset(changes)
        return self.get_paginated_response(RatingChangeSerializer(page, many=True).data)
