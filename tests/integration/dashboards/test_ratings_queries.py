"""The Ratings and bots page's queries equal a brute-force recomputation in Python over the
stored games, their seats and the rating history (read row by row through the ORM)."""

import datetime as dt
from collections import Counter, defaultdict

import pytest

from arena.bots.models import BotVersion
from arena.games import totals
from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating, RatingChange
from dashboards import queries_ratings as q
from dashboards import tables
from dashboards.queries import _option_value
from dashboards.queries_ratings import RatingsSelection
from dashboards.tables_ratings import bin_width, version_changes

pytestmark = pytest.mark.django_db


def selected(sel) -> list[Game]:
    """The selection's games, filtered here in Python."""
    found = []
    games = Game.objects.filter(status="finished").select_related("tournament")
    seats = defaultdict(list)
    for seat in GameSeat.objects.select_related("bot_version"):
        seats[seat.game_id].append(seat)
    for game in games:
        day = game.finished_at.date()
        if (
            game.tournament.title != sel.title
            or (sel.tournament and game.tournament_id != sel.tournament)
            or (sel.players and game.tournament.seats != sel.players)
            or (sel.since and day < sel.since)
            or (sel.until and day > sel.until)
            or any(game.rule_options().get(k) != _option_value(v) for k, v in sel.options)
            or (sel.bot and all(s.bot_version.bot_id != sel.bot for s in seats[game.pk]))
            or (
                sel.bot_version and all(s.bot_version_id != sel.bot_version for s in seats[game.pk])
            )
        ):
            continue
        game.seat_list = seats[game.pk]
        found.append(game)
    return found


def selections(history) -> list[RatingsSelection]:
    seat = (
        GameSeat.objects.filter(game__tournament__title="citadels")
        .select_related("bot_version")
        .first()
    )
    praga = Game.objects.filter(tournament__title="praga").first().tournament_id
    return [
        RatingsSelection("citadels"),
        RatingsSelection("praga"),
        RatingsSelection("citadels", players=4),
        RatingsSelection("citadels", bot=seat.bot_version.bot_id),
        RatingsSelection("citadels", bot_version=seat.bot_version_id),
        RatingsSelection("praga", tournament=praga),
        RatingsSelection("praga", options=(("crane_side", "B"),)),
        RatingsSelection("citadels", since=history["today"] - dt.timedelta(days=1)),
        RatingsSelection("citadels", until=dt.date(2000, 1, 1)),
        RatingsSelection("citadels", players=2**63 - 2),  # beyond the column: Django asks nothing
    ]


def some_bots(games: list[Game], most: int = 5) -> tuple[int, ...]:
    played = Counter(s.bot_version.bot_id for g in games for s in g.seat_list)
    return tuple(sorted(b for b, _ in played.most_common(most)))


def test_games_and_bot_seat_games_equal_a_recount(history):
    for sel in selections(history):
        games = selected(sel)
        assert q.games_in(sel) == len(games), sel
        played = Counter(s.bot_version.bot_id for g in games for s in g.seat_list)
        assert {r["bot_id"]: r["seat_games"] for r in q.bot_games(q.seat_counts(sel))} == dict(
            played
        ), sel


def test_rating_history_equals_the_rating_changes_in_the_order_the_games_finished(history):
    for sel in selections(history):
        games = {g.pk: g for g in selected(sel)}
        bots = some_bots(list(games.values()))
        expected = defaultdict(list)
        changes = RatingChange.objects.select_related("rating__bot_version", "game")
        for c in changes:
            bot = c.rating.bot_version.bot_id
            if c.game_id in games and bot in bots:
                expected[bot].append((c.game.finished_at, c.game_id, c.ordinal, c.mu, c.sigma))
        found = defaultdict(list)
        for r in q.rating_history(sel, bots):
            found[r["bot_id"]].append((r["game_index"], r["game_id"], r["ordinal"], r["mu"]))
        assert set(found) == set(expected), sel
        for bot, rows in expected.items():
            rows.sort(key=lambda row: (row[0], row[1]))
            assert found[bot] == [
                (i + 1, game, pytest.approx(ordinal), pytest.approx(mu))
                for i, (_, game, ordinal, mu, _) in enumerate(rows)
            ]
        assert all(r["sigma"] > 0 for r in q.rating_history(sel, bots))


def a_new_version_took_over(bot: int, games: list[int], first: int, last: int) -> None:
    """Re-assign the bot's rated games ``first`` to ``last`` (0-based, in finishing order
    among ``games``) to a new version of it: two version changes in its series."""
    changes = list(
        RatingChange.objects.filter(rating__bot_version__bot_id=bot, game_id__in=games)
        .select_related("rating__bot_version")
        .order_by("game__finished_at", "game_id")
    )
    old = changes[first].rating
    newer = BotVersion.objects.create(
        bot_id=bot, number=old.bot_version.number + 100, kind=BotVersion.Kind.BUILTIN,
        builtin_name=old.bot_version.builtin_name,
    )  # fmt: skip
    rating = Rating.objects.create(
        tournament_id=old.tournament_id, bot_version=newer, mu=25.0, sigma=8.0, ordinal=1.0
    )
    moved = [c.pk for c in changes[first : last + 1] if c.rating.tournament_id == old.tournament_id]
    RatingChange.objects.filter(pk__in=moved).update(rating=rating)


@pytest.mark.parametrize("filtered", [False, True], ids=["totals", "raw rows"])
def test_a_thinned_rating_history_keeps_each_ratings_ends_and_counts_every_game(
    history, filtered, monkeypatch
):
    games = selected(RatingsSelection("citadels"))
    bots = some_bots(games, most=3)
    a_new_version_took_over(bots[0], [g.pk for g in games], 7, 12)
    # A point a game, so that a line has more points than its ratings' ends to thin.
    monkeypatch.setattr(totals, "RATING_BLOCK", 1)
    totals.rebuild()  # rating changes were rewritten, not added
    # A drawn line is read from the totals' points whether or not a bot filter is set (it
    # narrows the other figures' games); "most" beyond any series draws each point.
    sel = RatingsSelection("citadels", bot=bots[0] if filtered else None)
    full = q.rating_history(sel, bots, most=10**9)
    assert len(version_changes(full)) >= 2
    assert q.rating_history(sel, bots, most=10_000) == full
    for most in (1, 4, 10):
        thinned = q.rating_history(sel, bots, most=most)
        for bot in bots:
            line = [r for r in full if r["bot_id"] == bot]
            drawn = [r for r in thinned if r["bot_id"] == bot]
            # Each drawn point is one of the line's, standing for the games since the point
            # of its rating drawn before it: together they count every game once.
            assert {point_key(r) for r in drawn} <= {point_key(r) for r in line}, most
            assert sum(r["games"] for r in drawn) == line[-1]["game_index"], most
            assert (point_key(drawn[-1]), drawn[-1]["game_index"]) == (
                point_key(line[-1]),
                line[-1]["game_index"],
            ), most
            ratings = {rating_of(r) for r in line}
            for rating in ratings:
                own = [point_key(r) for r in line if rating_of(r) == rating]
                assert {own[0], own[-1]} <= {point_key(r) for r in drawn}, (most, rating)
            assert len(drawn) <= most + 2 * len(ratings), most
        # each version's first game stays marked
        firsts = {(v["bot_id"], v["version"]) for v in version_changes(full)}
        assert firsts <= {(v["bot_id"], v["version"]) for v in version_changes(thinned)}, most
    assert len(q.rating_history(sel, bots, most=1)) < len(full)


def point_key(r: dict) -> tuple:
    return (r["game_id"], r["bot_version_id"], r["tournament_id"], r["ordinal"])


def rating_of(r: dict) -> tuple:
    return (r["bot_version_id"], r["tournament_id"])


def test_head_to_head_equals_a_recount_of_the_ranks_at_each_table(history):
    for sel in selections(history):
        games = selected(sel)
        bots = some_bots(games, 6)
        expected = defaultdict(lambda: [set(), 0, 0, 0])
        met = set()
        for game in games:
            for a in game.seat_list:
                for b in game.seat_list:
                    ba, bb = a.bot_version.bot_id, b.bot_version.bot_id
                    if a.seat == b.seat or ba == bb or ba not in bots or bb not in bots:
                        continue
                    met.add(game.pk)
                    if a.rank is None or b.rank is None:
                        continue
                    cell = expected[(ba, bb)]
                    cell[0].add(game.pk)
                    cell[1] += 1
                    cell[2] += a.rank < b.rank
                    cell[3] += a.rank == b.rank
        found = {(r["bot_a"], r["bot_b"]): r for r in q.head_to_head(sel, bots)}
        assert set(found) == set(expected), sel
        for pair, (met_in, pairs, above, level) in expected.items():
            row = found[pair]
            assert (row["games"], row["pairs"], row["above"], row["level"]) == (
                len(met_in),
                pairs,
                above,
                level,
            )
        assert q.games_met(sel, bots) == len(met)


def test_score_and_length_distributions_equal_a_recount(history):
    for sel in selections(history):
        games = selected(sel)
        scores = [(g.tournament.seats, s.score) for g in games for s in g.seat_list
                  if s.score is not None]  # fmt: skip
        span = q.score_range(q.seat_counts(sel))
        assert (span["low"], span["high"]) == (
            (min(v for _, v in scores), max(v for _, v in scores)) if scores else (None, None)
        )
        for width in (1, 7, bin_width(span["low"], span["high"])):
            expected = Counter((p, v // width * width) for p, v in scores)
            found = {
                (r["players"], r["low"]): r["seats"]
                for r in q.score_bins(q.seat_counts(sel), width)
            }
            assert found == dict(expected), (sel, width)
        lengths = [(g.tournament.seats, g.record["final"]["actions"], g.match_ms) for g in games]
        span = q.length_range(q.length_counts(sel))
        assert (span["low"], span["high"]) == (
            (min(a for _, a, _ in lengths), max(a for _, a, _ in lengths))
            if lengths
            else (None, None)
        )
        width = bin_width(span["low"], span["high"])
        expected = defaultdict(list)
        for players, actions, ms in lengths:
            expected[(players, actions // width * width)].append(ms)
        found = {(r["players"], r["low"]): r for r in q.length_bins(q.length_counts(sel), width)}
        assert set(found) == set(expected), sel
        for key, times in expected.items():
            assert found[key]["games"] == len(times)
            assert float(found[key]["average_ms"]) == pytest.approx(sum(times) / len(times))


def test_negative_values_fall_in_the_bin_below_zero(history):
    game = Game.objects.filter(status="finished", tournament__title="praga").first()
    GameSeat.objects.filter(game=game, seat=0).update(score=-3)
    totals.rebuild()  # rows edited after they were folded
    sel = RatingsSelection("praga", tournament=game.tournament_id)
    bins = {r["low"] for r in q.score_bins(q.seat_counts(sel), 5)}
    assert -5 in bins and q.score_range(q.seat_counts(sel))["low"] == -3


def test_fault_rates_equal_a_recount_of_the_seats(history):
    # a fault of the built-in bots is rare: make some, so the recount has something to count
    seats = GameSeat.objects.filter(game__tournament__title="citadels").order_by("game", "seat")
    GameSeat.objects.filter(pk__in=list(seats.values_list("pk", flat=True)[:40:3])).update(
        status="faulted", fault_count=2
    )
    GameSeat.objects.filter(pk__in=list(seats.values_list("pk", flat=True)[1:40:7])).update(
        status="disqualified", fault_count=3
    )
    totals.rebuild()  # rows edited after they were folded
    for sel in selections(history):
        expected = defaultdict(lambda: [0, 0, 0, 0])
        for game in selected(sel):
            for s in game.seat_list:
                row = expected[s.bot_version_id]
                row[0] += 1
                row[1] += s.status != "ok"
                row[2] += s.status == "disqualified"
                row[3] += s.fault_count
        found = {
            r["bot_version_id"]: [r["seat_games"], r["faulted"], r["disqualified"], r["faults"]]
            for r in q.faults(q.seat_counts(sel))
        }
        assert found == dict(expected), sel


def test_version_changes_mark_a_new_versions_first_game():
    rows = [
        {"bot_id": 1, "bot": "a", "version": v, "game_index": i + 1, "ordinal": float(i)}
        for i, v in enumerate([1, 1, 2, 2, 3])
    ] + [{"bot_id": 2, "bot": "b", "version": 4, "game_index": 1, "ordinal": 0.0}]
    assert [(c["bot"], c["version"], c["game_index"]) for c in version_changes(rows)] == [
        ("a", 2, 3),
        ("a", 3, 5),
    ]


def test_a_bot_or_version_filter_draws_that_bots_line(history):
    seat = GameSeat.objects.filter(game__tournament__title="citadels").select_related(
        "bot_version"
    )[0]
    bot = seat.bot_version.bot_id
    for sel in (
        RatingsSelection("citadels", bot=bot),
        RatingsSelection("citadels", bot_version=seat.bot_version_id),
    ):
        page = tables.page("ratings", sel)
        assert [r["bot_id"] for r in page["bots"] if r["drawn"]] == [bot], sel
        assert {r["bot_id"] for r in page["rating_history"]} == {bot}, sel
        assert len(page["bots"]) > 1  # the other bots of its games are listed, not drawn
    never = RatingsSelection("citadels", bot_version=seat.bot_version_id, until=dt.date(2000, 1, 1))
    assert tables.page("ratings", never)["rating_history"] == []


def test_the_page_draws_the_chosen_bots_and_is_cached_until_a_game_is_rated(history):
    sel = RatingsSelection("citadels")
    page = tables.page("ratings", sel)
    drawn = {r["bot_id"] for r in page["bots"] if r["drawn"]}
    assert len(drawn) == min(q.DEFAULT_BOTS, len(page["bots"])) >= 2
    assert {r["bot_id"] for r in page["rating_history"]} == drawn
    one = next(iter(drawn))
    chosen = tables.page("ratings", RatingsSelection("citadels", bots=(one,)))
    assert {r["bot_id"] for r in chosen["rating_history"]} == {one}
    change = RatingChange.objects.filter(rating__bot_version__bot_id=one).order_by("-id").first()
    RatingChange.objects.filter(pk=change.pk).update(ordinal=change.ordinal + 100)
    assert tables.page("ratings", RatingsSelection("citadels", bots=(one,))) == chosen  # cached
    RatingChange.objects.filter(pk=change.pk).delete()
    change.pk, change.ordinal = None, change.ordinal + 100  # stored again: as if rated now
    change.save()
    again = tables.page("ratings", RatingsSelection("citadels", bots=(one,)))
    assert max(r["ordinal"] for r in again["rating_history"]) >= change.ordinal
