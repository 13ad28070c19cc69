"""A watchdog outside every sandbox that kills a runner's sandboxes when the runner dies.

bubblewrap's ``--die-with-parent`` is a parent-death signal set on processes inside the
sandbox, which the sandbox's own processes can reach (a bot that ptraced its PID 1 cleared
it, and its sandbox outlived a SIGKILLed runner). This process is started once per runner
process (the first time it starts a bot), as the runner's user, in a session of its own,
with nothing of a bot able to reach it. The runner tells it, on its stdin, which sandboxes
exist (``watch KEY PID PIDNS LABEL DIR...``: the sandbox's PID 1, that PID's namespace,
what it is (``game-12/0``: the game and seat, or ``-``), its control groups), which are gone (``forget KEY``) and which it should kill and remove now
(``retire KEY``: the game is over; removing a group waits until its processes are reaped,
which the runner need not wait for). When its stdin reaches end of file, the
runner is gone (however it died: the kernel closes the pipe), and the watchdog SIGKILLs every
sandbox still watched, through its control groups and its PID 1 (when PID 1 of a PID
namespace dies, the kernel kills every process inside), removes the groups, says so on its
stderr (the worker's log), writes the labels of the sandboxes it killed to a journal in
:data:`JOURNAL` (the platform records them for their seats: :func:`collect_kills`) and exits.

Run as a script by :func:`start`; stdlib only, so it starts with the bots' interpreter.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Where watchdogs write which sandboxes they killed, one file per dead runner.
JOURNAL = Path(os.environ.get("ARENA_WATCHDOG_JOURNAL") or tempfile.gettempdir()) / "arena-watchdog"
# What the sandboxes started in this context are (the match runner sets "game-12/0").
sandbox_label: contextvars.ContextVar[str] = contextvars.ContextVar("sandbox_label", default="")


def serve(commands) -> None:
    """Follow ``commands`` (lines) until they end, then kill what is still watched."""
    watched: dict[str, tuple[int, str, list[str]]] = {}
    labels: dict[str, str] = {}
    for line in commands:
        words = line.split()
        if len(words) >= 5 and words[0] == "watch":
            watched[words[1]] = (int(words[2]), words[3], words[5:])
            labels[words[1]] = words[4]
        elif len(words) == 2 and words[0] == "forget":
            watched.pop(words[1], None)
        elif len(words) == 2 and words[0] == "retire" and words[1] in watched:
            kill_sandbox(*watched.pop(words[1]))  # the game is over: clear it away now
    for pid, namespace, directories in watched.values():
        kill_sandbox(pid, namespace, directories)
    if watched:
        print(
            f"workers.watchdog: runner {os.getppid()} died; killed its "
            f"{len(watched)} sandbox(es): {', '.join(sorted(watched))}",
            file=sys.stderr,
            flush=True,
        )
        killed = [labels[key] for key in watched if labels[key] != "-"]
        if killed:
            _journal(killed)


def _journal(labels: list[str]) -> None:
    """Write ``labels`` where :func:`collect_kills` finds them (whole, or not at all)."""
    with contextlib.suppress(OSError):
        JOURNAL.mkdir(mode=0o700, exist_ok=True)
        name = f"{os.getppid()}-{time.time_ns()}"
        partial = JOURNAL / f".{name}"
        partial.write_text("".join(f"{label}\n" for label in labels))
        partial.rename(JOURNAL / name)


def collect_kills() -> list[str]:
    """The labels of sandboxes watchdogs on this machine killed because their runner died,
    each returned once (the journal's files are removed as they are read)."""
    found = []
    with contextlib.suppress(OSError):
        for path in JOURNAL.iterdir():
            if path.name.startswith("."):
                continue
            with contextlib.suppress(OSError):
                found += path.read_text().split()
                path.unlink()
    return found


def kill_sandbox(pid: int, namespace: str, directories: list[str]) -> None:
    """SIGKILL a sandbox through its groups and its PID 1, then remove the groups."""
    for directory in directories:
        kill_file = Path(directory) / "cgroup.kill"
        with contextlib.suppress(OSError):
            kill_file.write_text("1")
    with contextlib.suppress(OSError):
        if os.readlink(f"/proc/{pid}/ns/pid") == namespace:  # still that sandbox's PID 1
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    for directory in directories:
        path = Path(directory)
        while path.exists() and time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                for member in (path / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(member), signal.SIGKILL)
            with contextlib.suppress(OSError):
                path.rmdir()
            time.sleep(0.01)


class Watchdog:
    """The runner's end: a pipe to the watchdog process."""

    def __init__(self, python: str):
        self.owner = os.getpid()
        self.popen = subprocess.Popen(
            [python, "-E", "-s", "-S", "-B", __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,  # a Ctrl-C or SIGTERM meant for the runner's group
        )

    def watch(
        self, key: str, pid: int, namespace: str, directories: list[str], label: str = ""
    ) -> None:
        label = "".join(label.split()) or "-"
        self._send(f"watch {key} {pid} {namespace} {label} {' '.join(directories)}")

    def forget(self, key: str) -> None:
        self._send(f"forget {key}")

    def retire(self, key: str) -> None:
        self._send(f"retire {key}")

    def _send(self, line: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.popen.stdin.write(line.encode() + b"\n")
            self.popen.stdin.flush()

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.popen.poll() is None


_WATCHDOG: Watchdog | None = None


def watchdog(python: str) -> Watchdog:
    """This process's watchdog, started on first use (again if it died)."""
    global _WATCHDOG
    if _WATCHDOG is None or not _WATCHDOG.alive():
        _WATCHDOG = Watchdog(python)
    return _WATCHDOG


def watchdog_pid() -> int | None:
    return _WATCHDOG.popen.pid if _WATCHDOG is not None and _WATCHDOG.alive() else None


def _forget_after_fork() -> None:
    """A forked runner (a Celery pool process) starts its own watchdog; the copy of the
    parent's pipe is closed, so that the parent's watchdog still sees the parent die."""
    global _WATCHDOG
    if _WATCHDOG is not None:
        with contextlib.suppress(OSError, ValueError):
            _WATCHDOG.popen.stdin.close()
    _WATCHDOG = None


os.register_at_fork(after_in_child=_forget_after_fork)


if __name__ == "__main__":
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)  # only the end of its stdin ends it
    serve(line.decode(errors="replace") for line in sys.stdin.buffer)
