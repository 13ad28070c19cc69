"""A person signs up, uploads a bot, starts a tournament and reads its standings — in a real
headless Chromium (Debian's), against the live server and a real Celery worker."""

import os

import pytest
from django.db import connections

from arena.bots.models import BotVersion
from tests.factories import RANDOM_BOT_SOURCE, make_builtin, make_user
from tests.support.platform import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


@pytest.fixture
def page():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own ORM reads are
    # plain synchronous calls that Django would otherwise refuse next to a running loop.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page()
        finally:
            browser.close()
            # ORM calls made inside Playwright's context use their own connection; close it
            # here, or the test database cannot be dropped at the end of the session.
            connections.close_all()
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def test_a_new_player_uploads_a_bot_runs_a_tournament_and_sees_standings(
    page, live_server, celery_workers, toy_title, tmp_path
):
    house = make_user("arena")
    make_builtin(house, builtin="random", name="house-random")
    url = live_server.url

    page.goto(url + "/signup/")
    page.fill("#id_username", "dora")
    page.fill("#id_password1", "a long enough passphrase 42")
    page.fill("#id_password2", "a long enough passphrase 42")
    page.click("button[type=submit]")
    assert "Welcome, dora" in page.content()

    page.select_option("#id_title", "toy")
    page.fill("#id_name", "first-bot")
    page.click("button:has-text('Create bot')")
    bot_file = tmp_path / "bot.py"
    bot_file.write_text(RANDOM_BOT_SOURCE)
    page.set_input_files("#id_file", str(bot_file))
    page.click("button:has-text('Upload')")
    assert "Version 1 uploaded" in page.content()
    version = wait_for(
        lambda: BotVersion.objects.filter(
            bot__name="first-bot", status__in=["ready", "rejected"]
        ).first(),
        what="the worker to validate the upload",
    )
    page.reload()
    assert version.status == "ready", version.reason + version.validation_stderr
    assert "ready" in page.inner_text("#versions")

    page.goto(url + "/tournaments/new/")
    page.fill("#id_name", "Dora's first cup")
    page.select_option("#id_title", "toy")
    page.fill("#id_seats", "2")
    page.fill("#id_rounds", "2")
    page.check("text=dora/first-bot v1")
    page.check("text=arena/house-random v1")
    page.click("button:has-text('Create draft')")
    page.click("button:has-text('Start')")
    page.wait_for_selector("#status:has-text('finished')", timeout=120_000)
    standings = page.inner_text("#standings")
    assert "dora/first-bot v1" in standings and "arena/house-random v1" in standings
    assert "4 / 4 games done" in page.inner_text("#progress")
