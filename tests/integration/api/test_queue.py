"""The work queue for staff: per tournament and per worker, on a staff page and at
/api/v1/queue/, with the counts the games table holds; nobody else sees it."""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.services import review_reason
from arena.games.models import Game, GameSeat
from arena.games.sandboxes import report_worker_sandbox
from arena.tournaments.models import Tournament
from tests.factories import make_tournament
from tests.integration.api.conftest import error_of
from workers import cgroups


@pytest.fixture
def queue(people, versions):
    """A running tournament with games in every state, a finished one with a game that
    failed an hour ago, and one whose only failure is two days old."""
    now = timezone.now()
    alice = people["alice"]
    live = make_tournament(alice, versions, name="Live cup")
    done = make_tournament(alice, versions, name="Done cup")
    old = make_tournament(alice, versions, name="Old cup")
    Tournament.objects.filter(pk=live.pk).update(status="running")
    Tournament.objects.filter(pk__in=[done.pk, old.pk]).update(status="finished")
    lost = now - timedelta(seconds=5)
    rows = [
        (live, "scheduled", {}),
        (live, "scheduled", {}),
        (live, "queued", {"queued_at": now - timedelta(minutes=3)}),
        (live, "running", {"worker": "w1:10:aa", "lease_until": now + timedelta(seconds=20)}),
        (live, "running", {"worker": "w2:11:bb", "lease_until": lost}),
        (live, "finished", {"worker": "w1:10:aa", "finished_at": now}),
        (live, "failed", {"worker": "w2:11:bb", "finished_at": now - timedelta(minutes=1)}),
        (done, "failed", {"worker": "w1:10:aa", "finished_at": now - timedelta(hours=1)}),
        (old, "failed", {"worker": "w3:12:cc", "finished_at": now - timedelta(days=2)}),
    ]
    for number, (tournament, status, fields) in enumerate(rows, start=1):
        Game.objects.create(tournament=tournament, number=number, seed=1, status=status, **fields)
    return live, done, old


EXPECTED_LIVE = {
    "scheduled": 2,
    "queued": 1,
    "running": 2,
    "expired": 1,
    "failed": 1,
    "finished": 1,
}


def test_staff_read_the_counts_per_tournament_and_per_worker(as_, queue):
    live, done, old = queue
    response = as_("bob").get("/api/v1/queue/")
    assert response.status_code == 200
    body = response.json()
    tournaments = {t["id"]: t for t in body["tournaments"]}
    assert set(tournaments) == {live.pk, done.pk}  # the two-day-old failure is history
    assert {k: tournaments[live.pk][k] for k in EXPECTED_LIVE} == EXPECTED_LIVE
    assert tournaments[live.pk]["format"] == "round_robin"
    assert tournaments[live.pk]["oldest_queued_at"] is not None
    assert tournaments[done.pk]["failed"] == 1 and tournaments[done.pk]["running"] == 0
    workers = {w["worker"]: w for w in body["workers"]}
    assert set(workers) == {"w1:10:aa", "w2:11:bb"}
    assert (workers["w1:10:aa"]["running"], workers["w1:10:aa"]["failed"]) == (1, 1)
    assert (workers["w2:11:bb"]["expired"], workers["w2:11:bb"]["failed"]) == (1, 1)
    assert body["totals"]["failed"] == 2 and body["totals"]["running"] == 2
    assert body["lease_seconds"] == 30 and body["sweep_seconds"] == 10


def test_only_staff_read_the_queue_in_the_api(as_, queue):
    assert error_of(as_("anonymous").get("/api/v1/queue/"), 401)["code"] == "not_authenticated"
    assert error_of(as_("alice").get("/api/v1/queue/"), 403)["code"] == "permission_denied"


def test_the_schema_describes_the_queue_with_its_refusals(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/queue/"]["get"]
    assert {"200", "401", "403"} <= set(operation["responses"])
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    described = schema["components"]["schemas"][body.rsplit("/", 1)[-1]]["properties"]
    assert {"tournaments", "workers", "totals"} <= set(described)


def test_the_queue_page_is_for_staff_and_linked_for_them_alone(client, people, queue):
    live, _, _ = queue
    assert client.get("/staff/queue/").status_code == 302  # to the login page
    client.force_login(people["alice"])
    assert client.get("/staff/queue/").status_code == 403
    assert "/staff/queue/" not in client.get("/").content.decode()
    client.force_login(people["bob"])
    assert 'href="/staff/queue/"' in client.get("/").content.decode()
    page = client.get("/staff/queue/").content.decode()
    row = page.split(f'data-tournament="{live.pk}"')[1].split("</tr>")[0]
    numbers = [cell.split(">")[-1] for cell in row.split("</td>") if 'class="num"' in cell]
    assert numbers == [
        "2",
        "1",
        "2",
        "1",
        "1",
        "1",
    ]  # scheduled queued running expired failed finished
    assert 'data-worker="w2:11:bb"' in page and "queue-chart-data" in page


def test_the_queue_page_shows_how_each_worker_confines_bots_and_what_sandboxes_refused(
    client, people, queue, versions, monkeypatch
):
    live, _, _ = queue
    report_worker_sandbox("here@host")  # this machine, as a worker starting on it says
    monkeypatch.setenv("ARENA_SANDBOX_CGROUP", "none")
    cgroups.support.cache_clear()
    try:
        report_worker_sandbox("bare@host")  # a worker given no cgroup
    finally:
        monkeypatch.undo()
        cgroups.support.cache_clear()
    game = Game.objects.get(tournament=live, status="finished")
    refused = {
        "kind": "refused",
        "decision": None,
        "applied": None,
        "call": "ptrace",
        "message": "system call ptrace refused by the sandbox (answered EPERM)",
    }
    memory = {"kind": "memory", "decision": None, "applied": None, "message": "out of memory"}
    for seat, faults in enumerate([[refused, refused], [memory]]):
        GameSeat.objects.create(game=game, seat=seat, bot_version=versions[seat],
                                faults=faults, fault_count=len(faults))  # fmt: skip
    killed_with_runner(game, versions, monkeypatch)
    BotVersion.objects.filter(pk=versions[0].pk).update(
        review_reason=review_reason(["ptrace", "keyctl", "ptrace"])
    )
    client.force_login(people["bob"])
    page = client.get("/staff/queue/").content.decode()
    counts = page.split('id="queue-sandbox-faults"')[1].split("</table>")[0]
    numbers = [cell.split(">")[-1] for cell in counts.split("</td>") if 'class="num"' in cell]
    # seats with refused calls, out of memory, killed with their runner; versions flagged
    assert numbers == ["1", "1", "1", "1"]
    assert (
        "when the worker running this game died"
        in client.get(f"/games/{game.pk}/").content.decode()
    )
    client.force_login(people["bob"])
    assert client.get("/api/v1/queue/").json()["sandbox"]["runner_kills"] == 1
    assert "its smoke game made system calls the sandbox refuses (ptrace, keyctl)" in page
    bare = page.split('data-worker="bare@host"')[1].split("</tr>")[0]
    assert "No cgroup per sandbox" in bare and "ARENA_SANDBOX_CGROUP=none" in bare
    here = page.split('data-worker="here@host"')[1].split("</tr>")[0]
    assert "seccomp" in here
    assert ("No cgroup" in here) == (cgroups.support().mode == "none")


def killed_with_runner(game, versions, monkeypatch):
    """A real watchdog told of a sandbox of ``game``'s seat 2, whose runner then dies (its
    pipe closes): the journal it writes is recorded for that seat."""
    import subprocess
    import sys

    from arena.games.services import record_runner_kills
    from workers import watchdog

    journal = Path(tempfile.mkdtemp(prefix="arena-journal-"))
    monkeypatch.setenv("ARENA_WATCHDOG_JOURNAL", str(journal))
    monkeypatch.setattr(watchdog, "JOURNAL", journal / "arena-watchdog")
    GameSeat.objects.create(game=game, seat=2, bot_version=versions[0])
    sandbox = subprocess.Popen(["sleep", "60"])  # stands for a sandbox's PID 1
    keeper = watchdog.Watchdog(sys.executable)
    namespace = os.readlink(f"/proc/{sandbox.pid}/ns/pid")
    keeper.watch("sandbox-1", sandbox.pid, namespace, [], label=f"game-{game.pk}/2")
    keeper.popen.stdin.close()  # the runner is gone
    keeper.popen.wait(30)
    sandbox.wait(30)  # killed by the watchdog
    assert record_runner_kills() == 1 and record_runner_kills() == 0  # recorded once
    seat = GameSeat.objects.get(game=game, seat=2)
    assert seat.runner_kills == 1 and seat.runner_killed_at is not None
