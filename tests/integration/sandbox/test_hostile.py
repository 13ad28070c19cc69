"""Hostile native and Node.js bots (sources in tests/fixtures/hostile), one attempt each, in
real games in the real sandbox: each attempt is refused or bounded, and recorded for the
seat where the sandbox can tell; the game still finishes and the neighbour is unharmed.
"""

import functools
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.registered import registered
from tests.support.toy_title import TOY
from workers.match import SeatSpec, run_match, validate_bot

from .conftest import BOTS, LIMITS, NEIGHBOUR_LIMITS, REPO, bot_processes

pytestmark = pytest.mark.sandbox
HOSTILE = REPO / "tests" / "fixtures" / "hostile"

# attempt (what the C bot does) -> the system call the kernel sees
REFUSED_CALLS = {
    "ptrace": "ptrace",
    "process_vm_readv": "process_vm_readv",
    "add_key": "add_key",
    "keyctl": "keyctl",
    "io_uring_setup": "io_uring_setup",
    "userfaultfd": "userfaultfd",
    "bpf": "bpf",
    "perf_event_open": "perf_event_open",
    "personality": "personality",
    "unshare": "unshare",
    "mount": "mount",
    "socket_vsock": "socket",
    "socket_netlink": "socket",
    "prctl_pdeathsig": "prctl",
}


@pytest.fixture(params=["warm", "cold"])
def start(request, monkeypatch):
    monkeypatch.setenv("ARENA_BOT_WARM_START", "1" if request.param == "warm" else "0")
    return request.param


@functools.cache
def _built(source: str) -> Path:
    """The C bot ``source`` built statically (as the C++ kit builds), once per session."""
    binary = Path(tempfile.mkdtemp(prefix="arena-hostile-")) / source.removesuffix(".c")
    subprocess.run(
        ["gcc", "-static", "-O2", "-o", str(binary), str(HOSTILE / source)],
        check=True,
        capture_output=True,
    )
    return binary


def native_bot(source: str, directory, attempt: str = ""):
    """A bot directory running the C bot ``source``, making ``attempt``."""
    directory.mkdir(exist_ok=True)
    shutil.copy(_built(source), directory / "bot")
    (directory / "bot.json").write_text(
        json.dumps({"title": "toy", "entry": "bot", "language": "executable"})
    )
    (directory / "attempt.txt").write_text(attempt + "\n")
    directory.chmod(0o755)
    return directory


def play(bot, limits=LIMITS):
    seats = [
        SeatSpec("process", "hostile", str(bot)),
        SeatSpec("process", "polite", str(BOTS / "polite.py"), limits=NEIGHBOUR_LIMITS),
    ]
    outcome = run_match(TOY, seats, seed=3, limits=limits)
    assert outcome.faults[1] == [] and outcome.timings[1]["decisions"] > 0
    assert outcome.timings[0]["decisions"] > 0  # the hostile bot went on playing
    return outcome


@pytest.mark.parametrize("attempt", sorted(REFUSED_CALLS))
def test_a_refused_system_call_fails_and_is_recorded_for_the_seat(attempt, start, private_dir):
    bot = native_bot("syscalls.c", private_dir / "bot", attempt)
    outcome = play(bot)
    call = REFUSED_CALLS[attempt]
    refused = [f for f in outcome.faults[0] if f["kind"] == "refused"]
    if start == "warm":  # its keeper answered EPERM and told the runner which call
        assert f"{attempt}: EPERM" in outcome.stderr[0]
        assert [f["call"] for f in refused] == [call]
        assert (
            refused[0]["message"] == f"system call {call} refused by the sandbox (answered EPERM)"
        )
    else:  # nobody listens: the kernel answers ENOSYS, and nothing can be recorded
        assert f"{attempt}: ENOSYS" in outcome.stderr[0]
        assert refused == []
    assert [f for f in outcome.faults[0] if f["kind"] != "refused"] == []
    assert outcome.seat_status[0] == ("faulted" if start == "warm" else "ok")
    assert bot_processes(str(bot)) == []


def test_validation_passes_a_bot_that_makes_refused_calls_and_names_them(private_dir):
    bot = native_bot("syscalls.c", private_dir / "bot", "keyctl")
    with registered(TOY):
        report = validate_bot("toy", str(bot), limits=NEIGHBOUR_LIMITS)
    assert report.ok and report.refused == ["keyctl"]
