"""Warm starts: a Python bot forked from the runner's zygote into a sandbox bubblewrap built.

A warm bot must be exactly as confined as a cold one (bubblewrap's own command): the same
namespaces as its sandbox, no capabilities, no new privileges, the seccomp filter, only its
three pipes, the bot environment, its limits. Each is checked here on a real bot in a real
game, against the same bot started cold.
"""

import json
import logging
import os
import shutil
from pathlib import Path

import pytest

from tests.support.toy_title import TOY
from workers import warm_start
from workers.match import Match, SeatSpec, run_match
from workers.sandbox import BOT_ENV

from .conftest import BOTS, NEIGHBOUR_LIMITS

pytestmark = pytest.mark.sandbox
NAMESPACES = ("user", "mnt", "net", "ipc", "uts", "cgroup", "pid")


def seen_by(stderr: str) -> dict:
    return json.loads(stderr.split("SEEN ", 1)[1].splitlines()[0])


def play_introspect(monkeypatch, start: str):
    """A game of two introspecting bots started ``start``; what each saw of itself, and
    the namespaces of each seat's sandbox (its PID 1) as the runner sees them."""
    monkeypatch.setenv("ARENA_BOT_WARM_START", "1" if start == "warm" else "0")
    seats = [SeatSpec("process", "i", str(BOTS / "introspect.py"))] * 2
    sandboxes = []
    with Match(TOY, seats, seed=5, limits=NEIGHBOUR_LIMITS) as match:
        match.start()
        for seat in match.seats:
            init = seat.process.ns_init_pid()
            sandboxes.append({ns: os.readlink(f"/proc/{init}/ns/{ns}") for ns in NAMESPACES})
        while not match.over:
            match.play_one_decision()
        outcome = match.finish()
    # It tries a new user namespace: refused, and reported (by its keeper, or answered by
    # the runner for a cold start).
    refused = [
        {
            "kind": "refused",
            "decision": None,
            "applied": None,
            "call": "unshare",
            "message": "system call unshare refused by the sandbox (answered EPERM)",
        }
    ]
    assert outcome.faults == [refused] * 2, outcome.stderr
    assert [t["start"] for t in outcome.timings] == [start, start]
    return [seen_by(text) for text in outcome.stderr], sandboxes


def test_a_warm_bot_is_confined_exactly_like_a_cold_one(monkeypatch):
    warm, warm_sandboxes = play_introspect(monkeypatch, "warm")
    cold, _ = play_introspect(monkeypatch, "cold")
    host = {ns: os.readlink(f"/proc/self/ns/{ns}") for ns in NAMESPACES}
    for bot, its_sandbox in zip(warm, warm_sandboxes, strict=True):
        assert bot["namespaces"] == its_sandbox  # every namespace of its own sandbox
        assert all(bot["namespaces"][ns] != host[ns] for ns in NAMESPACES)
    assert warm[0]["namespaces"]["net"] != warm[1]["namespaces"]["net"]  # one sandbox each
    for bot in warm + cold:
        status = bot["status"]
        assert status["Uid"].split() == ["65534"] * 4 and status["Gid"].split() == ["65534"] * 4
        for caps in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
            assert status[caps] == "0000000000000000", caps
        assert status["NoNewPrivs"] == "1" and status["Seccomp"] == "2"
        assert bot["new_user_namespace"] != "created"
        pipes = {fd: target for fd, target in bot["fds"].items() if fd in ("0", "1", "2")}
        assert [target.startswith("pipe:") for target in pipes.values()] == [True] * 3
        others = {target for fd, target in bot["fds"].items() if fd not in pipes}
        assert others <= {"/bot/introspect.py"}  # a cold interpreter holds its script open
        assert bot["env"] == dict(BOT_ENV, PWD="/bot") and bot["cwd"] == "/bot"
        assert bot["argv"] == ["/bot/introspect.py"] and bot["file"] == "/bot/introspect.py"
        assert bot["path0"] == "/bot" and bot["name"] == "__main__" and bot["main_is_me"]
    # A session of its own, which the runner pauses: led by the warm bot itself, or by
    # bubblewrap's PID 1 (--new-session) of a cold start.
    assert [bot["sid"] == bot["pid"] for bot in warm] == [True, True]
    assert [bot["sid"] for bot in cold] == [1, 1]
    for key in ("limits", "status", "env", "argv"):
        assert warm[0][key] == cold[0][key], key
    assert warm[0]["random"] != warm[1]["random"]  # each fork reseeds random


def test_the_warm_bot_shows_its_own_command_line(monkeypatch):
    monkeypatch.setenv("ARENA_BOT_WARM_START", "1")
    seats = [SeatSpec("process", "p", str(BOTS / "polite.py")), SeatSpec("builtin", "random")]
    with Match(TOY, seats, seed=2, limits=NEIGHBOUR_LIMITS) as match:
        match.start()
        pid = match.seats[0].process.bot_pid()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0")
        assert cmdline == b"python3\0/bot/polite.py"
        while not match.over:
            match.play_one_decision()
        match.finish()


def test_a_zygote_that_cannot_start_means_cold_starts_with_a_warning(monkeypatch, caplog):
    monkeypatch.setenv("ARENA_BOT_WARM_START", "1")
    monkeypatch.setattr(warm_start, "_zygote_code", lambda: "raise SystemExit(3)")
    monkeypatch.setattr(warm_start, "_ZYGOTE", None)
    seats = [SeatSpec("process", "p", str(BOTS / "polite.py")), SeatSpec("builtin", "random")]
    with caplog.at_level(logging.WARNING, logger="workers.sandbox"):
        outcome = run_match(TOY, seats, seed=2, limits=NEIGHBOUR_LIMITS)
    assert outcome.faults[0] == [] and outcome.timings[0]["start"] == "cold"
    assert any(r.levelno == logging.WARNING for r in caplog.records)  # the operator is told
    monkeypatch.setattr(warm_start, "_ZYGOTE", None)  # the next test's bots start warm again


def test_a_zygote_that_fails_to_fork_means_a_cold_start_of_the_same_bot(monkeypatch, private_dir):
    # A zygote that says ready, then is gone: the bot's warm start fails after its sandbox
    # was built, from a staged copy (the sandbox user cannot read the original), and the
    # cold start must still find that copy.
    monkeypatch.setenv("ARENA_BOT_WARM_START", "1")
    monkeypatch.setattr(
        warm_start, "_zygote_code",
        lambda: "import socket, sys; socket.socket(fileno=int(sys.argv[2])).send(b'ready')",
    )  # fmt: skip
    monkeypatch.setattr(warm_start, "_ZYGOTE", None)
    bot = private_dir / "polite.py"
    shutil.copy(BOTS / "polite.py", bot)
    os.chmod(bot, 0o600)
    seats = [SeatSpec("process", "p", str(bot)), SeatSpec("builtin", "random")]
    outcome = run_match(TOY, seats, seed=2, limits=NEIGHBOUR_LIMITS)
    assert outcome.faults[0] == [] and outcome.timings[0]["start"] == "cold"
    monkeypatch.setattr(warm_start, "_ZYGOTE", None)


def test_a_bot_in_another_language_starts_warm_and_is_execd_once_confined(monkeypatch, private_dir):
    monkeypatch.setenv("ARENA_BOT_WARM_START", "1")
    shutil.copytree(BOTS / "shell", private_dir / "shell")
    seats = [SeatSpec("process", "sh", str(private_dir / "shell")), SeatSpec("builtin", "random")]
    outcome = run_match(TOY, seats, seed=2, limits=NEIGHBOUR_LIMITS)
    assert outcome.faults[0] == [] and outcome.timings[0]["start"] == "warm"
