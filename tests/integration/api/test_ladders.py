"""The ladders in the API and on the web, played in this process: the leaderboard, a bot's
history across versions, challenges (throttled, opt-out), withdrawal, title ratings."""

import pytest

from arena.games import services as game_services
from arena.games.tasks import run_job
from arena.tournaments import house_ladders, ladders
from arena.tournaments.models import Entrant
from tests.factories import PASSWORD, make_builtin

from .conftest import error_of


def play(ladder, games: int) -> None:
    """Play the ladder's queued games in this process, as a worker would, ``games`` of them."""
    for _ in range(games):
        game = ladder.games.filter(status="queued").order_by("number").first()
        job = game_services.claim_game(game.pk, worker="w")
        outcome = run_job(job)
        game_services.store_game_result(job, outcome)


@pytest.fixture
def ladder(toy_title, people, settings):
    settings.ARENA_LADDER_IN_FLIGHT = 2
    ladder = house_ladders.ensure_standing_ladders(titles=["toy"], players=[2])[0]
    first = make_builtin(people["alice"], name="mine")
    ladders.join_ladders(first)
    play(ladder, 6)
    second = first.bot.versions.create(
        number=2, kind="builtin", builtin_name="random", status="ready"
    )
    ladders.join_ladders(second)
    play(ladder, 6)
    return ladder


def test_the_leaderboard_and_a_bots_history_across_versions(as_, ladder):
    listed = as_("anonymous").get("/api/v1/ladders/?title=toy").json()
    assert [row["id"] for row in listed["results"]] == [ladder.pk]
    rows = as_("anonymous").get(f"/api/v1/ladders/{ladder.pk}/leaderboard/").json()["results"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    ordinals = [r["ordinal"] for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    mine = next(r for r in rows if r["bot"] == "mine")
    assert mine["version"] == 2 and mine["status"] == "active"
    assert mine["win_low"] <= mine["win_rate"] <= mine["win_high"]
    history = as_("anonymous").get(f"/api/v1/ladders/{ladder.pk}/history/{mine['bot_id']}/")
    points = history.json()["results"]
    assert [p["version"] for p in points if p["new_version"]] == [1, 2]
    titles = as_("anonymous").get(f"/api/v1/title-ratings/?bot={mine['bot_id']}").json()
    (title,) = titles["results"]
    assert title["games"] == points[-1]["game_index"] and title["version"] == 2
    page = as_("anonymous").get(f"/api/v1/title-ratings/{title['id']}/history/").json()
    assert {p["version"] for p in page["results"]} == {1, 2}


def test_challenges_are_refused_for_opted_out_bots_and_over_the_limit(
    as_, ladder, people, settings
):
    settings.ARENA_CHALLENGE_GAMES_PER_DAY = 5
    mine = Entrant.objects.get(tournament=ladder, status="active", bot_version__bot__name="mine")
    house = ladder.entries.filter(bot_version__bot__owner__username="arena").first()
    url = f"/api/v1/ladders/{ladder.pk}/challenges/"
    body = {"bot": mine.bot_version.bot_id, "opponents": [house.bot_version.bot_id], "games": 3}
    made = as_("alice").post(url, body, format="json")
    assert made.status_code == 201, made.json()
    assert len(made.json()["game_ids"]) == 3
    assert as_("charlie").post(url, body, format="json").status_code == 403  # not his bot
    over = as_("alice").post(url, body, format="json")
    assert over.status_code == 429 and "5 games a day" in over.json()["error"]["message"]
    opt_out = f"/api/v1/bots/{house.bot_version.bot_id}/challenges/"
    assert as_("charlie").post(opt_out, {"accepts": False}, format="json").status_code == 403
    assert (
        as_("bob").post(opt_out, {"accepts": False}, format="json").json()["accepts_challenges"]
        is False
    )
    settings.ARENA_CHALLENGE_GAMES_PER_DAY = 100
    refused = as_("alice").post(url, {**body, "games": 1}, format="json")
    assert refused.status_code == 400
    assert "does not accept challenges" in refused.json()["error"]["message"] + str(
        refused.json()["error"]["fields"]
    )
    assert [c["games"] for c in as_("anonymous").get(url).json()["results"]] == [3]


def test_an_owner_withdraws_a_bot_and_a_second_withdrawal_conflicts(as_, ladder):
    mine = Entrant.objects.get(tournament=ladder, status="active", bot_version__bot__name="mine")
    url = f"/api/v1/ladders/{ladder.pk}/withdraw/"
    body = {"bot": mine.bot_version.bot_id}
    assert as_("charlie").post(url, body, format="json").status_code == 403
    assert as_("alice").post(url, body, format="json").status_code == 200
    assert as_("alice").post(url, body, format="json").status_code == 409
    rows = as_("anonymous").get(f"/api/v1/ladders/{ladder.pk}/leaderboard/").json()["results"]
    assert "mine" not in [r["bot"] for r in rows]


def test_the_ladder_and_bot_pages(client, ladder, people):
    page = client.get(f"/ladders/{ladder.pk}/").content.decode()
    assert 'id="leaderboard"' in page and "mine" in page and 'id="history"' in page
    assert "Toy 2-player ladder" in client.get("/ladders/").content.decode()
    client.login(username="alice", password=PASSWORD)
    mine = Entrant.objects.get(tournament=ladder, status="active", bot_version__bot__name="mine")
    bot = mine.bot_version.bot
    house = ladder.entries.filter(bot_version__bot__owner__username="arena").first()
    sent = client.post(
        f"/ladders/{ladder.pk}/challenge/",
        {"bot": bot.pk, "opponents": [house.bot_version.bot_id], "games": 2},
        follow=True,
    )
    assert "2 challenge games queued first" in sent.content.decode()
    bot_page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert 'id="ladder-entries"' in bot_page and "Withdraw" in bot_page
    client.post(f"/bots/{bot.pk}/challenges/", {"accepts": "no"})
    bot.refresh_from_db()
    assert bot.accepts_challenges is False
    client.post(f"/ladders/{ladder.pk}/withdraw/{bot.pk}/")
    mine.refresh_from_db()
    assert mine.status == Entrant.Status.WITHDRAWN


def test_an_organiser_creates_a_ladder_with_other_rule_options(client, toy_title, people):
    client.login(username="charlie", password=PASSWORD)
    make_builtin(people["alice"], name="ready-one")
    refused = client.post(
        "/ladders/new/",
        {"name": "Short hands", "title": "toy", "players": 2, "options": "max_cards = 9"},
    )
    assert "max_cards" in refused.content.decode() and refused.status_code == 200
    made = client.post(
        "/ladders/new/",
        {"name": "Short hands", "title": "toy", "players": 2, "options": "max_cards = 2"},
    )
    ladder = ladders.standing_ladders("toy").get(name="Short hands")
    assert made.status_code == 302 and ladder.options["max_cards"] == 2
    owners = set(ladder.entries.values_list("bot_version__bot__owner__username", flat=True))
    assert owners == {"arena", "alice"}  # the house bots and every ready bot of the title
    assert ladder.games.filter(status="queued").exists()


def test_any_player_creates_a_running_ladder_with_the_web_forms_rules(as_, toy_title, people):
    body = {"name": "Toy duel", "title": "toy", "players": 2}
    made = as_("charlie").post("/api/v1/ladders/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["status"] == "running" and made.json()["players"] == 2
    assert as_("anonymous").get(f"/api/v1/ladders/{made.json()['id']}/").status_code == 200
    error_of(as_("anonymous").post("/api/v1/ladders/", body, format="json"), 401)
    for wrong, field in [({"players": 13}, "players"), ({"players": 9}, "players"),
                         ({"name": "x" * 101}, "name"), ({"title": "chess"}, "title"),
                         ({"options": {"no_such_option": 1}}, "options")]:  # fmt: skip
        refused = as_("charlie").post("/api/v1/ladders/", {**body, **wrong}, format="json")
        assert field in error_of(refused, 400)["fields"], wrong
