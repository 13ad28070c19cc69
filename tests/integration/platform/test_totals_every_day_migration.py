"""Migration games 0027_totals_every_day on folded totals: the rows of every day it sums
from each day's rows are the rows the fold writes."""

import pytest

from arena.games import totals
from arena.games.models import ALL_DAYS
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)


def every_day_rows() -> dict[str, list[tuple]]:
    return {
        model.__name__: sorted(
            model.objects.filter(day=ALL_DAYS).values_list(
                *(f.name for f in model._meta.concrete_fields if f.name != "id")
            ),
            key=repr,
        )
        for model in totals.TOTALS
    }


def test_the_migration_sums_the_rows_of_every_day_as_the_fold_does(folded_citadels):
    folded = every_day_rows()
    assert all(folded.values())
    before, after = around("games", "_totals_every_day")
    migrate(before)
    assert not any(every_day_rows().values())
    migrate(after)
    assert every_day_rows() == folded
    migrate_to_latest()
