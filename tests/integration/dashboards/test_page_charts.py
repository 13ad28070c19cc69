"""A bot's page and a tournament's page draw their own charts (rating over games with a
marker where a new version first played; games won by seat), each saying how many games it
rests on, from the stored games of the shared history."""

import json

import pytest

from arena.bots.models import Bot, BotVersion
from arena.games import totals
from arena.ratings.models import Rating, RatingChange
from arena.ratings.standings import standings
from arena.tournaments.models import Tournament
from arena.web.charts import bot_charts, thinned, tournament_charts

pytestmark = pytest.mark.django_db


def drawn(html: str) -> dict[str, dict]:
    """Each chart's figure JSON as the page carries it."""
    found = {}
    for part in html.split('data-chart="')[1:]:
        key = part.split('"')[0]
        found[key] = json.loads(
            html.split(f'id="{key}" type="application/json">')[1].split("</script>")[0]
        )
    return found


def test_a_bot_page_draws_its_rating_and_its_seats(client, history):
    bot = Bot.objects.filter(title="citadels", versions__ratings__games__gt=0).first()
    html = client.get(bot.get_absolute_url()).content.decode()
    charts = drawn(html)
    assert set(charts) == {"bot-rating", "bot-seats"}
    assert all(figure["data"] for figure in charts.values())
    assert "Rests on" in html and "/dashboards/plotly.min.js" in html
    seats = {c.key: c for c in bot_charts(bot)}["bot-seats"]
    assert sum(r["games"] for r in seats.rows) == seats.games  # one seat per game here
    assert seats.rows[0]["win_rate"] == seats.rows[0]["wins"] / seats.rows[0]["games"]


def test_a_new_versions_first_game_is_marked_on_the_bot_rating(client, history):
    rating = Rating.objects.filter(games__gt=4).select_related("bot_version__bot").first()
    bot = rating.bot_version.bot
    newer = BotVersion.objects.create(bot=bot, number=99, kind="builtin",
                                      builtin_name=rating.bot_version.builtin_name)  # fmt: skip
    second = Rating.objects.create(tournament=rating.tournament, bot_version=newer, mu=25,
                                   sigma=8, ordinal=1)  # fmt: skip
    later = list(rating.history.order_by("-game__number").values_list("pk", flat=True)[:2])
    RatingChange.objects.filter(pk__in=later).update(rating=second)
    totals.rebuild()  # rows edited after they were folded
    charts = drawn(client.get(bot.get_absolute_url()).content.decode())
    markers = [t for t in charts["bot-rating"]["data"] if t.get("name") == "new version"]
    assert markers and markers[0]["text"] == ["v99"]


def test_a_tournament_page_draws_rating_movement_and_seats(client, history):
    tournament = Tournament.objects.filter(title="praga", status="finished").first()
    html = client.get(tournament.get_absolute_url()).content.decode()
    charts = drawn(html)
    assert set(charts) == {"tournament-ratings", "tournament-seats"}
    movement = charts["tournament-ratings"]["data"]
    assert len(movement) == tournament.ratings.count()  # a line per entrant
    chart = {c.key: c for c in tournament_charts(tournament, standings(tournament.pk))}
    chart = chart["tournament-ratings"]
    assert chart.games == tournament.games.filter(rated=True).count()


def test_a_bot_without_games_says_so(client, history):
    bot = Bot.objects.create(owner=Bot.objects.first().owner, title="praga", name="newcomer")
    html = client.get(bot.get_absolute_url()).content.decode()
    assert html.count("No finished games yet for this chart.") == 2 and drawn(html) == {}


def test_a_long_line_is_thinned_evenly_and_keeps_its_last_point():
    rows = list(range(1234))
    kept = thinned(rows, 100)
    assert len(kept) <= 101 and kept[0] == 0 and kept[-1] == 1233
    assert thinned(rows[:50], 100) == rows[:50]
