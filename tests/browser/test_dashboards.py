"""Each dashboard in a real headless Chromium (Debian's): it loads, its Plotly graphs have
traces, a filter changes a figure, and the console stays clean. Screenshots of every page
are saved as test artifacts (ARENA_TEST_ARTIFACTS, default var/test-artifacts/dashboards)."""

import os
from pathlib import Path

import pytest
from django.conf import settings

from tests.browser.test_first_tournament import page  # noqa: F401 - the Chromium page fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = (
    Path(os.environ.get("ARENA_TEST_ARTIFACTS", Path(settings.BASE_DIR) / "var" / "test-artifacts"))
    / "dashboards"
)
PAGES = ["seats", "characters", "cranes", "ratings"]


@pytest.fixture
def stored_games():
    from arena.tournaments.history import simulate

    return simulate(48, seed=3, say=lambda _: None)


def traces(page) -> dict[str, int]:  # noqa: F811 - the fixture's page object
    """Plotly's own count of the traces drawn in each graph of the page."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('div.plot')]
             .map(d => [d.id, (d.data || []).length]))"""
    )


def test_each_dashboard_draws_graphs_that_a_filter_changes(page, live_server, stored_games):  # noqa: F811
    assert stored_games > 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on(
        "response", lambda r: problems.append(f"{r.status}: {r.url}") if r.status >= 400 else None
    )
    for name in PAGES:
        page.goto(f"{live_server.url}/dashboards/{name}/")
        page.wait_for_selector("div.plot .main-svg")
        drawn = traces(page)
        assert len(drawn) >= 3 and all(drawn.values()), (name, drawn)
        assert "games in this selection" in page.inner_text("#game-count")
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    page.goto(f"{live_server.url}/dashboards/seats/?title=citadels")
    page.wait_for_selector("#plot-seat-win-rate .main-svg")
    before = page.evaluate("() => document.getElementById('plot-seat-win-rate').data.length")
    page.select_option("#players", "4")
    page.click("#filters button[type=submit]")
    page.wait_for_url("**players=4**")
    page.wait_for_selector("#plot-seat-win-rate .main-svg")
    after = page.evaluate("() => document.getElementById('plot-seat-win-rate').data.length")
    assert after < before  # one player count left: its bars and its fair line
    page.screenshot(path=str(ARTIFACTS / "seats-4-players.png"), full_page=True)

    # the ratings page's bot picker: one bot chosen, one rating line (and its band) left
    page.goto(f"{live_server.url}/dashboards/ratings/?title=citadels")
    page.wait_for_selector("#plot-rating-history .main-svg")
    before = page.evaluate("() => document.getElementById('plot-rating-history').data.length")
    first = page.eval_on_selector("#bots option", "o => o.value")
    page.select_option("#bots", [first])
    page.click("#filters button[type=submit]")
    page.wait_for_url(f"**bots={first}**")
    page.wait_for_selector("#plot-rating-history .main-svg")
    after = page.evaluate("() => document.getElementById('plot-rating-history').data")
    assert len(after) < before and {t.get("legendgroup") for t in after} == {after[-1]["name"]}
    assert traces(page)["plot-head-to-head"] == 1  # the matrix is still drawn
    page.screenshot(path=str(ARTIFACTS / "ratings-one-bot.png"), full_page=True)

    page.goto(f"{live_server.url}/dashboards/seats/?title=citadels&until=2000-01-01")
    assert "No games in this selection" in page.content()
    assert traces(page) == {}
    page.screenshot(path=str(ARTIFACTS / "seats-empty.png"), full_page=True)

    # a bot's page and a tournament's page draw their own charts
    from arena.bots.models import Bot
    from arena.tournaments.models import Tournament

    bot = Bot.objects.filter(versions__ratings__games__gt=0).first()
    tournament = Tournament.objects.filter(ratings__games__gt=0).first()
    for name, url in (
        ("bot", bot.get_absolute_url()),
        ("tournament", tournament.get_absolute_url()),
    ):
        page.goto(f"{live_server.url}{url}")
        page.wait_for_selector("div.plot .main-svg")
        drawn = traces(page)
        assert set(drawn) == {f"plot-{name}-rating" if name == "bot" else "plot-tournament-ratings",
                              f"plot-{name}-seats"} and all(drawn.values()), (name, drawn)  # fmt: skip
        page.screenshot(path=str(ARTIFACTS / f"{name}-page.png"), full_page=True)
    assert problems == []
