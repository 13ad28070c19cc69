"""Migration games 0026_rating_point_rated on folded rating points: each point's running
count of its rating's games is written as the fold writes it."""

import pytest

from arena.games.models import RatingPoint
from arena.ratings.models import RatingChange
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)


def counted(**only) -> list[tuple]:
    return sorted(
        RatingPoint.objects.filter(**only).values_list("rating_id", "day", "block", "rated")
    )


def test_the_migration_counts_each_points_games_as_the_fold_does(folded_citadels):
    # The finest points: the schema of this migration has no coarser levels (games 0028).
    folded = counted(level=0)
    # The fold's count: the place of the point's last change among its rating's changes.
    for rating_id, _, _, rated in folded:
        point = RatingPoint.objects.get(rating_id=rating_id, rated=rated, level=0)
        assert (
            rated
            == RatingChange.objects.filter(rating_id=rating_id, id__lte=point.change_id).count()
        )
    assert {rated for *_, rated in folded} == {1, 3}  # a first game, then a run of two
    before, after = around("games", "_rating_point_rated")
    migrate(before)
    migrate(after)
    assert counted() == folded
    migrate_to_latest()
