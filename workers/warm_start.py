"""Warm start of Python bots: forked from a pre-started interpreter into a built sandbox.

A Python bot's interpreter costs more CPU to start than everything else of a bot's game
(about 15 ms with ``json`` imported, against 4 ms for bubblewrap's sandbox). A warm start
lets bubblewrap build the sandbox exactly as for a cold start (:mod:`workers.sandbox`), but
with ``cat`` as its PID 1 (the holder), and forks the bot into that sandbox from the zygote:
an interpreter started once per runner process, as the sandbox user, that has never run bot
code (``workers/zygote.py`` says how the fork enters the sandbox and sheds its privileges).
:func:`workers.launch.start_bot` decides when to use it and falls back to a cold start.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import logging
import os
import select
import socket
import subprocess
import time
from pathlib import Path

from . import seccomp
from .sandbox import (
    BOT_ENV,
    HOLDER_COMMAND,
    SANDBOX_BOT_DIR,
    BotProcess,
    SandboxError,
    bot_argv,
    bot_python,
    resource_limits,
    start_in_bwrap,
)

log = logging.getLogger("workers.sandbox")

# The sandbox's PID 1 (so no process inside can kill it): it echoes the line the runner sends
# ("the sandbox is built") and then waits on stdin, which the runner holds for the game.
HOLDER = [HOLDER_COMMAND]
_WARM_TIMEOUT_S = 10.0


class ZygoteError(RuntimeError):
    """The zygote could not start a bot (the runner falls back to a cold start)."""


def enabled() -> bool:
    """Warm starts are on unless ``ARENA_BOT_WARM_START=0``; they need x86-64 (the seccomp
    filter the forked bot installs is written for it)."""
    return os.environ.get("ARENA_BOT_WARM_START", "1") != "0" and seccomp.available()


class Zygote:
    """The runner's end of its zygote process: a control socket and the process itself."""

    def __init__(self):
        self.owner = os.getpid()
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            # As the runner's user: each keeper takes its sandbox's uid before anything else
            # (a root runner's sandboxes each have their own).
            self.popen = subprocess.Popen(
                [bot_python(), "-E", "-s", "-S", "-B", "-c", _zygote_code(),
                 str(theirs.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                env=dict(BOT_ENV),
                close_fds=True,
                start_new_session=True,
            )  # fmt: skip
        finally:
            theirs.close()
        self.control.settimeout(_WARM_TIMEOUT_S)
        try:
            hello = self.control.recv(16)
        except OSError as err:
            hello = repr(err).encode()
        if hello != b"ready":
            self.close()
            raise ZygoteError(f"the zygote did not start ({hello.decode(errors='replace')})")

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.popen.poll() is None

    def fork_bot(self, request: dict, fds: list[int]) -> None:
        try:
            socket.send_fds(self.control, [json.dumps(request).encode()], fds)
        except OSError as err:
            raise ZygoteError(f"the zygote is gone ({err})") from None

    def close(self) -> None:
        self.control.close()  # the zygote ends when its control socket closes
        if self.owner == os.getpid():
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=1)
            if self.popen.poll() is None:
                self.popen.kill()
                self.popen.wait()


_ZYGOTE: Zygote | bool | None = None  # False: warm starts failed in this process


def zygote_for() -> Zygote | None:
    """This process's zygote, started on first use (None after a failure: cold starts)."""
    global _ZYGOTE
    if _ZYGOTE is False:
        return None
    if _ZYGOTE is None or not _ZYGOTE.alive():
        try:
            _ZYGOTE = Zygote()
        except (ZygoteError, OSError, SandboxError) as err:
            drop(f"no warm start: {err}")
            return None
    return _ZYGOTE


def drop(reason: str) -> None:
    global _ZYGOTE
    log.warning("sandbox.zygote.off %s", {"reason": reason})
    if isinstance(_ZYGOTE, Zygote):
        _ZYGOTE.close()
    _ZYGOTE = False  # for the rest of this process: one failure is not worth retrying


def _forget_zygote_after_fork() -> None:
    """A forked runner (a Celery pool process) starts its own zygote; the parent's socket
    copy is closed so the parent's zygote still ends with the parent."""
    global _ZYGOTE
    if isinstance(_ZYGOTE, Zygote):
        with contextlib.suppress(OSError):
            _ZYGOTE.control.close()
    _ZYGOTE = None


os.register_at_fork(after_in_child=_forget_zygote_after_fork)


def start(zygote: Zygote, bot, limits, uid, bot_dir, staging) -> BotProcess:
    """The bot forked into a sandbox bubblewrap built for it; ZygoteError if that fails."""
    return complete(zygote, begin(bot, limits, uid, bot_dir), bot, limits, uid, staging)


def begin(bot, limits, uid, bot_dir) -> BotProcess:
    """Have bubblewrap build the bot's sandbox around the holder, without waiting for it:
    a game builds every seat's sandbox at once, then :func:`complete` starts each bot."""
    process = start_in_bwrap(bot, limits, uid, bot_dir, None, HOLDER)
    try:
        process.popen.stdin.write(b"\n")  # echoed once the holder runs
        process.popen.stdin.flush()
    except BaseException:
        process.release()
        raise
    return process


def complete(zygote: Zygote, process: BotProcess, bot, limits, uid, staging) -> BotProcess:
    """Once :func:`begin`'s sandbox is built, the bot forked into it; ZygoteError (the
    sandbox released) if that fails."""
    # The staged copy (if any) is the process's to remove only once the warm start worked:
    # a cold start falls back on it.
    fds: list[int] = []
    try:
        _wait_for_holder(process)
        holder = process.ns_init_pid()
        if holder is None:
            raise ZygoteError("the sandbox's holder is not running")
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        report_r, report_w = os.pipe()
        theirs = [stdin_r, stdout_w, stderr_w, report_w]
        fds = [stdin_w, stdout_r, stderr_r, report_r]
        if process.cgroup is not None:  # the keeper waits to be moved into the group
            hold_r, hold_w = os.pipe()
            theirs.append(hold_r)
            fds.append(hold_w)
        for fd in fds:
            fcntl.fcntl(fd, fcntl.F_SETFD, fcntl.FD_CLOEXEC)
        request = {
            "uid": uid,  # the keeper's, before it joins the sandbox bubblewrap built as uid
            "holder": holder,
            "mnt": os.readlink(f"/proc/{holder}/ns/mnt"),
            "entry": f"{SANDBOX_BOT_DIR}/{bot.entry}",
            "cwd": SANDBOX_BOT_DIR,
            "env": dict(BOT_ENV, PWD=SANDBOX_BOT_DIR),  # as bubblewrap's --chdir sets it
            "rlimits": resource_limits(limits),
            "seccomp": seccomp.program(seccomp.runtime_of(bot.language)).hex(),
            # Python bots run in the zygote's interpreter; any other is exec'd once confined.
            "exec": None if bot.language == "python" else bot_argv(bot, inside=True),
        }
        try:
            zygote.fork_bot(request, theirs)
        finally:
            for fd in theirs:
                os.close(fd)
        rest = b""
        if process.cgroup is not None:
            keeper, rest = _read_report(report_r, b"keeper ", rest)
            try:
                process.cgroup.add(keeper)
            finally:
                fds.remove(hold_w)
                os.write(hold_w, b"1")  # go on (outside the group if that failed)
                os.close(hold_w)
        pid, rest = _read_report(report_r, b"pid ", rest)
        process.attach(stdin_w, stdout_r, stderr_r, report_r, pid, rest)
        process._staging_dir = staging
        return process
    except BaseException:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        process.release()
        raise


def _wait_for_holder(process: BotProcess) -> None:
    """Wait until the holder echoes the line :func:`begin` sent: bubblewrap has built the
    sandbox and exec'd it."""
    os.set_blocking(process.popen.stdout.fileno(), True)
    ready, _, _ = select.select([process.popen.stdout], [], [], _WARM_TIMEOUT_S)
    echo = os.read(process.popen.stdout.fileno(), 1) if ready else b""
    if echo != b"\n":
        complaint = b""
        if process.popen.poll() is not None:
            complaint = process.popen.stderr.read()
        raise ZygoteError(
            "bubblewrap did not start the holder: "
            + (complaint.decode(errors="replace").strip() or "no answer")
        )


def _read_report(report: int, expected: bytes, text: bytes) -> tuple[int, bytes]:
    """The number on the keeper's next report line, which must start with ``expected``
    (``b"pid "``); ``text`` is what was read before. Returns it and what follows it."""
    deadline = time.monotonic() + _WARM_TIMEOUT_S
    while b"\n" not in text:
        ready, _, _ = select.select([report], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(report, 4096) if ready else b""
        if not chunk:
            raise ZygoteError(f"the zygote did not report the bot's {expected.decode().strip()}")
        text += chunk
    line, _, rest = text.partition(b"\n")
    if not line.startswith(expected):
        raise ZygoteError(line.decode(errors="replace"))
    return int(line.split()[1]), rest


def zygote_pid() -> int | None:
    """Pid of this process's zygote, if one runs (benchmarks pin it with the runner)."""
    return _ZYGOTE.popen.pid if isinstance(_ZYGOTE, Zygote) and _ZYGOTE.alive() else None


def zygote_cpu_seconds() -> float:
    """CPU time of this process's zygote and of every keeper and bot it has reaped (0 with no
    zygote): warm bots are not this process's children, so ``RUSAGE_CHILDREN`` misses them."""
    if not isinstance(_ZYGOTE, Zygote) or not _ZYGOTE.alive():
        return 0.0
    try:
        with open(f"/proc/{_ZYGOTE.popen.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


@functools.cache
def _zygote_code() -> str:
    return (Path(__file__).parent / "zygote.py").read_text()
