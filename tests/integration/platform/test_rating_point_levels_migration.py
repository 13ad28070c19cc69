"""Migration games 0028_rating_point_levels on folded rating points: the coarser levels it
makes from the points folded before are the points the fold makes."""

import pytest

from arena.games import totals
from arena.games.models import RatingPoint
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)

COLUMNS = ("rating_id", "level", "day", "block", "games", "rated", "game_id", "change_id", "mu")


def points() -> list[tuple]:
    return sorted(RatingPoint.objects.values_list(*COLUMNS))


def test_the_migration_makes_each_level_as_the_fold_does(folded_citadels, monkeypatch):
    # Runs of one game at level 0, of four at level 1: three games make two runs there.
    monkeypatch.setattr(totals, "RATING_BLOCK", 1)
    totals.refold_ratings(folded_citadels.pk)
    folded = points()
    assert {(level, block) for _, level, _, block, *_ in folded} >= {(0, 2), (1, 1)}
    before, after = around("games", "_rating_point_levels")
    migrate(before)
    migrate(after)
    assert points() == folded
    migrate_to_latest()
