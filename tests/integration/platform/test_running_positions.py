"""A running game's positions: the worker's lease heartbeat keeps the game's record so far,
from which the owner of a seat's bot downloads that seat's view (its observation, and its
options when the decision is its own); nobody else gets anything, and nothing in it tells
the seed or what the seat does not see (docs/positions.md)."""

import json

import pytest

import engine
from arena.games import services as games
from arena.games.models import Game
from arena.games.tasks import run_job
from engine.core.positions import PositionRefused
from tests.factories import make_user

from .test_viewer import claim_new_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

SEED = 918_273_645  # long enough that its digits in an answer would not be a coincidence
STOP_AT = 12  # the decision pending when the test looks at the running game


@pytest.fixture
def people():
    return make_user("alice"), make_user("bob"), make_user("charlie")


def test_a_seats_owner_downloads_its_view_of_a_running_game_and_nobody_else_does(client, people):
    alice, bob, charlie = people
    game, job = claim_new_game("citadels", alice, bob, seed=SEED)
    url = f"/games/{game.pk}/position.json"
    seen = {}

    def look(state):  # the runner's per-decision callback, as the heartbeat gets it
        if len(state.actions()) + 1 != STOP_AT:
            return
        assert games.renew_lease(job, state)  # a renewal keeps the record so far
        client.logout()
        seen["anonymous"] = client.get(url, {"seat": 0})
        for name, who in (("charlie", charlie), ("bob", bob), ("alice", alice)):
            client.force_login(who)
            seen[name] = client.get(url, {"seat": 0})
        seen["whole"] = client.get(url, {"at": 3})
        seen["early"] = client.get(url, {"seat": 0, "at": 3})
        seen["beyond"] = client.get(url, {"seat": 0, "at": STOP_AT + 1})
        seen["page"] = client.get(f"/games/{game.pk}/").content.decode()
        seen["observation"] = json.loads(json.dumps(state.observation(0)))
        seen["decision"] = state.decision()

    played = run_job(job, on_progress=look)
    for name in ("anonymous", "charlie", "bob"):
        answer = seen[name]
        assert answer.status_code == 403 and "owner of seat 0" in answer.json()["error"]
        assert str(SEED) not in answer.content.decode()
    assert seen["whole"].status_code == 403 and "?seat=N" in seen["whole"].json()["error"]

    answer = seen["alice"]
    assert answer.status_code == 200 and "attachment" in answer["Content-Disposition"]
    view = answer.json()
    assert str(SEED) not in answer.content.decode()
    assert not {"seed", "state", "chance", "actions", "references", "played"} & set(view)
    assert view["view"] == 0 and view["decision"] == STOP_AT
    assert view["observation"] == seen["observation"]  # what seat 0's bot knew there
    decision = seen["decision"]
    assert view["to_move"]["seat"] == decision.seat and view["to_move"]["kind"] == decision.kind
    mine = decision.seat == 0
    assert view["to_move"]["options"] == (
        json.loads(json.dumps(decision.options)) if mine else None
    )
    assert seen["early"].json()["decision"] == 3
    beyond = seen["beyond"]
    assert beyond.status_code == 400 and f"decisions 1 to {STOP_AT}" in beyond.json()["error"]
    assert f'href="{url}?seat=0"' in seen["page"]
    with pytest.raises(PositionRefused, match="seat 0's view"):
        engine.title("citadels").load_position(view)

    # stored: the record so far is gone, and the whole position is everyone's
    games.store_game_result(job, played)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.progress is None
    client.logout()
    assert client.get(url, {"at": STOP_AT}).json()["decision"] == STOP_AT


def test_a_game_not_reported_yet_has_no_view_to_offer(client, people):
    alice, bob, _ = people
    game, _ = claim_new_game("praga", alice, bob)
    client.force_login(alice)
    answer = client.get(f"/games/{game.pk}/position.json", {"seat": 0})
    assert answer.status_code == 409 and "few seconds" in answer.json()["error"]
    bad = client.get(f"/games/{game.pk}/position.json", {"seat": "x"})
    assert bad.status_code == 400 and "?seat=N" in bad.json()["error"]
