"""Real bubblewrap, real bot processes, real games: shared helpers of the sandbox suite."""

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

import engine
from tests.support.platform import wait_for
from tests.support.registered import registered
from tests.support.toy_title import TOY
from workers.limits import Limits

BOTS = Path(__file__).resolve().parents[2] / "fixtures" / "bots"
REPO = Path(__file__).resolve().parents[3]

# Small limits keep the suite fast; the attacks do not need more to show their effect.
LIMITS = Limits(
    decision_ms=200,
    bank_ms=1000,
    startup_ms=3000,
    shutdown_ms=300,
    max_faults=3,
    memory_mb=256,
    processes=16,
    tmp_mb=8,
    file_size_mb=4,
    stderr_bytes=16 << 10,
)
# Well-behaved bots (the neighbours of attackers, bots of clean games) get a generous clock:
# under machine load (load average 8 on 2 cores) a polite bot once overran 200 ms per decision
# plus a 1 s bank over a game. Attackers keep LIMITS, so their tests take no longer.
NEIGHBOUR_LIMITS = LIMITS.replace(bank_ms=60_000, startup_ms=30_000)


def real_titles() -> list[str]:
    """The real titles that exist on this branch (Citadels, Praga), in that order."""
    return [t for t in ("citadels", "praga") if t in engine.titles()]


@pytest.fixture
def game_title():
    """The title the attack tests play: Citadels once it exists (long games), else the toy."""
    if "citadels" in engine.titles():
        yield "citadels"
    else:
        with registered(TOY):
            yield "toy"


def players_for(title_id: str) -> int:
    title = engine.title(title_id)
    return max(title.min_players, min(4, title.max_players))


def bot_processes(marker: str) -> list[int]:
    """Pids of live processes whose command line contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            if marker.encode() in cmdline and state != "Z":
                found.append(int(entry))
    return found


def wait_until(condition, seconds: float) -> bool:
    """Whether ``condition()`` holds within ``seconds`` (polled every 50 ms)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def wait_for_bots(marker: str, count: int) -> None:
    """Until ``count`` bots (their own interpreters) whose command line contains ``marker``
    run: a sandbox and an interpreter start in a second here, much later on a loaded machine."""
    wait_for(
        lambda: len(bot_interpreters(marker)) >= count,
        timeout=180,
        what=f"{count} bots {marker} to start",
    )


def bot_interpreters(marker: str) -> list[int]:
    """The bots' own Python processes among :func:`bot_processes`: not bubblewrap, and not a
    cold start's first step (``workers.zygote.confine``, a Python run from a descriptor,
    which then execs prlimit and prlimit the bot). Counted, that step made a bot seem to run
    before it did: two of them seen, then one while its prlimit ran (a CI failure)."""
    found = []
    for pid in bot_processes(marker):
        with contextlib.suppress(OSError):
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            helper = any(a.startswith(b"/proc/self/fd/") for a in argv)
            if argv[0].endswith(b"python3") and not helper:
                found.append(pid)
    return found


@pytest.fixture
def private_dir():
    """A directory outside the repository that only root can enter (like pytest's tmp_path)."""
    path = Path(tempfile.mkdtemp(prefix="arena-test-"))
    os.chmod(path, 0o700)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items):
    """The warm and cold runs of one attack share its fixture bot's file name, which the
    leftover-process check looks for: they run on the same xdist worker, one after the other
    (``--dist loadgroup``), never at the same time."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "start" in callspec.params:
            item.add_marker(pytest.mark.xdist_group(item.originalname))
