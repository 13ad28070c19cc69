"""The Ratings and bots page read from its totals (arena.games.totals) shows what it shows
from the raw games, seats and rating changes, on the same stored games; and folding,
rebuilding and refolding a tournament's ratings keep it so."""

import dataclasses
import io
from collections import defaultdict

import pytest
from django.core.management import CommandError, call_command

from arena.bots.models import BotVersion
from arena.games import totals
from arena.games.models import AnalyticsPending, Game, GameSeat, RatingPoint
from arena.ratings.models import Rating, RatingChange
from arena.ratings.services import recompute_ratings
from dashboards import queries_ratings as q
from dashboards import tables_ratings
from dashboards.queries_ratings import RatingsSelection

from .test_ratings_queries import selections

pytestmark = pytest.mark.django_db

# Everything of the page but the rating line, whose points differ by design (runs of games
# from the totals, every game from the raw rows); the line is compared below.
LINE = ("rating_history", "version_changes", "rating_points")


def citadels_bots(most: int) -> tuple[int, ...]:
    """Bots of the history that played Citadels (ids differ from run to run: other tests
    made bots before it)."""
    seats = GameSeat.objects.filter(game__tournament__title="citadels")
    return tuple(sorted(set(seats.values_list("bot_version__bot_id", flat=True)))[:most])


def unfiltered(history) -> list[RatingsSelection]:
    """The test selections (the totals answer all of them: with a bot or bot-version
    filter, the seated totals), and one with the bot picker."""
    found = [s for s in selections(history) if q.from_totals(s)]
    return [*found, RatingsSelection("citadels", players=4, bots=citadels_bots(3))]


def both_ways(sel) -> tuple[dict, dict]:
    """The page's tables from the totals and from the raw rows."""
    from_totals = tables_ratings.ratings(sel)
    with q.raw_rows():
        from_raw = tables_ratings.ratings(sel)
    return from_totals, from_raw


def assert_same_page(sel) -> None:
    from_totals, from_raw = both_ways(sel)
    assert from_totals["rating_points"] == from_raw["rating_points"] == "runs"
    for name in from_raw:
        if name not in LINE:
            assert from_totals[name] == from_raw[name], (sel, name)
    # A drawn line is the bots' own, whatever bot filter narrows the other figures.
    whole = dataclasses.replace(sel, bot=None, bot_version=None)
    assert_line_follows_the_games(whole, from_totals["rating_history"])


def every_game(sel, bots) -> dict[int, list[dict]]:
    """Each bot's rating after each rated game of the selection (the raw rows)."""
    series = defaultdict(list)
    for r in q.rating_history(sel, bots):
        series[r["bot_id"]].append(r)
    return series


def assert_line_follows_the_games(sel, line: list[dict]) -> None:
    """Each point of a line read from the totals is the rating after the game the raw
    series has at its place: the history plays one tournament after another, so a bot's
    one rating at a time is rated in the order its games finished."""
    bots = tuple(sorted({r["bot_id"] for r in line}))
    series = every_game(sel, bots)
    for point in line:
        game = series[point["bot_id"]][point["game_index"] - 1]
        assert (point["game_id"], point["version"], point["tournament_id"]) == (
            game["game_id"],
            game["version"],
            game["tournament_id"],
        ), sel
        assert point["ordinal"] == pytest.approx(game["ordinal"])
        assert (point["mu"], point["sigma"]) == (
            pytest.approx(game["mu"]),
            pytest.approx(game["sigma"]),
        )
    for bot, games in series.items():
        last = max((r["game_index"] for r in line if r["bot_id"] == bot), default=0)
        assert last == len(games), (sel, bot)  # the line ends at the bot's last game


def test_the_totals_give_the_raw_rows_figures(history):
    for sel in unfiltered(history):
        assert_same_page(sel)


def test_with_runs_of_one_game_the_totals_draw_every_game(history, monkeypatch):
    monkeypatch.setattr(totals, "RATING_BLOCK", 1)
    totals.rebuild()
    for sel in unfiltered(history):
        bots = tuple(r["bot_id"] for r in q.bot_games(q.seat_counts(sel)))[:5]
        drawn = q.rating_history(sel, bots, most=10**9)
        every = q.rating_history(sel, bots)  # the raw rating changes, every game
        assert [{c: r[c] for c in q.HISTORY_COLUMNS} for r in drawn] == every, sel


def test_a_bot_filter_draws_the_bots_own_line_from_the_points(history):
    (bot,) = citadels_bots(1)
    sel = RatingsSelection("citadels", bot=bot)
    page = tables_ratings.ratings(sel)
    assert page["rating_points"] == "runs"
    assert {r["bot_id"] for r in page["rating_history"]} == {bot}
    assert max(r["games"] for r in page["rating_history"]) > 1  # runs, not every game
    assert_line_follows_the_games(RatingsSelection("citadels"), page["rating_history"])


def test_a_deleted_game_leaves_the_totals_at_a_rebuild(history):
    sel = RatingsSelection("citadels")
    before = tables_ratings.ratings(sel)
    game = Game.objects.filter(tournament__title="citadels", status="finished").last()
    game.delete()  # its seats, rating changes and analytics rows go with it
    totals.rebuild()
    after, _ = both_ways(sel)
    assert after["games"] == before["games"] - 1
    for sel in unfiltered(history):
        assert_same_page(sel)


def test_folds_in_small_batches_sum_to_one_fold(history):
    totals.rebuild(batch=7)
    for sel in unfiltered(history)[:4]:
        assert_same_page(sel)


def test_fold_totals_folds_what_a_migration_left_pending_a_batch_at_a_time(history):
    sel = RatingsSelection("citadels")
    expected = tables_ratings.ratings(sel)
    totals.unfold_all()
    assert AnalyticsPending.objects.count() == history["games"]
    out = io.StringIO()
    call_command("fold_totals", "--batch", "40", stdout=out)
    assert out.getvalue().strip() == f"folded {history['games']} games"
    assert not AnalyticsPending.objects.exists()
    assert tables_ratings.ratings(sel) == expected
    for sel in unfiltered(history)[:3]:
        assert_same_page(sel)


def test_fold_totals_refuses_a_batch_of_nothing(history):
    with pytest.raises(CommandError, match="at least 1"):
        call_command("fold_totals", "--batch", "0")


POINT = ("rating_id", "day", "block", "games", "rated", "game_id", "ordinal", "tournament_id")


def points() -> list[tuple]:
    return sorted(RatingPoint.objects.values_list("level", *POINT))


def points_at(level: int) -> list[tuple]:
    return sorted(RatingPoint.objects.filter(level=level).values_list(*POINT))


def refold_every_rating() -> None:
    for tournament in Rating.objects.values_list("tournament_id", flat=True).distinct():
        totals.refold_ratings(tournament)


def test_each_level_of_points_is_the_fold_of_runs_that_many_times_as_long(history, monkeypatch):
    monkeypatch.setattr(totals, "RATING_BLOCK", 1)
    refold_every_rating()
    sizes = totals.rating_run_sizes()
    assert sizes[:4] == [1, 4, 16, 64]
    levels = [points_at(level) for level in range(len(sizes))]
    # Each level holds every folded game once, in fewer points than the level below.
    for level in levels:
        assert sum(p[3] for p in level) == RatingChange.objects.count()
    assert len(levels[0]) > len(levels[1]) > len(levels[2]) > len(levels[3])
    for level, size in enumerate(sizes[1:4], start=1):
        monkeypatch.setattr(totals, "RATING_BLOCK", size)
        refold_every_rating()
        assert points_at(0) == levels[level], size


def test_rating_changes_folded_as_they_are_written_make_the_same_points(history, monkeypatch):
    monkeypatch.setattr(totals, "RATING_BLOCK", 4)
    totals.rebuild()
    at_once = points()
    changes = list(RatingChange.objects.order_by("id"))
    RatingChange.objects.all().delete()
    totals.rebuild()
    assert points() == []
    for start in range(0, len(changes), 37):  # rated a few at a time, read between
        for change in changes[start : start + 37]:
            change.pk = None
            change.save()
        totals.fold_batch()
    assert points() == at_once


def test_a_game_rated_after_it_was_folded_is_drawn(history):
    sel = RatingsSelection("citadels")
    game = Game.objects.filter(tournament__title="citadels", status="finished").last()
    kept = list(RatingChange.objects.filter(game=game))
    RatingChange.objects.filter(game=game).delete()
    totals.rebuild()  # folded before the game was rated
    bots = tuple(sorted({c.rating.bot_version.bot_id for c in kept}))
    drawn = q.rating_history(sel, bots, most=10**9)
    assert game.pk not in {r["game_id"] for r in drawn}
    for change in kept:  # now rated
        change.pk = None
        change.save()
    drawn = q.rating_history(sel, bots, most=10**9)
    assert game.pk in {r["game_id"] for r in drawn}
    assert_line_follows_the_games(sel, drawn)


def test_recomputed_ratings_are_refolded(history):
    sel = RatingsSelection("citadels")
    tournament = Game.objects.filter(tournament__title="citadels").first().tournament_id
    recompute_ratings(tournament)  # new rating rows, new changes: the old points are stale
    assert not RatingPoint.objects.exclude(
        rating_id__in=RatingChange.objects.values("rating_id")
    ).exists()
    assert_same_page(sel)


def test_a_game_seating_two_versions_of_one_bot_counts_once_for_the_bot(history):
    """The seated totals key a game once per version seated; the bot's filter takes the
    version of its lowest seat only, so the game counts once, as the raw rows count it."""
    game = Game.objects.filter(tournament__title="citadels", status="finished").first()
    first, second = game.seats.select_related("bot_version__bot").order_by("seat")[:2]
    bot = first.bot_version.bot
    other = BotVersion.objects.create(bot=bot, number=98, kind="builtin",
                                      builtin_name=first.bot_version.builtin_name)  # fmt: skip
    GameSeat.objects.filter(pk=second.pk).update(bot_version=other)
    totals.rebuild()  # rows edited after they were folded
    for sel in (
        RatingsSelection("citadels", bot=bot.pk),
        RatingsSelection("citadels", bot_version=other.pk),
        RatingsSelection("citadels", bot=bot.pk, bot_version=first.bot_version_id),
    ):
        assert_same_page(sel)
    played = Game.objects.filter(
        tournament__title="citadels", status="finished", seats__bot_version__bot=bot
    ).distinct()
    assert q.games_in(RatingsSelection("citadels", bot=bot.pk)) == played.count()
    assert q.games_in(RatingsSelection("citadels", bot_version=other.pk)) == 1
