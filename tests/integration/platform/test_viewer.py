"""The game page's viewer: who may see which perspective, the frames served, the download."""

import json

import pytest
from django.utils import timezone

import engine
from arena.games import services as games
from arena.games.models import Game, GameSeat
from arena.games.tasks import run_job
from arena.ratings.services import ensure_ratings
from arena.tournaments.models import Tournament
from engine.core import view
from tests.factories import make_builtin, make_tournament, make_user

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SEATS = {"citadels": 7, "praga": 4}
FAULT = {"kind": "timeout", "decision": 3, "message": "no answer within 1000 ms"}


def store_finished_game(title: str, alice, bob) -> Game:
    """A finished game of ``title`` played in-process by built-in bots: alice's bot at seat 0,
    bob's at the others (so bob's bots also play against each other). Seat 0 timed out at decision 3 (as the runner records a fault)."""
    game, job = claim_new_game(title, alice, bob)
    outcome = run_job(job)
    applied = engine.title(title).replay(outcome.record).actions()[2]
    outcome.faults[0] = [dict(FAULT, applied=applied)]
    outcome.stderr = [f"log of seat {i}" for i in range(SEATS[title])]
    outcome.decision_logs = [
        {str(d): f"seat {i} reasons at {d}" for d in range(1, 300)} for i in range(SEATS[title])
    ]
    games.store_game_result(job, outcome)
    game.refresh_from_db()
    return game


def claim_new_game(title: str, alice, bob, seed: int = 17) -> tuple[Game, games.MatchJob]:
    """A game of ``title`` claimed by worker "w", ready to play: alice's built-in bot at seat
    0, bob's at the others."""
    versions = [make_builtin(alice, title=title, name=f"{title}-alice")]
    versions += [
        make_builtin(bob, title=title, name=f"{title}-bob-{i}") for i in range(SEATS[title] - 1)
    ]
    tournament = make_tournament(bob, versions, title=title, seats=SEATS[title], rounds=1)
    # Running, with a queued game whose message is never sent: a Celery worker started for
    # other tests in this process cannot take it (as test_game_services does).
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    ensure_ratings(tournament)
    game = Game.objects.create(
        tournament=tournament, number=1, seed=seed, status="queued", queued_at=timezone.now()
    )
    for seat, version in enumerate(versions):
        GameSeat.objects.create(game=game, seat=seat, bot_version=version)
    return game, games.claim_game(game.pk, worker="w")


@pytest.fixture
def people():
    return make_user("alice"), make_user("bob"), make_user("charlie")


@pytest.fixture(params=["citadels", "praga"])
def game(request, people):
    alice, bob, _ = people
    return store_finished_game(request.param, alice, bob)


def _owner_of_seat(game, seat):
    return game.seats.get(seat=seat).bot_version.bot.owner


def test_the_page_embeds_the_public_frames_and_the_drawing_code(client, game):
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="viewer-data"' in page and "/games/viewer/viewer.js" in page
    assert f"/games/viewer/{game.tournament.title}.js" in page
    data = json.loads(
        page.split('id="viewer-data" type="application/json">')[1].split("</script>")[0]
    )
    assert list(data["perspectives"]) == ["public"]
    expected = view.frames(game.record, "public")
    assert view.decode(data["perspectives"]["public"]) == json.loads(json.dumps(expected))
    assert data["seats"][0].startswith("Seat 1 · ")  # people count seats from 1
    assert [m["kind"] for m in data["marks"]][-1] == "end"


def test_a_seats_owner_gets_what_the_bot_was_sent_and_its_fault_details(client, game):
    seat = 0
    client.force_login(_owner_of_seat(game, seat))
    answer = client.get(f"/games/{game.pk}/view.json", {"perspective": seat})
    assert answer.status_code == 200
    frames = view.decode(answer.json()["frames"])
    assert frames == json.loads(json.dumps(view.frames(game.record, seat)))
    fault = next(m for m in answer.json()["marks"] if m["kind"] == "fault")
    assert fault["frame"] == 2 and FAULT["message"] in fault["text"]
    assert "played instead" in fault["text"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/seats/0/stderr.txt" in page.split('id="viewer-data"')[1]


def _page_data(client, game) -> dict:
    page = client.get(f"/games/{game.pk}/").content.decode()
    return json.loads(
        page.split('id="viewer-data" type="application/json">')[1].split("</script>")[0]
    )


def test_a_bots_decision_logs_are_shown_to_its_owner_and_hidden_from_others(client, game, people):
    alice, bob, charlie = people
    assert _page_data(client, game)["decision_logs"] == {}
    client.force_login(charlie)
    assert _page_data(client, game)["decision_logs"] == {}
    client.force_login(alice)
    shown = _page_data(client, game)["decision_logs"]
    assert list(shown) == ["0"] and shown["0"]["3"] == "seat 0 reasons at 3"
    client.force_login(bob)
    assert "0" not in _page_data(client, game)["decision_logs"]


def test_anyone_downloads_the_whole_position_before_a_decision_of_a_finished_game(client, game):
    title = engine.title(game.tournament.title)
    assert _page_data(client, game)["position_url"] == f"/games/{game.pk}/position.json"
    answer = client.get(f"/games/{game.pk}/position.json", {"at": 5})
    assert answer.status_code == 200 and "attachment" in answer["Content-Disposition"]
    position = answer.json()
    replayed = title.replay(game.record)
    actions = replayed.actions()
    assert position["decision"] == 5 and position["played"] == actions[4]
    loaded = title.load_position(position)
    for action in actions[4:]:
        loaded.apply(action)
    assert loaded.result() == replayed.result()
    last = len(actions)
    assert client.get(f"/games/{game.pk}/position.json", {"at": "x"}).status_code == 400
    beyond = client.get(f"/games/{game.pk}/position.json", {"at": last + 1})
    assert beyond.status_code == 400 and f"decisions 1 to {last}" in beyond.json()["error"]


def test_while_its_deal_is_in_play_a_finished_game_offers_only_its_owners_seat_views(
    client, game, people
):
    alice, _, charlie = people
    # another rotation of the table, dealt from the same seed, still to be played
    Game.objects.create(tournament=game.tournament, number=2, seed=game.seed, status="queued")
    for who in (None, charlie, alice):
        if who is not None:
            client.force_login(who)
        whole = client.get(f"/games/{game.pk}/position.json", {"at": 5})
        assert whole.status_code == 403 and "?seat=N" in whole.json()["error"]
    client.force_login(charlie)
    refused = client.get(f"/games/{game.pk}/position.json", {"at": 5, "seat": 0})
    assert refused.status_code == 403 and "owner of seat 0" in refused.json()["error"]
    client.force_login(alice)
    view = client.get(f"/games/{game.pk}/position.json", {"at": 5, "seat": 0}).json()
    record = game.record
    state = engine.title(record["title"]).new_game(record["players"], record["options"], game.seed)
    for action in engine.title(record["title"]).replay(record).actions()[:4]:
        state.apply(action)
    assert view["view"] == 0 and view["decision"] == 5
    assert view["observation"] == json.loads(json.dumps(state.observation(0)))
    assert not {"seed", "state", "chance", "actions"} & set(view)
    assert 'id="seat-views"' in client.get(f"/games/{game.pk}/").content.decode()


def test_another_player_and_the_anonymous_client_are_refused_a_seat(client, game, people):
    answer = client.get(f"/games/{game.pk}/view.json", {"perspective": 0})
    assert answer.status_code == 403 and "owner" in answer.json()["error"]
    client.force_login(people[2])
    assert client.get(f"/games/{game.pk}/view.json", {"perspective": 0}).status_code == 403
    public = client.get(f"/games/{game.pk}/view.json", {"perspective": "public"}).json()
    assert all(FAULT["message"] not in m["text"] for m in public["marks"])


def test_no_frame_is_shown_while_the_games_deal_is_in_play(client, game):
    assert client.get(f"/games/{game.pk}/view.json", {"perspective": "all"}).status_code == 200
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
    for perspective in ("all", "public"):
        answer = client.get(f"/games/{game.pk}/view.json", {"perspective": perspective})
        assert answer.status_code == 404 and "in play" in answer.json()["error"]


def test_a_bad_perspective_or_method_is_a_clear_client_error(client, game):
    answer = client.get(f"/games/{game.pk}/view.json", {"perspective": "everyone"})
    assert answer.status_code == 400 and "perspective is" in answer.json()["error"]
    assert client.get(f"/games/{game.pk}/view.json", {"perspective": 99}).status_code == 400
    assert client.post(f"/games/{game.pk}/view.json").status_code == 405
    assert client.get("/games/999999/view.json").status_code == 404


def test_the_drawing_code_is_served_from_the_engine_package(client, game):
    title = game.tournament.title
    script = client.get(f"/games/viewer/{title}.js")
    assert script.status_code == 200 and script["Content-Type"].startswith("text/javascript")
    assert script.content.decode() == view.renderer_source(title)
    assert client.get("/games/viewer/viewer.css").status_code == 200
    assert client.get("/games/viewer/chess.js").status_code == 404
    assert client.get("/games/viewer/secrets.txt").status_code == 404


def test_the_replay_download_is_one_line_that_engine_replay_accepts(client, game, tmp_path):
    from engine.cli import main

    body = client.get(f"/games/{game.pk}/replay.json").content.decode()
    assert body.count("\n") == 1 and body.endswith("\n")
    path = tmp_path / "replay.json"
    path.write_text(body)
    assert main(["replay", str(path)]) == 0
