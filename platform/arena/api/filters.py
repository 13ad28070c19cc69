"""Query filters of the list endpoints; every one is documented in the schema.

Ids and titles filter by equality (an unknown one matches nothing: 200 and an empty page);
a parameter given empty, not of its type, or a number beyond what a column holds, is a 400
naming it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db.models import Exists, Min, OuterRef, Subquery
from django_filters import rest_framework as filters
from django_filters.fields import IsoDateTimeField
from drf_spectacular.utils import extend_schema_field

from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating, TitleRating
from arena.tournaments.models import Tournament

from .fields import ID_SCHEMA, INT_MAX, INT_MIN

# A whole number as the schema's integer is written: not 6.0, 1_000, " 6" or another script's
# digits, all of which Python's int() (and so Django's IntegerField) takes.
WHOLE_NUMBER = re.compile(r"-?[0-9]+")


class IdFormField(forms.IntegerField):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, min_value=INT_MIN, max_value=INT_MAX, **kwargs)

    def to_python(self, value):
        if value not in self.empty_values and not WHOLE_NUMBER.fullmatch(str(value)):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


@extend_schema_field(ID_SCHEMA)
class IdFilter(filters.NumberFilter):
    """Equality on a whole-number id (within a column's range: SQLite's driver cannot even
    send a larger one)."""

    field_class = IdFormField


class UtcDateTimeField(IsoDateTimeField):
    """An ISO 8601 date-time, turned into UTC here: PostgreSQL refuses offsets beyond
    ±15:59, and a date-time at the edge of year 1 has no UTC value at all."""

    def to_python(self, value):
        moment = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(UTC)
        except OverflowError:  # within hours of year 1 or 9999: as far as any game goes
            edge = datetime.min if moment.year == 1 else datetime.max
            return edge.replace(tzinfo=UTC)


class DateTimeFilter(filters.IsoDateTimeFilter):
    field_class = UtcDateTimeField


class AnyTextField(forms.CharField):
    """Text that may hold a NUL character (no stored text does; see TextFilter)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]


@extend_schema_field({"type": "string", "minLength": 1})
class TextFilter(filters.CharFilter):
    """Equality on text, given non-empty; a value with a NUL character matches nothing
    (PostgreSQL text holds none, and would refuse the query)."""

    field_class = AnyTextField

    def filter(self, qs, value):
        if value and "\x00" in value:
            return qs.none()
        return super().filter(qs, value)


def _title(field: str = "title") -> TextFilter:
    return TextFilter(field_name=field, help_text="a title id, e.g. citadels or praga")


class StrictFilterSet(filters.FilterSet):
    """A parameter may not be given empty (django-filter would ignore it): leave it out."""

    def is_valid(self):
        valid = super().is_valid()
        for name, value in self.data.items():
            if value == "" and name in self.filters:
                self.form.add_error(name, "Give a value, or leave the parameter out.")
                valid = False
        return valid


class BotFilter(StrictFilterSet):
    owner = TextFilter(field_name="owner__username", help_text="the owner's username")
    title = _title()

    class Meta:
        model = Bot
        fields = ["title", "owner"]


class BotVersionFilter(StrictFilterSet):
    title = _title("bot__title")
    bot = IdFilter(field_name="bot_id", help_text="versions of this bot")

    class Meta:
        model = BotVersion
        fields = ["bot", "status", "title"]


class TournamentFilter(StrictFilterSet):
    title = _title()

    class Meta:
        model = Tournament
        fields = ["title", "status", "format"]


class GameFilter(StrictFilterSet):
    tournament = IdFilter(field_name="tournament_id", help_text="games of this tournament")
    title = _title("tournament__title")
    bot = IdFilter(method="with_bot", help_text="games a version of this bot played")
    version = IdFilter(method="with_version", help_text="games this bot version played")
    finished_after = DateTimeFilter(field_name="finished_at", lookup_expr="gte")
    finished_before = DateTimeFilter(field_name="finished_at", lookup_expr="lt")

    class Meta:
        model = Game
        fields = ["tournament", "status", "title", "bot", "version"]

    @classmethod
    def seated_versions(cls, params) -> list[int] | None:
        """The bot versions one of which every game the bot and version filters of
        ``params`` (valid: the list read them first) leave seats; None without them."""
        found = cls(params, queryset=Game.objects.none())
        found.is_valid()
        bot, version = found.form.cleaned_data.get("bot"), found.form.cleaned_data.get("version")
        if bot is None and version is None:
            return None
        versions = BotVersion.objects.filter(bot_id=bot) if bot is not None else BotVersion.objects
        if version is not None:
            versions = versions.filter(pk=version)
        return list(versions.order_by("pk").values_list("pk", flat=True))

    @classmethod
    def only_seated(cls, params) -> bool:
        """Whether ``params`` give no filter but bot and version: the games seating their
        versions (:meth:`seated_versions`) are then exactly the filtered games."""
        return set(params) & set(cls.base_filters) <= {"bot", "version"}

    def with_bot(self, games, name, value):
        versions = BotVersion.objects.filter(bot_id=value)
        first = versions.annotate(first=_first_game(OuterRef("pk"))).aggregate(Min("first"))
        return games.filter(
            Exists(_seats().filter(bot_version__bot_id=value)), id__gte=first["first__min"] or 0
        )

    def with_version(self, games, name, value):
        return games.filter(
            Exists(_seats().filter(bot_version_id=value)), id__gte=_first_game(value)
        )


def _seats():
    return GameSeat.objects.filter(game=OuterRef("pk"))


def _first_game(version) -> Subquery:
    """The first game ``version`` sat in (one probe of the seats' (version, game) index).
    The bot and version filters start the games there: PostgreSQL merges the games in id
    order with the version's seats and, not knowing where those begin, walked every game
    before them (160 ms for a version that joined three quarters into 100,000 games,
    bench/history.py; 0.5 ms from its first game)."""
    seats = GameSeat.objects.filter(bot_version_id=version).order_by("game_id")
    return Subquery(seats.values("game_id")[:1])


class RatingFilter(StrictFilterSet):
    tournament = IdFilter(field_name="tournament_id", help_text="ratings in this tournament")
    bot_version = IdFilter(field_name="bot_version_id", help_text="ratings of this bot version")
    bot = IdFilter(field_name="bot_version__bot_id", help_text="ratings of this bot's versions")

    class Meta:
        model = Rating
        fields = ["tournament", "bot_version", "bot"]


class LadderFilter(StrictFilterSet):
    title = _title()

    class Meta:
        model = Tournament
        fields = ["title", "status"]


class TitleRatingFilter(StrictFilterSet):
    title = _title("bot__title")
    bot = IdFilter(field_name="bot_id", help_text="the title ratings of this bot")
    players = IdFilter(field_name="players", help_text="ratings at tables of this many players")

    class Meta:
        model = TitleRating
        fields = ["title", "players", "bot"]
