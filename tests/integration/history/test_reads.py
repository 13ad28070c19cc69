"""Reads over a long ladder history answer what the raw rows say, from one reader of rating
lines, and never write (the beat folds)."""

import pytest
from django.db import connection, transaction
from django.db.models import F, Max

from arena.api import exports
from arena.bots.models import Bot, BotVersion
from arena.games.models import AnalyticsPending, Game, GameSeat
from arena.ratings.lines import DATED, MOST_POINTS, rating_lines
from arena.ratings.models import Rating, RatingChange
from arena.ratings.standings import standings
from arena.tournaments.leaderboard import leaderboard
from arena.tournaments.models import Entrant
from arena.web.charts import TOURNAMENT_LINES
from bench.history_build import VERSIONS
from dashboards import queries_ratings, tables
from dashboards.queries_ratings import RatingsSelection

pytestmark = pytest.mark.django_db


def ladder_of(long_history, title="citadels") -> int:
    return long_history["ladders"][title]


def changes_in_order(ladder: int, bot: Bot) -> list:
    """The bot's rating changes on the ladder in the order their games finished (raw)."""
    return list(
        RatingChange.objects.filter(rating__tournament_id=ladder, rating__bot_version__bot=bot)
        .order_by("game__finished_at", "game_id")
        .values_list("game_id", "ordinal", "rating__bot_version__number")
    )


def test_a_line_is_the_rating_after_the_games_it_stands_for(long_history):
    ladder = ladder_of(long_history)
    bot = Bot.objects.get(name="history-citadels-3")
    raw = changes_in_order(ladder, bot)
    line = rating_lines([bot.pk], tournament=ladder, most=None)
    assert line[-1]["game_index"] == len(raw)  # every rated game counted, the last drawn
    for point in line:
        game, ordinal, version = raw[point["game_index"] - 1]
        assert (point["game_id"], point["version"]) == (game, version)
        assert point["ordinal"] == pytest.approx(ordinal)
    assert max(p["games"] for p in line) > 1  # points of runs, not of every game
    assert [p["version"] for p in line if p["new_version"]] == list(range(1, VERSIONS + 1))


def test_a_drawn_line_is_the_lines_points_numbered_as_they_are_there(long_history):
    """A ladder's versions follow one another: each drawn point has the game number and
    rating it has in the whole line, and stands for the games since the one before."""
    ladder = ladder_of(long_history)
    bot = Bot.objects.get(name="history-citadels-5")
    full = rating_lines([bot.pk], tournament=ladder, most=None)
    drawn = rating_lines([bot.pk], tournament=ladder, most=1)
    at = {p["game_id"]: p for p in full}
    for point in drawn:
        whole = at[point["game_id"]]
        assert (point["game_index"], point["ordinal"], point["version"]) == (
            whole["game_index"], whole["ordinal"], whole["version"]
        )  # fmt: skip
    assert [p["games"] for p in drawn] == [
        b["game_index"] - a["game_index"]
        for a, b in zip([{"game_index": 0}, *drawn], drawn, strict=False)
    ]
    assert drawn[-1] == full[-1] | {"games": drawn[-1]["games"]}
    assert [p["version"] for p in drawn if p["new_version"]] == list(range(1, VERSIONS + 1))


def test_a_line_without_dates_is_the_same_points_without_their_timestamps(long_history):
    ladder = ladder_of(long_history)
    bots = list(
        Bot.objects.filter(name__startswith="history-citadels-").values_list("pk", flat=True)
    )
    dated = rating_lines(bots[:3], tournament=ladder)
    assert dated and all(p["finished_at"] is not None for p in dated)
    undated = [{k: v for k, v in p.items() if k not in DATED} for p in dated]
    assert rating_lines(bots[:3], tournament=ladder, dated=False) == undated


def test_rating_changes_not_folded_yet_are_drawn(long_history):
    ladder = ladder_of(long_history)
    bot = Bot.objects.get(name="history-citadels-3")
    before = rating_lines([bot.pk], tournament=ladder, most=None)
    last = RatingChange.objects.filter(
        rating__tournament_id=ladder, rating__bot_version__bot=bot
    ).order_by("-game__finished_at", "-game_id")[0]
    game = Game.objects.get(pk=last.game_id)
    copy = RatingChange.objects.create(
        rating=last.rating, game=_later_game(game), mu_before=last.mu, sigma_before=last.sigma,
        mu=last.mu + 1, sigma=last.sigma, ordinal=last.ordinal + 1,
    )  # fmt: skip
    after = rating_lines([bot.pk], tournament=ladder, most=None)
    assert after[-1]["game_index"] == before[-1]["game_index"] + 1
    assert (after[-1]["game_id"], after[-1]["games"]) == (copy.game_id, 1)


def _later_game(game: Game) -> Game:
    """A finished game of the ladder after every other (a copy of ``game``)."""
    latest = Game.objects.filter(tournament_id=game.tournament_id).aggregate(
        number=Max("number"), at=Max("finished_at")
    )
    game.pk = None
    game.number = latest["number"] + 1
    game.finished_at = latest["at"]
    game.save()
    return game


def test_the_leaderboard_shows_each_versions_last_rated_game(long_history):
    ladder = ladder_of(long_history)
    rows = leaderboard(Game.objects.get(tournament_id=ladder, number=1).tournament)
    assert len(rows) == 50
    last = dict(
        RatingChange.objects.filter(rating__tournament_id=ladder)
        .values_list("rating__bot_version_id")
        .annotate(at=Max("game__finished_at"))
    )
    for row in rows:
        assert row.last_game == last[row.version.pk]
    ordinals = [row.rating.ordinal for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)


def test_one_reader_draws_the_same_line_on_every_page(long_history, client):
    """The ladder page, its API, the bot page and the ratings dashboard draw the same
    points of a bot's ladder rating."""
    ladder = ladder_of(long_history)
    page = client.get(f"/ladders/{ladder}/")
    assert page.status_code == 200
    top = page.context["rows"][0].bot
    (trace,) = [t for t in page.context["chart"]["data"] if t["name"] == top.name]
    line = rating_lines([top.pk], tournament=ladder)
    assert trace["x"] == [p["game_index"] for p in line]
    assert len(line) <= MOST_POINTS + VERSIONS + 1
    points, url = [], f"/api/v1/ladders/{ladder}/history/{top.pk}/?page_size=200"
    while url:
        body = client.get(url).json()
        points += body["results"]
        url = body["next"]
    assert [p["game_index"] for p in points] == trace["x"]
    sel = RatingsSelection("citadels", tournament=ladder, bots=(top.pk,))
    drawn = queries_ratings.rating_history(sel, (top.pk,), most=MOST_POINTS)
    assert [p["game_id"] for p in drawn] == [p["game_id"] for p in line]
    bot_page = client.get(f"/bots/{top.pk}/")
    (chart,) = [c for c in bot_page.context["charts"] if c.key == "bot-rating"]
    assert chart.games == line[-1]["game_index"]  # the bot plays on this ladder only


def test_a_ladders_tournament_page_draws_the_one_readers_thinned_lines(long_history, client):
    """The tournament page of a ladder draws each entrant bot's line as the ladder page
    does, and pages its games by number: the last page holds the last games."""
    ladder = ladder_of(long_history)
    page = client.get(f"/tournaments/{ladder}/")
    assert page.status_code == 200
    (chart,) = [c for c in page.context["charts"] if c.key == "tournament-ratings"]
    top = Bot.objects.get(pk=page.context["standings"][0].bot_id)  # the best-rated are drawn
    (trace,) = [t for t in chart.figure["data"] if t["name"] == top.name]
    line = rating_lines([top.pk], tournament=ladder)
    assert trace["x"] == [p["game_index"] for p in line]
    assert len(line) <= MOST_POINTS + VERSIONS + 1
    games = Game.objects.filter(tournament_id=ladder)
    assert chart.games == games.filter(rated=True).count()
    last = page.context["page"].paginator.num_pages
    assert last == -(-games.count() // 50)
    shown = client.get(f"/tournaments/{ladder}/?page={last}").context["games"]
    numbers = sorted(games.values_list("number", flat=True))
    assert [int(g["number"]) for g in shown] == numbers[(last - 1) * 50 :]


def test_a_ladders_tournament_page_lists_every_entrant_and_tables_the_drawn_bots(
    long_history, client
):
    """The standings and the entrants list every version on the ladder, best first; the
    rating chart's numbers hold the versions of the bots it draws, not a second copy of the
    standings."""
    ladder = ladder_of(long_history)
    page = client.get(f"/tournaments/{ladder}/")
    ratings = Rating.objects.filter(tournament_id=ladder).order_by("-ordinal", "bot_version_id")
    rows = page.context["standing_rows"]
    assert [r["label"] for r in rows] == [r.bot_version.label for r in ratings]
    assert [(s.bot_version_id, s.bot_id, s.ordinal, s.games, s.average_score)
            for s in standings(ladder)] == [
        (r.bot_version_id, r.bot_version.bot_id, r.ordinal, r.games, r.average_score)
        for r in ratings
    ]  # fmt: skip
    assert rows[0]["ordinal"] == f"{ratings[0].ordinal:.2f}"
    assert len(page.context["entrants"]) == Entrant.objects.filter(tournament_id=ladder).count()
    (chart,) = [c for c in page.context["charts"] if c.key == "tournament-ratings"]
    drawn = {t["name"] for t in chart.figure["data"]}
    assert len(drawn) == TOURNAMENT_LINES and "best-rated of 50 bots" in chart.note
    assert {r["entrant"].split("/")[1].split(" ")[0] for r in chart.rows} == drawn
    assert len(chart.rows) == sum(r.bot_version.bot.name in drawn for r in ratings if r.games)


def test_a_ratings_history_pages_every_change_in_game_order(long_history, client):
    """A version that joined late in the history: its rating history, page by page, holds
    each of its rated games once, in the order they were rated (by game, read through the
    (rating, game) index rather than from the start of the whole history)."""
    ladder = ladder_of(long_history)
    version = BotVersion.objects.get(bot__name="history-citadels-7", number=VERSIONS)
    rating = Rating.objects.get(tournament_id=ladder, bot_version=version)
    numbers, url = [], f"/api/v1/ratings/{rating.pk}/history/?page_size=7"
    while url:
        body = client.get(url).json()
        numbers += [r["game_number"] for r in body["results"]]
        url = body["next"]
    expected = (
        RatingChange.objects.filter(rating=rating).order_by("game_id")
        .values_list("game__number", flat=True)
    )  # fmt: skip
    assert numbers == list(expected) and len(numbers) == rating.games > 7


def test_the_games_of_a_late_version_and_of_its_bot_page_from_their_first(long_history, client):
    """The games API filtered by a version that joined late in the history, and by its bot:
    every game they sat in, once, in id order, page by page."""
    version = BotVersion.objects.get(bot__name="history-citadels-7", number=VERSIONS)
    for query, seats in (
        (f"version={version.pk}", GameSeat.objects.filter(bot_version=version)),
        (f"bot={version.bot_id}", GameSeat.objects.filter(bot_version__bot_id=version.bot_id)),
    ):
        ids, url = [], f"/api/v1/games/?{query}&page_size=200"
        while url:
            body = client.get(url).json()
            ids += [g["id"] for g in body["results"]]
            url = body["next"]
        assert ids == sorted(set(seats.values_list("game_id", flat=True))), query
    assert client.get("/api/v1/games/?version=999999999").json()["results"] == []


def test_a_bots_games_csv_streams_every_seat_page_by_page(long_history, client, monkeypatch):
    monkeypatch.setattr(exports, "CSV_GAMES", 7)  # many pages over the bot's games
    bot = Bot.objects.get(name="history-citadels-3")
    version = bot.versions.order_by("-number").first()
    other = Bot.objects.get(name="history-praga-3")
    ladder, praga_ladder = ladder_of(long_history), ladder_of(long_history, "praga")
    for query, played in (
        (f"bot={bot.pk}", Game.objects.filter(seats__bot_version__bot=bot)),
        (f"version={version.pk}", Game.objects.filter(seats__bot_version=version)),
        (f"bot={bot.pk}&version={version.pk}", Game.objects.filter(seats__bot_version=version)),
        (f"bot={bot.pk}&tournament={ladder}", Game.objects.filter(seats__bot_version__bot=bot)),
        # every page of the bot's games filtered away: a file of its header alone
        (f"bot={bot.pk}&tournament={praga_ladder}", Game.objects.none()),
        (f"bot={other.pk}&version={version.pk}", Game.objects.none()),
    ):
        response = client.get(f"/api/v1/games/csv/?{query}")
        assert response.status_code == 200 and response.streaming
        lines = b"".join(response.streaming_content).decode().splitlines()
        assert lines[0].startswith("game,")
        expected = (
            GameSeat.objects.filter(game__in=played.distinct()).order_by("game_id", "seat")
            .values_list("game_id", "seat")
        )  # fmt: skip
        got = [(int(line.split(",")[0]), int(line.split(",")[9])) for line in lines[1:]]
        assert got == list(expected), query
    assert len(got) == 0 and len(lines) == 1


READS = [
    "/ladders/{ladder}/",
    "/tournaments/{ladder}/",
    "/bots/{bot}/",
    "/api/v1/ladders/{ladder}/leaderboard/",
    "/api/v1/ladders/{ladder}/history/{bot}/",
    "/api/v1/ladders/{ladder}/challenges/",
    "/dashboards/seats/?title=citadels&bot={bot}",
    "/dashboards/characters/?title=citadels&tournament={ladder}",
    "/dashboards/ratings/?title=citadels",
    "/dashboards/ratings/?title=citadels&bot={bot}",
    "/api/v1/analytics/ratings/?title=citadels&since=2025-01-01&until=2025-01-02",
]


def test_reads_never_write_even_with_games_waiting_to_be_folded(long_history, client, settings):
    """Games just stored on the ladder wait for the beat's fold: each read answers inside a
    read-only transaction, so none folds them; the beat's task does. (Every game pending at
    once, as a migration leaves them, is dashboards/test_ratings_totals.py's case.)"""
    from arena.games.tasks import fold_totals

    ladder = ladder_of(long_history)
    bot = Bot.objects.get(name="history-citadels-3")
    settings.ARENA_LADDER_SETTLED_SIGMA = 0  # a busy ladder: its window stays full
    stored = store_ladder_games(ladder, 3)
    pending = set(AnalyticsPending.objects.values_list("game_id", flat=True))
    assert pending == set(stored)
    for url in READS:
        url = url.format(ladder=ladder, bot=bot.pk)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL transaction_read_only = on")
            response = client.get(url)
            assert response.status_code == 200, url
            transaction.set_rollback(True)  # back to read-write
    assert set(AnalyticsPending.objects.values_list("game_id", flat=True)) == pending
    fold_totals()
    assert not AnalyticsPending.objects.exists()
    seats = tables.page("seats", tables.selection("seats", _query(), None))
    finished = Game.objects.filter(status="finished", tournament__title="citadels").count()
    assert seats["games"] == finished


def store_ladder_games(ladder: int, count: int) -> list[int]:
    """Play and store ``count`` of the ladder's next games in this process, as a worker
    does; their ids."""
    from arena.games import services
    from arena.games.tasks import run_job
    from arena.tournaments import ladders
    from arena.tournaments.models import Tournament

    ladders.top_up(Tournament.objects.get(pk=ladder))
    queued = Game.objects.filter(tournament_id=ladder, status=Game.Status.QUEUED)
    stored = []
    for game in queued.order_by("number")[:count]:
        job = services.claim_game(game.pk, worker="test")
        services.store_game_result(job, run_job(job))
        stored.append(game.pk)
    assert len(stored) == count
    return stored


def _query():
    from django.http import QueryDict

    return QueryDict("title=citadels")


def test_the_history_is_shaped_as_the_store_writes_it(long_history):
    """A rating change per seat of every copied game, each of the seated version's rating."""
    ladder = ladder_of(long_history)
    games = Game.objects.filter(tournament_id=ladder)
    assert RatingChange.objects.filter(rating__tournament_id=ladder).count() == 4 * games.count()
    mismatched = RatingChange.objects.filter(rating__tournament_id=ladder).exclude(
        game__seats__bot_version=F("rating__bot_version")
    )
    assert not mismatched.exists()


def test_the_queue_counts_a_ladders_finished_games_without_walking_them(long_history, client):
    from django.contrib.auth import get_user_model

    ladder = ladder_of(long_history)
    staff = get_user_model().objects.create_user("staff-history", is_staff=True)
    client.force_login(staff)
    body = client.get("/api/v1/queue/").json()
    (row,) = [t for t in body["tournaments"] if t["id"] == ladder]
    assert row["finished"] == Game.objects.filter(tournament_id=ladder, status="finished").count()


def test_a_ladders_progress_counts_its_finished_games(long_history, client):
    ladder = ladder_of(long_history)
    body = client.get(f"/api/v1/tournaments/{ladder}/progress/").json()
    finished = Game.objects.filter(tournament_id=ladder, status="finished").count()
    assert body["finished"] == finished == body["done"]
