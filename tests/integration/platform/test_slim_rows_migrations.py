"""Migrations games 0018_slim_game_rows and ratings 0004_narrower_rating_history on stored
games, both ways: going back writes every value the rows no longer keep (options, statistics,
score details, analytics seat rows, rating values before, title points' ordinals and
versions) as the store wrote them before, and forward again leaves them where the reads find
them, with the same values."""

import pytest

from arena.api.serializers import RatingChangeSerializer
from arena.games import totals
from arena.games.models import AnalyticsSeat, Game, GameSeat
from arena.games.results import game_stats, replayed_result, seat_details
from arena.ratings.models import RatingChange, TitleRatingChange
from arena.ratings.services import MODEL, changes_with_before
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def folded_games(folded_citadels):
    return folded_citadels


def _api_history():
    """What the API says of each rating change and title point (the reads that derive)."""
    changes = changes_with_before(RatingChange.objects.order_by("id"))
    points = TitleRatingChange.with_version(
        TitleRatingChange.objects.order_by("at", "game", "title_rating")
    )
    return (
        [dict(RatingChangeSerializer(c).data) for c in changes.select_related("game")],
        [(p.game_id, p.version_id, p.version_number, p.ordinal_value) for p in points],
    )


def test_the_store_keeps_nothing_the_record_or_other_rows_hold(folded_games):
    games = list(Game.objects.filter(status="finished").order_by("number"))
    assert len(games) == 3
    assert not AnalyticsSeat.objects.exists()  # folded
    assert RatingChange.objects.count() == 9 == TitleRatingChange.objects.count()
    assert not RatingChange.objects.filter(mu_before__isnull=False).exists()
    assert not TitleRatingChange.objects.filter(ordinal__isnull=False).exists()
    assert not TitleRatingChange.objects.filter(bot_version__isnull=False).exists()
    for game in games:
        assert game.options is None and game.rule_options() == folded_games.options
        result = replayed_result(game.record)
        seats = list(game.seats.order_by("seat"))
        assert game.stats == {} and game_stats(game) == result["stats"] != {}
        assert all(s.details == {} and s.decision_logs is None for s in seats)
        assert seat_details(game, seats) == result["details"]
    # The rating before each game is its rating's previous change's (the prior first).
    prior = MODEL.rating()
    changes, points = _api_history()
    by_rating = {}
    for change, row in zip(changes, RatingChange.objects.order_by("id"), strict=True):
        before = by_rating.get(row.rating_id, (prior.mu, prior.sigma))
        assert (change["mu_before"], change["sigma_before"]) == before
        by_rating[row.rating_id] = (row.mu, row.sigma)
    seated = {(s.game_id, s.bot_version.bot_id): s.bot_version for s in GameSeat.objects.all()}
    for point, row in zip(
        points, TitleRatingChange.objects.order_by("at", "game", "title_rating"), strict=True
    ):
        version = seated[(row.game_id, row.title_rating.bot_id)]
        assert point == (row.game_id, version.pk, version.number, row.mu - 3 * row.sigma)


def test_going_back_writes_every_value_again_and_forward_leaves_them_to_the_reads(folded_games):
    games = {g.pk: g for g in Game.objects.filter(status="finished")}
    history = _api_history()
    before_slim, _ = around("games", "_slim_game_rows")
    migrate(before_slim)
    before_history, _ = around("ratings", "_narrower_rating_history")
    old = migrate(before_history)
    old_game = old.get_model("games", "Game")
    for game in old_game.objects.filter(status="finished"):
        result = replayed_result(game.record)
        assert game.options == folded_games.options
        assert game.stats == result["stats"]
        seats = old.get_model("games", "GameSeat").objects.filter(game_id=game.pk)
        assert [s.details for s in seats.order_by("seat")] == result["details"]
    seat_rows = old.get_model("games", "AnalyticsSeat").objects
    old_seats = old.get_model("games", "GameSeat").objects.filter(game_id__in=games)
    assert sorted(seat_rows.values_list("game_id", "seat")) == sorted(
        old_seats.values_list("game_id", "seat")
    )
    for row in seat_rows.all():
        assert row.finished_at == games[row.game_id].finished_at
        assert row.title == "citadels" and row.players == 3
    changes = old.get_model("ratings", "RatingChange").objects.order_by("id")
    assert [(c["mu_before"], c["sigma_before"]) for c in history[0]] == list(
        changes.values_list("mu_before", "sigma_before")
    )
    points = old.get_model("ratings", "TitleRatingChange").objects.order_by(
        "at", "game", "title_rating"
    )
    assert [(p[0], p[1], p[3]) for p in history[1]] == list(
        points.values_list("game_id", "bot_version_id", "ordinal")
    )
    migrate_to_latest()
    assert _api_history() == history
    assert not AnalyticsSeat.objects.exists()
    for game in Game.objects.filter(status="finished"):
        assert game.stats == {} and game.options is None
        assert game_stats(game) == replayed_result(game.record)["stats"]
    assert not RatingChange.objects.filter(mu_before__isnull=False).exists()
    assert not TitleRatingChange.objects.filter(bot_version__isnull=False).exists()
    assert not TitleRatingChange.objects.filter(ordinal__isnull=False).exists()


def test_a_rebuild_writes_the_folded_seat_rows_again_and_the_totals_come_out_equal(
    folded_games,
):
    from arena.games.models import AnalyticsFactTotal, AnalyticsSeatTotal

    def figures():
        return (
            sorted(AnalyticsSeatTotal.objects.values_list(
                "bot_version_id", "day", "seat", "games", "wins", "score_total", "faulted",
                "version_games", "bot_games",
            )),
            sorted(AnalyticsFactTotal.objects.values_list(
                "bot_version_id", "seat", "kind", "subject", "detail", "facts", "total",
            )),
        )  # fmt: skip

    folded = figures()
    assert folded[0] and folded[1] and not AnalyticsSeat.objects.exists()
    assert totals.rebuild() == 3
    assert figures() == folded
    assert not AnalyticsSeat.objects.exists()
