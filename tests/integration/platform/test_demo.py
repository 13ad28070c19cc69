"""``make demo`` end to end on the embedded defaults (SQLite, the filesystem broker): seed the
demo, run it, see both leagues finish and their pages served, then Ctrl-C stops everything it
started, even when pressed twice."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from arena.processes import stop_process_group
from tests.support.platform import ROOT

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def demo_env(var_dir) -> dict:
    """The embedded defaults, with everything the demo writes under ``var_dir``; its standing
    ladders keep one game each in flight, not eight: the demo's one worker played the
    ladders' first sixteen games (some 20 s on a loaded machine) before the leagues' nine,
    which are what this test waits for."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DJANGO_SETTINGS"))}
    return {
        **env,
        "ARENA_VAR_DIR": str(var_dir),
        "ARENA_MEDIA_ROOT": str(var_dir / "media"),
        "ARENA_LADDER_IN_FLIGHT": "1",
        # The filesystem broker's worker looks for messages ten times a second, not once:
        # the leagues' games and the ladders' top-ups waited out up to a second each.
        "ARENA_BROKER_POLL_SECONDS": "0.1",
    }


def still_running(pattern: str) -> list[str]:
    found = subprocess.run(["pgrep", "-af", pattern], capture_output=True, text=True)
    return [line for line in found.stdout.splitlines() if "pgrep" not in line]


def test_the_demo_plays_its_leagues_serves_them_and_stops_everything(tmp_path):
    env = demo_env(tmp_path)
    manage = [sys.executable, "manage.py"]
    # One round of each league (seed_demo's default is 3): the same commands and code paths,
    # a third of the games.
    for step in (["migrate", "--noinput"], ["seed_demo", "--rounds", "1"]):
        done = subprocess.run(
            manage + step, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    port = free_port()
    demo = subprocess.Popen(
        manage + ["run_demo", "--addr", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 300
        while sum("finished: standings" in line for line in lines) < 2:
            line = demo.stdout.readline()
            assert line or demo.poll() is None, "".join(lines)
            lines.append(line)
            assert time.monotonic() < deadline, "".join(lines)
        assert f"running at http://127.0.0.1:{port}/" in "".join(lines)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/tournaments/1/", timeout=10) as page:
            html = page.read().decode()
        assert page.status == 200 and "Demo Citadels league" in html and "finished" in html
        # Ctrl-C twice, as an impatient person (or make passing the signal on) does.
        demo.send_signal(signal.SIGINT)
        time.sleep(0.2)
        demo.send_signal(signal.SIGINT)
        rest, _ = demo.communicate(timeout=60)
    finally:
        stop_process_group(demo, grace_seconds=5)
    assert demo.returncode == 0, rest
    assert "Demo stopped." in rest and "Traceback" not in rest, rest
    assert still_running(str(tmp_path)) == []  # the worker (its beat schedule is there)
    assert still_running(f"runserver 127.0.0.1:{port}") == []


def test_the_demos_worker_lets_settled_ladders_idle_unless_told_otherwise(monkeypatch):
    from arena.tournaments.management.commands.run_demo import _demo_worker_env

    monkeypatch.delenv("ARENA_LADDER_IDLE_GAMES_PER_HOUR", raising=False)
    assert _demo_worker_env()["ARENA_LADDER_IDLE_GAMES_PER_HOUR"] == "0"
    monkeypatch.setenv("ARENA_LADDER_IDLE_GAMES_PER_HOUR", "6")
    assert _demo_worker_env()["ARENA_LADDER_IDLE_GAMES_PER_HOUR"] == "6"


def test_a_busy_port_is_said_on_the_terminal_before_the_demo_claims_to_run(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**demo_env(tmp_path), "PORT": str(port)}  # the port as `make demo PORT=…` gives it
        done = subprocess.run(
            [sys.executable, "manage.py", "run_demo"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode != 0
    assert f"port {port} on 127.0.0.1 is in use" in done.stderr
    assert "running at" not in done.stdout and "Traceback" not in done.stderr
