"""Hostile native and Node.js bots (sources in tests/fixtures/hostile), one attempt each, in
real games in the real sandbox: each attempt is refused or bounded, and recorded for the
seat where the sandbox can tell; the game still finishes and the neighbour is unharmed.
"""

import atexit
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.processes import cmdline, running
from tests.support.registered import registered
from tests.support.toy_title import TOY
from workers import cgroups, watchdog
from workers.match import Match, SeatSpec, run_match, validate_bot
from workers.sandbox import children_of, sandbox_uids

from .conftest import BOTS, LIMITS, NEIGHBOUR_LIMITS, REPO, bot_processes, wait_until

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
def _build_folder() -> Path:
    """Where this process builds the C bots: removed when it exits (each run left one in
    the system's temporary folder before)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-hostile-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@functools.cache
def _built(source: str) -> Path:
    """The C bot ``source`` built statically (as the C++ kit builds), once per session."""
    binary = _build_folder() / source.removesuffix(".c")
    subprocess.run(
        ["gcc", "-static", "-O2", "-o", str(binary), str(HOSTILE / source)],
        check=True,
        capture_output=True,
    )
    return binary


def native_bot(source: str, directory, attempt: str = "", entry: str = "bot"):
    """A bot directory running the C bot ``source``, making ``attempt``."""
    directory.mkdir(exist_ok=True)
    shutil.copy(_built(source), directory / entry)
    (directory / "bot.json").write_text(
        json.dumps({"title": "toy", "entry": entry, "language": "executable"})
    )
    (directory / "attempt.txt").write_text(attempt + "\n")
    directory.chmod(0o755)
    return directory


def play(bot, limits=LIMITS, *, survives=True):
    seats = [
        SeatSpec("process", "hostile", str(bot)),
        SeatSpec("process", "polite", str(BOTS / "polite.py"), limits=NEIGHBOUR_LIMITS),
    ]
    outcome = run_match(TOY, seats, seed=3, limits=limits)
    assert outcome.faults[1] == [] and outcome.timings[1]["decisions"] > 0
    if survives:
        assert outcome.timings[0]["decisions"] > 0  # the hostile bot went on playing
    return outcome


@pytest.mark.parametrize("attempt", sorted(REFUSED_CALLS))
def test_a_refused_system_call_fails_and_is_recorded_for_the_seat(attempt, start, private_dir):
    bot = native_bot("syscalls.c", private_dir / "bot", attempt)
    outcome = play(bot)
    call = REFUSED_CALLS[attempt]
    refused = [f for f in outcome.faults[0] if f["kind"] == "refused"]
    # Warm, its keeper answered EPERM and told the runner which call; cold, the runner
    # answered it (the listener came from the sandbox's first process).
    assert f"{attempt}: EPERM" in outcome.stderr[0]
    assert [f["call"] for f in refused] == [call]
    assert refused[0]["message"] == f"system call {call} refused by the sandbox (answered EPERM)"
    assert [f for f in outcome.faults[0] if f["kind"] != "refused"] == []
    assert outcome.seat_status[0] == "faulted"
    assert bot_processes(str(bot)) == []


def test_sysinfo_tells_a_bot_its_sandbox_not_the_hosts_load(start, private_dir):
    # The host's load, process count and free memory would let two seats signal; C
    # libraries and runtimes ask at start, so the call is answered, not refused.
    bot = native_bot("syscalls.c", private_dir / "bot", "sysinfo")
    outcome = play(bot)
    memory = LIMITS.memory_mb << 20
    seen = f"sysinfo: 0 procs=1 loads=0,0,0 totalram={memory} freeram={memory} unit=1"
    assert seen in outcome.stderr[0]
    assert outcome.faults[0] == [] and outcome.seat_status[0] == "ok"


def test_two_seats_pass_no_bit_through_the_pipe_buffers_their_uids_hold(start, private_dir):
    # Root runs the suite: each sandbox runs as a host uid of its own, so the sender's uid
    # going over its pipe buffers leaves the receiver's pipes their full size.
    sender = native_bot("pipes.c", private_dir / "fill", "fill")
    receiver = native_bot("pipes.c", private_dir / "read", "read")
    seats = [
        SeatSpec("process", "fill", str(sender), limits=NEIGHBOUR_LIMITS),
        SeatSpec("process", "read", str(receiver), limits=NEIGHBOUR_LIMITS),
    ]
    uids = []
    with Match(TOY, seats, seed=3, limits=LIMITS) as match:
        match.start()
        for seat in match.seats:
            status = Path(f"/proc/{seat.process.bot_pid()}/status").read_text()
            uids.append(int(status.split("Uid:", 1)[1].split()[0]))
        while not match.over:
            match.play_one_decision()
        outcome = match.finish()
    assert set(uids) <= set(sandbox_uids())
    assert "uid over its limit: yes" in outcome.stderr[0]
    assert "read: pipe of 65536 bytes" in outcome.stderr[1]
    assert outcome.faults == [[], []]


def test_validation_passes_a_bot_that_makes_refused_calls_and_names_them(private_dir):
    bot = native_bot("syscalls.c", private_dir / "bot", "keyctl")
    with registered(TOY):
        report = validate_bot("toy", str(bot), limits=NEIGHBOUR_LIMITS)
    assert report.ok and report.refused == ["keyctl"]


@pytest.mark.skipif(cgroups.support().mode == "none", reason="needs a cgroup for sandboxes")
@pytest.mark.parametrize("how", ["shm", "children", "memfd"])
def test_memory_beyond_memory_mb_by_any_means_ends_in_a_memory_fault(how, start, private_dir):
    bot = native_bot("memory.c", private_dir / "bot", how)
    # files as large as the memfds (64 MB each, of 1.5 GB), and time to fill them
    limits = LIMITS.replace(bank_ms=10_000, startup_ms=30_000, file_size_mb=64)
    outcome = play(bot, limits=limits, survives=how == "children")
    memory = [f for f in outcome.faults[0] if f["kind"] == "memory"]
    assert len(memory) == 1
    assert memory[0]["message"].startswith(
        "out of memory: the sandbox's processes, shared memory, memfds and /tmp together "
        f"exceeded memory_mb ({LIMITS.memory_mb} MB)"
    )
    if how != "children":  # the bot itself held it all: the kernel killed the bot
        lines = outcome.stderr[0].splitlines()
        held = [int(line.split()[2]) for line in lines if "holding" in line]
        assert max(held, default=0) <= LIMITS.memory_mb  # of the 1.5 GB it asked for
        crash = [f for f in outcome.faults[0] if f["kind"] == "crash"]
        assert crash and "out of memory" in crash[0]["message"]
        assert outcome.seat_status[0] == "disqualified"
    # (the children: the kernel killed them one by one, while the bot played on)
    assert wait_until(lambda: sandbox_groups() == [], 10)  # the watchdog removes them


def sandbox_groups() -> list[str]:
    """Control groups of sandboxes this test process made, still there."""
    found = cgroups.support()
    return [
        str(path)
        for parent in set(found.parents.values())
        for path in Path(parent).glob(f"arena-sandbox-{os.getpid()}-*")
    ]


def test_a_bot_that_tries_to_outlive_its_runner_dies_when_workers_play_is_killed(
    start, private_dir
):
    marker = f"daemon_{os.getpid()}_{start}"
    bot = native_bot("daemon.c", private_dir / "bot", entry=marker)
    manifest = json.loads((bot / "bot.json").read_text())
    (bot / "bot.json").write_text(json.dumps(manifest | {"title": "citadels"}))
    runner = subprocess.Popen(
        [sys.executable, "-m", "workers.play", "--title", "citadels", "--bot", str(bot),
         "--vs", "random,random,random", "--decision-ms", "60000", "--no-progress"],
        cwd=REPO, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    # the bot and its daemon are up (the bot never answers), then the runner dies
    assert wait_until(lambda: len(bot_processes(f"/bot/{marker}")) >= 2, 30)
    # (the processes seen may be bubblewrap's own, before the runner let the bot go)
    assert watchdog_started(runner)
    watchdogs = [p for p in children_of(runner.pid) if b"watchdog" in cmdline(p)]
    assert len(watchdogs) == 1
    runner.kill()
    runner.wait()
    assert wait_until(lambda: bot_processes(f"/bot/{marker}") == [], 10)
    assert wait_until(lambda: not any(running(p) for p in watchdogs), 10)
    leftovers = [
        path
        for parent in set(cgroups.support().parents.values())
        for path in Path(parent).glob(f"arena-sandbox-{runner.pid}-*")
    ]
    assert leftovers == []


RUN_LABELLED_GAME = """
import sys
from workers.limits import Limits
from workers.match import SeatSpec, run_match
seats = [SeatSpec("process", "daemon", sys.argv[1])] + [SeatSpec("builtin", "random")] * 2
run_match("citadels", seats, seed=1, limits=Limits(decision_ms=60000), label="game-7")
"""


def test_a_runner_that_dies_mid_game_has_its_sandboxes_journaled_for_their_seats(
    private_dir, monkeypatch
):
    journal = private_dir / "journal"
    journal.mkdir()
    monkeypatch.setattr(watchdog, "JOURNAL", journal / "arena-watchdog")
    marker = f"daemon_{os.getpid()}_journal"
    bot = native_bot("daemon.c", private_dir / "bot", entry=marker)
    manifest = json.loads((bot / "bot.json").read_text())
    (bot / "bot.json").write_text(json.dumps(manifest | {"title": "citadels"}))
    runner = subprocess.Popen(
        [sys.executable, "-c", RUN_LABELLED_GAME, str(bot)],
        cwd=REPO,
        env=dict(os.environ, ARENA_WATCHDOG_JOURNAL=str(journal)),
    )
    assert wait_until(lambda: len(bot_processes(f"/bot/{marker}")) >= 2, 30)
    assert watchdog_started(runner)
    runner.kill()  # mid-game: the bot never answers
    runner.wait()
    assert wait_until(lambda: bot_processes(f"/bot/{marker}") == [], 10)
    assert wait_until(lambda: watchdog.collect_kills() == ["game-7/0"], 10)  # its seat
    assert watchdog.collect_kills() == []  # each kill is collected once


def test_the_attempts_to_outlive_the_game_are_refused_and_recorded(start, private_dir):
    bot = native_bot("daemon.c", private_dir / "bot")
    outcome = play_one_decision_bot(bot)
    assert "ptrace PID 1: EPERM" in outcome.stderr[0]
    assert "clear PDEATHSIG: EPERM" in outcome.stderr[0]
    calls = sorted(f["call"] for f in outcome.faults[0] if f["kind"] == "refused")
    assert calls == ["prctl", "ptrace"]
    assert bot_processes(str(bot)) == []
    assert wait_until(lambda: sandbox_groups() == [], 10)


def watchdog_started(runner) -> bool:
    """Whether the runner's watchdog is up within a minute. It starts with the first bot's
    sandbox (workers.sandbox); a CI run under heavy I/O wait did not see it within 10 s."""
    return wait_until(lambda: any(b"watchdog" in cmdline(p) for p in children_of(runner.pid)), 60)


def play_one_decision_bot(bot):
    seats = [SeatSpec("process", "hostile", str(bot)), SeatSpec("builtin", "random")]
    return run_match(TOY, seats, seed=3, limits=LIMITS.replace(max_faults=1))


def node_bot(directory, attempt: str):
    directory.mkdir(exist_ok=True)
    shutil.copy(HOSTILE / "snoop.js", directory / "bot.js")
    (directory / "bot.json").write_text(
        json.dumps({"title": "toy", "entry": "bot.js", "language": "node"})
    )
    (directory / "attempt.txt").write_text(attempt + "\n")
    directory.chmod(0o755)
    return directory


def play_two(bot):
    """Two seats of the same hostile bot: what each saw, and the game's outcome."""
    seats = [SeatSpec("process", "snoop", str(bot))] * 2
    # V8 reserves about 800 MB of address space
    outcome = run_match(TOY, seats, seed=3, limits=NEIGHBOUR_LIMITS.replace(memory_mb=1024))
    assert all(t["decisions"] > 0 for t in outcome.timings)
    return outcome


def test_a_node_bot_sees_no_host_wide_counter_no_host_path_and_no_other_seat(start, private_dir):
    outcome = play_two(node_bot(private_dir / "bot", "proc"))
    for log in outcome.stderr:
        # (the counters any process moves: forks, open files, locks, ptys, CPU time, stalls)
        hidden = ("stat", "uptime", "locks", "sys/fs/file-nr", "sys/kernel/pty/nr")
        for name in ("key-users", "loadavg", "meminfo", "kallsyms", *hidden):
            assert f"/proc/{name}: EACCES" in log
        assert "/proc/pressure: empty" in log
        pid1 = log.split("/proc/1/cmdline: ", 1)[1].splitlines()[0]
        assert str(private_dir) not in pid1  # warm: the holder (cat); cold: bubblewrap
        assert pid1.startswith(('"/usr/bin/cat', '"bwrap\\u0000--args'))
        assert "pids: 1,2\n" in log  # its sandbox's PID 1 and itself: no other seat's bot
    assert outcome.faults == [[], []]


def test_a_node_bot_finds_no_kernel_key_counter_to_share(start, private_dir):
    outcome = play_two(node_bot(private_dir / "bot", "keys"))
    for log in outcome.stderr:
        assert "key-users: EACCES" in log and "keys: EACCES" in log


def test_a_node_bots_netlink_socket_is_refused_and_recorded(start, private_dir):
    outcome = play_two(node_bot(private_dir / "bot", "netlink"))
    for seat in (0, 1):
        assert "interfaces: ERR_SYSTEM_ERROR" in outcome.stderr[seat]
        calls = [f["call"] for f in outcome.faults[seat] if f["kind"] == "refused"]
        assert calls == ["socket"]


def test_a_node_bot_finds_no_compiler_to_build_native_code_with(start, private_dir):
    outcome = play_two(node_bot(private_dir / "bot", "compiler"))
    for log in outcome.stderr:
        for compiler in ("cc", "gcc", "g++", "clang", "tcc"):
            assert f"compiler {compiler}: ENOENT" in log
