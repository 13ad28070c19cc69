"""Query filters of the list endpoints; every one is documented in the schema."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django_filters import rest_framework as filters

import engine
from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating
from arena.tournaments.models import Tournament


def _titles():
    return [(t, t) for t in engine.titles()]


class BotFilter(filters.FilterSet):
    owner = filters.CharFilter(field_name="owner__username", help_text="the owner's username")
    title = filters.ChoiceFilter(choices=_titles)

    class Meta:
        model = Bot
        fields = ["title", "owner"]


class BotVersionFilter(filters.FilterSet):
    title = filters.ChoiceFilter(field_name="bot__title", choices=_titles)

    class Meta:
        model = BotVersion
        fields = ["bot", "status", "title"]


class TournamentFilter(filters.FilterSet):
    title = filters.ChoiceFilter(choices=_titles)

    class Meta:
        model = Tournament
        fields = ["title", "status", "format"]


class GameFilter(filters.FilterSet):
    title = filters.ChoiceFilter(field_name="tournament__title", choices=_titles)
    bot = filters.NumberFilter(method="with_bot", help_text="games a version of this bot played")
    version = filters.NumberFilter(method="with_version", help_text="games this version played")
    finished_after = filters.IsoDateTimeFilter(field_name="finished_at", lookup_expr="gte")
    finished_before = filters.IsoDateTimeFilter(field_name="finished_at", lookup_expr="lt")

    class Meta:
        model = Game
        fields = ["tournament", "status", "title", "bot", "version"]

    def with_bot(self, games, name, value):
        seats = GameSeat.objects.filter(game=OuterRef("pk"), bot_version__bot_id=int(value))
        return games.filter(Exists(seats))

    def with_version(self, games, name, value):
        return games.filter(
            Exists(GameSeat.objects.filter(game=OuterRef("pk"), bot_version_id=int(value)))
        )


class RatingFilter(filters.FilterSet):
    bot = filters.NumberFilter(field_name="bot_version__bot", help_text="ratings of this bot")

    class Meta:
        model = Rating
        fields = ["tournament", "bot_version", "bot"]
