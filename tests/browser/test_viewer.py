"""The game viewer in a real headless Chromium (Debian's): the offline file written by
`engine view` with no network, and the game page of finished games of both titles against
the live server: stepping, jumping by URL, switching perspective as the owner and as another
player. Screenshots go to ``test-artifacts/viewer/`` (git-ignored) for a person to look at."""

import os
from pathlib import Path

import pytest
from django.db import connections
from django.test import Client

import engine
from arena.bots.models import Bot
from engine.core import records, view
from tests.browser.test_first_tournament import CHROMIUM, CHROMIUM_ARGS
from tests.factories import make_user
from tests.integration.platform.test_viewer import store_finished_game
from tests.unit.viewer.games import citadels_record, praga_record
from tests.unit.viewer.raw_ids import raw_ids

pytestmark = pytest.mark.browser
ARTIFACTS = Path(os.environ.get("ARENA_TEST_ARTIFACTS", "test-artifacts")) / "viewer"


@pytest.fixture(scope="module")
def browser():
    """One Chromium for a module's tests (each opens its own context: cookies, viewport);
    Playwright's event loop runs in this thread until the module's last test is done."""
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # see test_first_tournament.page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
            connections.close_all()
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def _page(browser, *, offline=False, session=None, base=None):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    if offline:  # nothing but the file itself may load
        context.route(
            "**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort()
        )
    if session:
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.errors = errors
    return page


def _session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _texts(page, selector) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


@pytest.mark.parametrize(
    "record", [citadels_record(), praga_record()], ids=["citadels-7", "praga-4"]
)
def test_the_offline_file_opens_without_network_at_the_last_frame(browser, record, tmp_path):
    path = view.write_game_html(record, tmp_path / "game.html")
    page = _page(browser, offline=True)
    page.goto(path.as_uri())
    decisions = records.action_count(record)
    assert page.inner_text(".mv-position") == f"End of the game ({decisions} decisions)"
    final = engine.title(record["title"]).replay(record)
    scores = [str(s) for s in final.result()["scores"]]
    selector = ".cd-score" if record["title"] == "citadels" else ".pr-score"
    assert _texts(page, selector) == scores
    if record["title"] == "citadels":
        cities = [str(len(c)) for c in final.observation(0)["cities"]]
        assert _texts(page, ".cd-city-size") == cities
    page.screenshot(path=str(ARTIFACTS / f"offline-{record['title']}.png"), full_page=True)
    page.keyboard.press("ArrowLeft")
    assert page.inner_text(".mv-position") == f"Decision {decisions} of {decisions}"
    assert page.errors == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("title_id", ["citadels", "praga"])
def test_a_finished_game_page_steps_jumps_and_switches_perspective(browser, live_server, title_id):
    alice, bob, charlie = make_user("alice"), make_user("bob"), make_user("charlie")
    game = store_finished_game(title_id, alice, bob)
    record = game.record
    steps = [(state.clone(), action) for state, action in view.states(record)]
    owner = game.seats.get(seat=0).bot_version.bot.owner
    url = f"{live_server.url}/games/{game.pk}/"
    total = records.action_count(record)

    page = _page(browser, session=_session_of(owner), base=live_server.url)
    page.goto(url)
    page.wait_for_selector(".mv-position")
    assert page.inner_text(".mv-position") == f"Decision 1 of {total}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.inner_text(".mv-position") == f"Decision 3 of {total}"
    page.wait_for_function("location.hash === '#d3'")  # the address follows once drawn
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("location.hash === '#d2'")
    page.click("button[data-go=last]")
    assert page.inner_text(".mv-position") == f"End of the game ({total} decisions)"
    page.click("button[data-go=first]")
    page.click("button[data-go='turn+']")
    assert int(page.get_attribute(".meeple-viewer", "data-frame")) > 0
    _keys_and_play(page, total)

    page.goto(url + "#d137")
    page.wait_for_selector(".mv-position")
    assert page.inner_text(".mv-position") == f"Decision 137 of {total}"
    href = page.get_attribute(".mv-download-position", "href")
    assert href == f"/games/{game.pk}/position.json?at=137"
    state, action = steps[136]
    _check_drawn_state(page, state)
    marks = page.inner_text(".mv-marklist")
    assert "decision 3" in marks and "no answer within 1000 ms" in marks  # the owner's detail
    assert page.get_attribute(".mv-log-link", "href") == f"/games/{game.pk}/seats/0/stderr.txt"
    page.screenshot(path=str(ARTIFACTS / f"page-{title_id}-public.png"), full_page=True)
    # the owner reads the note its bot sent with an answer of seat 0, none at another seat's
    mine = next(i for i, (s, _) in enumerate(steps) if s.decision().seat == 0) + 1
    other = next(i for i, (s, _) in enumerate(steps) if s.decision().seat != 0) + 1
    page.goto(url + f"#d{mine}")
    page.wait_for_selector(".mv-note:not([hidden])")
    assert page.inner_text(".mv-note") == f"Your bot's note: seat 0 reasons at {mine}"
    page.goto(url + f"#d{other}")
    page.wait_for_selector(".mv-position")
    page.wait_for_function(f"location.hash === '#d{other}'")
    assert page.locator(".mv-note").is_hidden()
    page.goto(url + "#d137")
    page.wait_for_selector(".mv-position")

    page.select_option(".mv-perspective", "0")  # the owner: what seat 0's bot was sent
    page.wait_for_function("document.querySelector('.mv-message').textContent === ''")
    seat0 = state.observation(0)
    if title_id == "citadels":
        hand = page.locator("#cd-seat-0 .cd-hand .cd-card").evaluate_all(
            "cards => cards.map(c => c.getAttribute('data-district'))"
        )
        assert hand == seat0["hand"]
        assert page.locator("#cd-seat-1 .cd-hand").count() == 0  # never another seat's hand
    own = next(i for i, (s, _) in enumerate(steps) if not s.is_over() and s.decision().seat == 0)
    page.goto(url + f"#d{own + 1}")
    page.wait_for_selector(".mv-position")
    page.select_option(".mv-perspective", "0")
    page.wait_for_selector(".mv-options li[data-chosen]")
    options = page.locator(".mv-options li").count()
    assert options == len(steps[own][0].decision().options)
    page.screenshot(path=str(ARTIFACTS / f"page-{title_id}-owner.png"), full_page=True)

    other = _page(browser, session=_session_of(charlie), base=live_server.url)
    other.goto(url + "#d137")
    other.wait_for_selector(".mv-position")
    other.select_option(".mv-perspective", "0")
    other.wait_for_selector(".mv-message:has-text('Only the owner')")
    assert other.locator(".mv-options li").count() == 0 or state.decision().seat != 0
    assert "no answer within 1000 ms" not in other.inner_text(".mv-marklist")
    assert "decision 3" in other.inner_text(".mv-marklist")  # the fault itself is public
    assert other.locator(".mv-log-link").count() == 0
    other.select_option(".mv-perspective", "all")  # the game is over: every hand
    other.wait_for_function("document.querySelector('.mv-message').textContent === ''")
    if title_id == "citadels":
        hands = other.locator(".cd-hand").count()
        assert hands == sum(1 for s in range(state.players) if state.observation(s)["hand"])
    other.screenshot(path=str(ARTIFACTS / f"page-{title_id}-refused.png"), full_page=True)
    # a stranger reads seat 0's notes once its owner shares them (the game is over)
    other.goto(url + f"#d{mine}")
    other.wait_for_function(f"location.hash === '#d{mine}'")
    assert other.locator(".mv-note").is_hidden()
    Bot.objects.filter(pk=game.seats.get(seat=0).bot_version.bot_id).update(
        decision_logs_public=True
    )
    other.reload()
    other.wait_for_selector(".mv-note:not([hidden])")
    assert other.inner_text(".mv-note") == f"The bot's note: seat 0 reasons at {mine}"
    assert page.errors == [] and other.errors == []


def _frame(page) -> int:
    return int(page.get_attribute(".meeple-viewer", "data-frame"))


def _keys_and_play(page, total):
    """End, Home, Page Down / Up by round, and play at the chosen speed, paused by space."""
    page.keyboard.press("End")
    assert page.inner_text(".mv-position") == f"End of the game ({total} decisions)"
    page.keyboard.press("Home")
    assert _frame(page) == 0
    page.keyboard.press("PageDown")
    second_round = _frame(page)
    assert second_round > 0
    page.keyboard.press("ArrowDown")  # a turn on
    assert _frame(page) > second_round
    page.keyboard.press("PageUp")  # back to where the round began
    assert _frame(page) == second_round
    page.keyboard.press("PageUp")
    assert _frame(page) == 0
    page.select_option(".mv-speed", "30")
    page.click("button[data-go=play]")
    page.wait_for_function("Number(document.querySelector('.meeple-viewer').dataset.frame) >= 4")
    page.locator(".mv-position").click()  # the keys act outside the speed menu
    page.keyboard.press(" ")
    assert page.inner_text(".mv-play") == "▶ play"
    paused = _frame(page)
    page.wait_for_timeout(300)  # at 30 a second it would have moved on by now
    assert _frame(page) == paused
    page.keyboard.press("Home")


def _check_drawn_state(page, state):
    """What the page drew at this decision is the state the record reaches there."""
    observation = state.observation(0)
    decision = state.decision()
    assert page.get_attribute(".mv-seat.mv-active", "data-seat") == str(decision.seat)
    if state.title.id == "citadels":
        assert _texts(page, ".cd-gold") == [str(g) for g in observation["gold"]]
        assert _texts(page, ".cd-hand-size") == [str(n) for n in observation["hand_sizes"]]
        assert page.inner_text("#cd-round") == str(observation["round"])
    else:
        scores = [str(p["score"]) for p in observation["all_players"]]
        assert _texts(page, ".pr-score") == scores
        assert page.inner_text("#pr-turn") == str(observation["turn"])
        built = page.locator("#pr-city [data-tile]").count()
        assert built == len(observation["city"]["buildings"])


TEXTS_JS = """() => {
  const viewer = document.getElementById('viewer').meepleViewer, out = [];
  for (let i = 0; i < viewer.frames.length; i += 7) {
    viewer.show(i);
    out.push(document.getElementById('viewer').innerText);
    document.querySelectorAll('#viewer title').forEach(t => out.push(t.textContent));
  }
  return out;
}"""


def test_the_praga_page_shows_names_not_raw_ids(browser, tmp_path):
    """Every seventh position of a whole game, every perspective of the offline file: the
    text drawn and every tooltip read as names (tests/unit/viewer/raw_ids.py)."""
    path = view.write_game_html(praga_record(), tmp_path / "game.html")
    page = _page(browser, offline=True)
    page.goto(path.as_uri())
    texts = []
    for perspective in ("public", "all"):
        page.select_option(".mv-perspective", perspective)
        texts += page.evaluate(TEXTS_JS)
    assert len(texts) > 100
    leaks = {line: raw_ids(line) for text in texts for line in text.splitlines() if raw_ids(line)}
    assert leaks == {}
    assert page.errors == []
