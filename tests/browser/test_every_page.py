"""Every page type as a person sees it, in a real headless Chromium (Debian's), on a phone
(390x844) and a desktop (1440x900): no page wider than its screen, no console error or failed
request, every Plotly chart with titles on both axes, every filtered dashboard's downloads
answering, the game viewer's board in the first screen and in the window after each step,
and no serious or critical accessibility violation by axe-core; each dashboard's graphs drawn
and changed by a filter. Screenshots go to ``test-artifacts/pages/``.

The tests only read the site (a login adds a session), so it is built once for the module, on
a live server of its own, and the database is emptied after the module's last test: each test
building it again (48 games or 16, 3-7 s each) and ``transaction=True`` flushing it after each
cost the file 11 s of 68 at load 3 (the dashboards' test, once a module of its own, played
the same 48 games for itself)."""

import os
from pathlib import Path

import pytest
from django.core.management import call_command
from pytest_django.live_server_helper import LiveServer

from arena.bots.models import Bot
from arena.tournaments.models import Tournament
from tests.browser import site
from tests.browser.test_viewer import browser  # noqa: F401 - the Chromium fixture

# django_db (not transactional): pytest-django makes the test database only for a session
# with a test that asks for it, and each test's own atomic block hides nothing from the server
# (the site is committed before it opens; the server thread writes in its own connection).
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

ARTIFACTS = Path(os.environ.get("ARENA_TEST_ARTIFACTS", "test-artifacts")) / "pages"
SCREENS = {"phone": (390, 844), "desktop": (1440, 900)}
PASSWORD = "a long enough passphrase 42"
# What the filter form sends when Show is pressed with every field left at "any".
EMPTY_FORM = "tournament=&bot_version=&players=&since=&until="

# Each drawn axis of each chart, by Plotly's own list, and the title the page gave it.
AXIS_TITLES = """() => [...document.querySelectorAll('div.plot')].flatMap(div => {
  const drawn = div._fullLayout._subplots;
  return [...drawn.xaxis, ...drawn.yaxis].map(id => id[0] + 'axis' + id.slice(1))
    .filter(name => !(((div.layout[name] || {}).title || {}).text || '').trim())
    .map(name => div.id + ' ' + name);
})"""


@pytest.fixture(scope="module")
def served_site(django_db_setup, django_db_blocker):
    """The 48-game site, committed, and a live server of its own on it: (its URL, the page
    types' paths). Not pytest-django's ``live_server``: a test using that one is made
    transactional, and the database flushed after it. The database stays open to the tests
    and the server thread until the module is done, then is emptied, as a transactional test
    leaves it."""
    with django_db_blocker.unblock():
        try:
            paths = site.page_types(site.build())
            server = LiveServer("localhost")
            try:
                yield server.url, paths
            finally:
                server.stop()
        finally:
            call_command("flush", interactive=False, verbosity=0)


def _watched(chromium, screen: str):
    """A new page at ``screen``'s size whose console errors, uncaught errors and failed
    responses gather in ``page.problems``."""
    width, height = SCREENS[screen]
    page = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    page.problems = []
    page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    page.on(
        "response",
        lambda r: page.problems.append(f"{r.status}: {r.url}") if r.status >= 400 else None,
    )
    return page


def _logged_in(chromium, base: str, screen: str):
    page = _watched(chromium, screen)
    page.goto(base + "/login/")
    page.fill("#id_username", "history")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    return page


# Drawn: every Plotly chart laid out (inline scripts, so by the load event) and, on a game
# page, the viewer's first frame (its frames come by a fetch after the load event).
DRAWN = """() => [...document.querySelectorAll('div.plot')].every(div => div._fullLayout)
  && (!document.getElementById('viewer') || !!document.querySelector('.mv-board .mv-part'))"""


def _open(page, url: str) -> None:
    """Open ``url`` and wait until it is drawn: waiting for the network to stay idle for
    half a second instead cost that half second on each of the walk's 44 page loads."""
    page.goto(url)  # returns at the load event
    page.wait_for_function(DRAWN)


def _screenshot(page, name: str) -> None:
    """The whole page, for a person to look at (no test reads it): JPEG, as PNG took twice
    as long to encode (2.9 s against 1.5 s a phone walk at load 3.5)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.jpeg"), full_page=True, quality=80)


# One test per screen (the longest test of the suite when it walked both): two xdist workers
# can walk them at the same time.
@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_page_type_fits_the_screen_draws_titled_charts_and_logs_no_error(
    browser,  # noqa: F811
    served_site,
    screen,
):
    from axe_playwright_python.sync_playwright import Axe

    base, paths = served_site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    axe = Axe()
    problems: list[str] = []
    width, _ = SCREENS[screen]
    page = _logged_in(browser, base, screen)
    for name, path in paths.items():
        _open(page, base + path)
        _screenshot(page, f"{name}-{screen}")
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > width:
            problems.append(f"{name} at {screen}: {wide} px wide")
        problems += [f"{name} at {screen}: no title on {a}" for a in page.evaluate(AXIS_TITLES)]
        if screen == "phone":  # the rules do not change with the width
            violations = axe.run(page).response["violations"]
            problems += [
                f"{name}: {v['id']} ({v['impact']}) at {v['nodes'][0]['target']}"
                for v in violations
                if v["impact"] in ("serious", "critical")
            ]
    problems += page.problems
    page.context.close()
    assert problems == [], "\n".join(problems)


def test_the_viewer_board_is_in_the_first_desktop_screen(browser, served_site):  # noqa: F811
    base, paths = served_site
    page = _logged_in(browser, base, "desktop")
    for name in ("game-citadels", "game-praga"):
        _open(page, base + paths[name])
        page.wait_for_selector(".mv-board .mv-part")
        top = page.evaluate("document.querySelector('.mv-board').getBoundingClientRect().top")
        assert top < 600, (name, top)
    assert page.problems == []


def test_every_filtered_dashboard_downloads_csv_and_json(browser, served_site):  # noqa: F811
    base, _ = served_site
    page = _logged_in(browser, base, "desktop")
    for name in ("seats", "characters", "cranes", "ratings"):
        _open(page, f"{base}/dashboards/{name}/?{EMPTY_FORM}")
        with page.expect_navigation():
            page.click("#filters button[type=submit]")  # Show, as a person presses it
        page.wait_for_function(DRAWN)
        links = page.eval_on_selector_all(
            "a[href*='/api/v1/analytics/']", "links => links.map(a => a.href)"
        )
        assert {"format=csv" in link for link in links} == {True, False}, name
        for link in links:
            response = page.request.get(link)
            assert response.status == 200, (link, response.text()[:200])
    assert page.problems == []


def test_the_organisers_entrant_list_offers_only_the_chosen_titles_versions(
    browser,  # noqa: F811
    served_site,
):
    base, _ = served_site
    page = _logged_in(browser, base, "phone")
    _open(page, base + "/tournaments/new/")
    for title in ("praga", "citadels"):
        page.select_option("#id_title", title)
        shown = page.eval_on_selector_all(
            "input[name=entrants]",
            "boxes => boxes.filter(b => b.offsetParent).map(b => b.dataset.title)",
        )
        assert shown and set(shown) == {title}
    assert page.problems == []


# The board's box in the window, and the window's size.
BOARD_BOX = """() => {
  const r = document.querySelector('.mv-board').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          width: window.innerWidth, height: window.innerHeight};
}"""


def test_the_viewer_keeps_the_board_in_view_while_stepping(browser, served_site):  # noqa: F811
    base, paths = served_site
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    problems = []
    for screen in SCREENS:
        page = _logged_in(browser, base, screen)
        for name in ("game-citadels", "game-praga"):
            _open(page, base + paths[name])
            page.wait_for_selector(".mv-board .mv-part")
            for step in range(8):
                if step == 2:  # the person scrolls down the page to read the log or seats
                    page.mouse.wheel(0, 1500)
                if step < 5:
                    page.click(".mv-bar button[data-go='next']")
                else:
                    page.keyboard.press("ArrowRight")
                box = page.evaluate(BOARD_BOX)
                inside = (
                    box["top"] >= 0
                    and box["left"] >= 0
                    and box["bottom"] <= box["height"]
                    and box["right"] <= box["width"]
                )
                if not inside:
                    problems.append(f"{name} at {screen}, step {step + 1}: board at {box}")
            page.screenshot(path=str(ARTIFACTS / f"{name}-{screen}-stepped.png"))
        problems += page.problems
        page.context.close()
    assert problems == [], "\n".join(problems)


def traces(page) -> dict[str, int]:
    """Plotly's own count of the traces drawn in each graph of the page."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('div.plot')]
             .map(d => [d.id, (d.data || []).length]))"""
    )


# Each dashboard, as someone not signed in opens it: it loads, its Plotly graphs have traces, a
# filter changes a figure. Its own module once (tests/browser/test_dashboards.py), which
# played the same 48 games again for this one test (3.4-5.4 s) and started a Chromium of its
# own; its screenshots of the four dashboards, the bot's and the tournament's page were the
# desktop walk's.
def test_each_dashboard_draws_graphs_that_a_filter_changes(browser, served_site):  # noqa: F811
    base, _ = served_site
    page = _watched(browser, "desktop")
    page.on("requestfailed", lambda r: page.problems.append(f"request failed: {r.url}"))
    for name in ("seats", "characters", "cranes", "ratings"):
        page.goto(f"{base}/dashboards/{name}/")
        page.wait_for_selector("div.plot .main-svg")
        drawn = traces(page)
        assert len(drawn) >= 3 and all(drawn.values()), (name, drawn)
        assert "games in this selection" in page.inner_text("#game-count")

    page.goto(f"{base}/dashboards/seats/?title=citadels")
    page.wait_for_selector("#plot-seat-win-rate .main-svg")
    before = page.evaluate("() => document.getElementById('plot-seat-win-rate').data.length")
    page.select_option("#players", "4")
    page.click("#filters button[type=submit]")
    page.wait_for_url("**players=4**")
    page.wait_for_selector("#plot-seat-win-rate .main-svg")
    after = page.evaluate("() => document.getElementById('plot-seat-win-rate').data.length")
    assert after < before  # one player count left: its bars and its fair line
    _screenshot(page, "dashboard-seats-4-players")

    # the ratings page's bot picker: one bot chosen, one rating line (and its band) left
    page.goto(f"{base}/dashboards/ratings/?title=citadels")
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
    _screenshot(page, "dashboard-ratings-one-bot")

    page.goto(f"{base}/dashboards/seats/?title=citadels&until=2000-01-01")
    assert "No games in this selection" in page.content()
    assert traces(page) == {}
    _screenshot(page, "dashboard-seats-empty")

    # a bot's page and a tournament's page draw their own charts
    bot = Bot.objects.filter(versions__ratings__games__gt=0).first()
    # a tournament, not the site's ladder (a standing one draws no seats chart)
    tournament = Tournament.objects.filter(standing=False, ratings__games__gt=0).first()
    for name, url in (
        ("bot", bot.get_absolute_url()),
        ("tournament", tournament.get_absolute_url()),
    ):
        page.goto(f"{base}{url}")
        page.wait_for_selector("div.plot .main-svg")
        drawn = traces(page)
        assert set(drawn) == {f"plot-{name}-rating" if name == "bot" else "plot-tournament-ratings",
                              f"plot-{name}-seats"} and all(drawn.values()), (name, drawn)  # fmt: skip
    assert page.problems == []
    page.context.close()
