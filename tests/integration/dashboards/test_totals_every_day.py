"""The totals' rows of every day (``arena.games.models.ALL_DAYS``): on games of two days
they are each day's rows summed, and a page without dates, which reads them, shows what the
same page shows over the dates of every game, which reads each day's rows."""

import dataclasses
import datetime as dt
from collections import defaultdict

import pytest
from django.db.models import F

from arena.games import totals
from arena.games.models import ALL_DAYS, Game
from dashboards import tables
from dashboards.queries import Selection
from dashboards.queries_ratings import RatingsSelection

from .test_ratings_totals import citadels_bots

pytestmark = pytest.mark.django_db

DAYS_BACK = 3


@pytest.fixture
def two_days(history):
    """The history with every other game finished DAYS_BACK days earlier, folded again."""
    finished = Game.objects.filter(status=Game.Status.FINISHED).order_by("id")
    earlier = list(finished.values_list("id", flat=True)[::2])
    Game.objects.filter(id__in=earlier).update(
        finished_at=F("finished_at") - dt.timedelta(days=DAYS_BACK)
    )
    totals.rebuild()
    return history


def summed(rows, key: list[str], sums: list[str]) -> dict[tuple, tuple]:
    """The rows' sums per key (rows of one key beside each other: a NULL never conflicts)."""
    found = defaultdict(lambda: [0] * len(sums))
    for row in rows:
        added = found[tuple(row[f] for f in key)]
        for i, name in enumerate(sums):
            added[i] += row[name]
    return {k: tuple(round(v, 9) for v in values) for k, values in found.items()}


def test_every_totals_rows_of_every_day_are_its_days_rows_summed(two_days):
    # One test for every total: the fixture folds the history again (its facts replayed).
    for model in totals.TOTALS:
        (constraint,) = model._meta.constraints
        key = [f for f in constraint.fields if f != "day"]
        sums = [
            f.name
            for f in model._meta.concrete_fields
            if f.name not in constraint.fields and f.name != "id"
        ]
        rows = model.objects.values(*key, "day", *sums)
        days = {r["day"] for r in rows} - {ALL_DAYS}
        assert len(days) == 2, model
        every_day = summed((r for r in rows if r["day"] == ALL_DAYS), key, sums)
        assert every_day, model
        assert every_day == summed((r for r in rows if r["day"] != ALL_DAYS), key, sums), model


def selections() -> list[Selection]:
    bots = citadels_bots(3)
    version = Game.objects.filter(tournament__title="citadels").first().seats.first()
    return [
        Selection("citadels"),
        Selection("praga"),
        Selection("citadels", bot=bots[0]),
        Selection("citadels", bot_version=version.bot_version_id),
        RatingsSelection("citadels", bots=bots),
        RatingsSelection("citadels", bot=bots[1], bots=bots),
        RatingsSelection("citadels", bot_version=version.bot_version_id, bots=bots),
    ]


def test_a_page_without_dates_equals_the_page_over_every_games_dates(two_days):
    today = dt.datetime.now(dt.UTC).date()
    # The history's games finished today (a run past midnight: yesterday too).
    first, last = today - dt.timedelta(days=DAYS_BACK + 1), today
    for sel in selections():
        dated = dataclasses.replace(sel, since=first, until=last)
        pages = ("ratings",) if isinstance(sel, RatingsSelection) else ("seats",)
        if sel.title == "citadels" and not isinstance(sel, RatingsSelection):
            pages += ("characters",)
        if sel.title == "praga":
            pages += ("cranes",)
        for page in pages:
            undated = tables.PAGE_TABLES[page](sel)
            assert undated == tables.PAGE_TABLES[page](dated), (page, sel)
            assert undated != tables.PAGE_TABLES[page](dataclasses.replace(sel, until=first))
