"""Start a bot as a sandboxed process: bubblewrap namespaces plus resource limits.

Backends:

``bwrap``
    bubblewrap with new user, pid, network, ipc, uts and cgroup namespaces (so no network at
    all, only its own processes visible, host-wide ``/proc`` counters hidden), read-only
    only the system files of the bot's runtime and a few files of ``/etc``, the bot's files
    read-only at ``/bot``, a private ``/tmp`` of ``tmp_mb``, an
    environment of PATH/HOME/TMPDIR/LANG only, no capabilities, no new user namespaces,
    ``--die-with-parent`` and ``--new-session``, and a default-deny seccomp filter for the
    bot's runtime (:mod:`workers.seccomp`), which also keeps every process of the bot in
    that session's group (so pausing the group pauses them all).
    Inside, ``prlimit`` sets the address-space, CPU-seconds, process-count, open-files,
    file-size and core limits before the bot starts; process counts are per user namespace,
    so a fork bomb only exhausts its own sandbox. When the runner is root, bubblewrap itself
    runs as an unprivileged uid of the sandbox's own (:func:`claim_uid`), since the kernel
    never applies the process limit to root, and a uid shared by two sandboxes would share
    every counter the kernel keeps per user (pipe buffers, for one).
``none``
    the same command and limits without any isolation, for trusted bots only; the match
    runner says so on stderr and in its result for every game that uses it.

A bot under bubblewrap starts *warm* by default: forked from this process's zygote into a
sandbox bubblewrap built for it (``workers/warm_start.py``, ``workers/zygote.py``), where a
Python bot runs in the zygote's interpreter and any other is exec'd; ``workers/launch.py``
chooses between a warm and a cold start.

Whatever the backend, :meth:`BotProcess.kill` leaves no process of the bot behind: with
bubblewrap, killing the sandbox's PID-1 makes the kernel kill everything in its namespace,
and the sandbox's control group (:mod:`workers.cgroups`, where the host has them) is killed
too. If the runner dies, its watchdog (:mod:`workers.watchdog`) kills its sandboxes.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import itertools
import json
import logging
import os
import platform
import select
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from pathlib import Path

from . import cgroups, seccomp, watchdog
from .limits import Limits
from .manifest import BotFiles

BACKENDS = ("bwrap", "none")
log = logging.getLogger("workers.sandbox")
SANDBOX_BOT_DIR = "/bot"
NONE_WARNING = (
    "WARNING: sandbox 'none' runs bot code WITHOUT isolation (no namespaces, full network "
    "and file access); use it only for trusted bots, never for uploads"
)

# Files of /etc a program may need (dynamic linker cache, time zone, alternatives symlinks);
# nothing else of the host's /etc (users, hosts, credentials) is visible.
_ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives")
# Host-wide counters in /proc: two sandboxes could signal through them (memory, load, the
# kernel's key quotas) or learn the host's layout (kernel symbols); each sandbox's /proc
# otherwise shows only its own processes.
_HOST_WIDE_PROC = (
    "key-users", "keys", "kallsyms", "loadavg", "meminfo", "vmstat", "zoneinfo",
    "buddyinfo", "pagetypeinfo", "slabinfo", "interrupts", "softirqs", "diskstats",
    "schedstat", "sched_debug", "timer_list", "swaps", "stat", "uptime", "locks",
    "sys/fs/file-nr", "sys/fs/inode-nr", "sys/fs/inode-state", "sys/fs/dentry-state",
    "sys/kernel/pty/nr",
)  # fmt: skip
# Directories of them: an empty read-only tmpfs in their place (CPU, memory and I/O stalls).
_HOST_WIDE_PROC_DIRECTORIES = ("pressure",)
# The warm start's holder: the sandbox's PID 1 when a bot is forked into it.
HOLDER_COMMAND = "/usr/bin/cat"
BOT_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
}


class SandboxError(RuntimeError):
    """The sandbox cannot start on this machine (bubblewrap missing, no interpreter, ...)."""


_FOUND_TOOLS: dict[str, str] = {}


def _which(tool: str) -> str | None:
    """``shutil.which``, remembered once found: every bot start needs the same few tools, and
    scanning PATH for them cost the runner several ms per game (a missing tool is looked up
    again, so installing it needs no restart)."""
    path = _FOUND_TOOLS.get(tool)
    if path is None:
        path = shutil.which(tool)
        if path:
            _FOUND_TOOLS[tool] = path
    return path


def bot_python() -> str:
    """The interpreter bots run with: ``ARENA_BOT_PYTHON`` or the system's ``/usr/bin/python3``."""
    configured = os.environ.get("ARENA_BOT_PYTHON")
    for candidate in (configured, "/usr/bin/python3"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    found = _which("python3")
    if found:
        return found
    raise SandboxError("no Python 3 for bots: install python3 or set ARENA_BOT_PYTHON")


def bot_node() -> str:
    """Node.js for ``language: node`` bots: Debian's ``/usr/bin/node`` (or one on PATH under
    ``/usr``, which the sandbox mounts); V8 needs ``memory_mb`` of about 800 or more."""
    for candidate in ("/usr/bin/node", _which("node")):
        if candidate and candidate.startswith("/usr/") and os.access(candidate, os.X_OK):
            return candidate
    raise SandboxError("no Node.js for bots: apt-get install nodejs (it must live under /usr)")


# The host uids a root runner's sandboxes run as, one per sandbox alive on the machine.
DEFAULT_UIDS = "800000-801023"


def sandbox_uids() -> range | None:
    """The uids bubblewrap runs as when the runner is root (``ARENA_SANDBOX_UIDS``,
    ``FIRST-LAST``, default :data:`DEFAULT_UIDS`; None for a runner that is not root)."""
    if os.geteuid() != 0:
        return None
    raw = os.environ.get("ARENA_SANDBOX_UIDS", DEFAULT_UIDS)
    first, _, last = raw.partition("-")
    try:
        uids = range(int(first), int(last or first) + 1)
    except ValueError:
        raise SandboxError(f"ARENA_SANDBOX_UIDS must be FIRST-LAST (uids), not {raw!r}") from None
    if not uids or uids.start <= 0:
        raise SandboxError("ARENA_SANDBOX_UIDS must name unprivileged uids, not root")
    return uids


def sandbox_uid() -> int | None:
    """The first of :func:`sandbox_uids` (what the start-up check runs bubblewrap as)."""
    uids = sandbox_uids()
    return None if uids is None else uids.start


class SandboxUid:
    """A uid held for one sandbox, by a lock no other runner on this machine can take
    while this one lives: no two sandboxes share a uid, so no counter the kernel keeps per
    user (pipe buffers, processes, watches) is shared between them."""

    def __init__(self, uid: int, lock: int):
        self.uid = uid
        self._lock: int | None = lock

    def release(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # (closing it drops the lock)
            self._lock = None


_UID_LOCKS = Path(tempfile.gettempdir()) / "arena-sandbox-uids"


def claim_uid() -> SandboxUid | None:
    """A uid of :func:`sandbox_uids` no live sandbox on this machine runs as (None when
    the runner is not root: its sandboxes run as its own uid, in their own namespaces)."""
    uids = sandbox_uids()
    if uids is None:
        return None
    _UID_LOCKS.mkdir(mode=0o700, exist_ok=True)
    start = (os.getpid() * 31 + next(_uid_turns)) % len(uids)  # spread the first tries
    for step in range(len(uids)):
        uid = uids[(start + step) % len(uids)]
        lock = os.open(_UID_LOCKS / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(lock)
            continue
        return SandboxUid(uid, lock)
    raise SandboxError(
        f"all {len(uids)} sandbox uids (ARENA_SANDBOX_UIDS={uids.start}-{uids[-1]}) are in "
        "use on this machine: give it a larger range"
    )


_uid_turns = itertools.count()


def check_backend(backend: str) -> None:
    """Raise SandboxError with what to do if ``backend`` cannot run here."""
    if backend not in BACKENDS:
        raise SandboxError(f"unknown sandbox {backend!r}; use one of {', '.join(BACKENDS)}")
    if _which("prlimit") is None:
        raise SandboxError("prlimit (util-linux) is needed to run bots; install util-linux")
    if backend == "bwrap" and seccomp.required_but_missing():
        raise SandboxError(
            "libseccomp is needed for the bots' system-call filter: apt-get install "
            "libseccomp2 and pip install 'pyseccomp>=0.1.2,<0.2'"
        )
    if backend == "bwrap" and _which("bwrap") is None:
        raise SandboxError(
            "bubblewrap is not installed: apt-get install bubblewrap (or `make system-deps`); "
            "--no-sandbox runs trusted bots without it"
        )
    if backend == "bwrap":
        problem = _bwrap_problem(sandbox_uid())
        if problem:
            raise SandboxError(
                f"bubblewrap cannot create its namespaces here ({problem}); allow unprivileged "
                "user namespaces (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor "
                "userns restriction on Ubuntu)"
            )


def confinement() -> tuple[str, str]:
    """(cgroup mode, how bots are confined here in words), which a worker reports at start."""
    found = cgroups.support()
    filters = (
        "a default-deny seccomp filter per runtime"
        if seccomp.available()
        else "no seccomp filter (it needs x86-64 and libseccomp)"
    )
    uids = sandbox_uids()
    owners = (
        f"a host uid per sandbox ({uids.start}-{uids[-1]})"
        if uids is not None
        else f"every sandbox as uid {os.geteuid()} (not root: they share per-user counters)"
    )
    return found.mode, f"bubblewrap namespaces, {filters}, {found.describe()}, {owners}, a watchdog"


@functools.cache
def _bwrap_problem(uid: int | None) -> str:
    """Empty if a minimal sandbox starts as ``uid``, else bubblewrap's complaint (cached)."""
    with spawning_as(uid):
        probe = subprocess.Popen(
            ["bwrap", "--unshare-all", "--unshare-user", *_system_arguments(), "--",
             "/usr/bin/true"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={"PATH": BOT_ENV["PATH"]},
        )  # fmt: skip
    _, stderr = probe.communicate()
    return "" if probe.returncode == 0 else (stderr.strip() or f"exit {probe.returncode}")


def bot_command(bot: BotFiles, limits: Limits, *, inside: bool) -> list[str]:
    """The bot's command line behind ``prlimit``; ``inside`` means paths as seen in the sandbox.

    (Setting the limits from the bot's own interpreter, via ``python -c``, was measured
    instead: it costs more CPU than exec'ing ``prlimit``.)
    """
    flags = [
        f"--{name}={soft}" if soft == hard else f"--{name}={soft}:{hard}"
        for name, (soft, hard) in resource_limits(limits).items()
    ]
    return [_which("prlimit") or "/usr/bin/prlimit", *flags, "--", *bot_argv(bot, inside=inside)]


def bot_argv(bot: BotFiles, *, inside: bool) -> list[str]:
    """The bot's own command line (its interpreter and entry, or the entry itself)."""
    entry = f"{SANDBOX_BOT_DIR}/{bot.entry}" if inside else str(bot.entry_path.resolve())
    if bot.language == "python":
        # -E -s -S: ignore PYTHON* variables and every site-packages (a bot gets the standard
        # library and its own files: the script's directory stays on sys.path); -B: /bot is
        # read-only, so no bytecode is written.
        return [bot_python(), "-E", "-s", "-S", "-B", entry]
    if bot.language == "node":
        return [bot_node(), entry]
    return [entry]


def resource_limits(limits: Limits) -> dict[str, tuple[int, int]]:
    """The rlimits of a bot's processes, (soft, hard) by ``prlimit``'s names; a warm start's
    bot sets the same itself."""
    mb = 1 << 20
    return {
        "as": (limits.memory_mb * mb,) * 2,
        "cpu": (limits.cpu_seconds, limits.cpu_seconds + 1),
        "nproc": (limits.processes,) * 2,
        "nofile": (limits.open_files,) * 2,
        "fsize": (limits.file_size_mb * mb,) * 2,
        "core": (0, 0),
    }


def bwrap_arguments(
    bot_dir: Path,
    bot: BotFiles,
    limits: Limits,
    status_fd: int,
    seccomp_fd: int | None = None,
    command: list[str] | None = None,
    confine: tuple[int, int, int] | None = None,
) -> list[str]:
    """The bubblewrap command line for ``bot`` whose files are at ``bot_dir``: the sandbox
    runs the bot's command, or ``command`` (the holder of a warm start). A cold start with
    a filter passes ``confine`` (the descriptors of :mod:`workers.zygote`'s code, the socket
    to the runner, the filter) instead of ``seccomp_fd``: its first process loads the
    filter itself, with a listener for the runner, then execs the bot's command."""
    args = [
        "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--uid", "65534", "--gid", "65534",
        "--hostname", "bot",
        "--die-with-parent",
        "--new-session",
        "--cap-drop", "ALL",
        *_system_arguments(seccomp.runtime_of(bot.language), helper=confine is not None),
    ]  # fmt: skip
    for name in _ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--proc", "/proc"]
    for name in _host_wide_proc():  # unreadable there (a device node where devices are off)
        args += ["--ro-bind", "/dev/null", f"/proc/{name}"]
    for name in _host_wide_proc_directories():
        args += ["--size", "4096", "--tmpfs", f"/proc/{name}", "--remount-ro", f"/proc/{name}"]
    args += [
        "--dev", "/dev",
        "--size", str(limits.tmp_mb << 20), "--tmpfs", "/tmp",
    ]  # fmt: skip
    if bot.single_file:
        args += ["--ro-bind", str(bot_dir / bot.entry), f"{SANDBOX_BOT_DIR}/{bot.entry}"]
    else:
        args += ["--ro-bind", str(bot_dir), SANDBOX_BOT_DIR]
    args += ["--chdir", SANDBOX_BOT_DIR, "--clearenv"]
    for key, value in BOT_ENV.items():
        args += ["--setenv", key, value]
    # Last: nothing but /tmp stays writable (/dev and the root are tmpfs mounts otherwise).
    args += ["--remount-ro", "/dev", "--remount-ro", "/", "--json-status-fd", str(status_fd)]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    if command:  # a warm start's holder is the sandbox's PID 1: the bot cannot kill it
        return args + ["--as-pid-1", "--", *command]
    if confine is not None:
        code, channel, program = confine
        helper = [bot_python(), "-E", "-s", "-S", "-B", f"/proc/self/fd/{code}", "confine"]
        args += ["--", *helper, str(channel), str(program)]
        return args + bot_command(bot, limits, inside=True)
    return args + ["--", *bot_command(bot, limits, inside=True)]


def _seccomp_fd(runtime: str) -> int | None:
    """A memfd holding ``runtime``'s filter (:mod:`workers.seccomp`), None off x86-64."""
    return seccomp.memfd(runtime) if seccomp.available() else None


def _confine_code_fd() -> int:
    """A memfd holding ``workers/zygote.py``, which a cold start's first process runs."""
    fd = os.memfd_create("arena-confine", os.MFD_CLOEXEC)
    os.write(fd, _confine_code())
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


@functools.cache
def _confine_code() -> bytes:
    return (Path(__file__).parent / "zygote.py").read_bytes()


def _arguments_fd(arguments: list[str]) -> int:
    fd = os.memfd_create("arena-bwrap-args", os.MFD_CLOEXEC)
    os.write(fd, b"".join(a.encode() + b"\0" for a in arguments))
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


@functools.cache
def _host_wide_proc_directories() -> list[str]:
    return [name for name in _HOST_WIDE_PROC_DIRECTORIES if os.path.isdir(f"/proc/{name}")]


@functools.cache
def _host_wide_proc() -> list[str]:
    """The files of :data:`_HOST_WIDE_PROC` this kernel has (bubblewrap cannot mount on a
    missing one) and lets other users read (a bind mount costs a sandbox about 0.25 ms of
    CPU: those only root reads, such as ``slabinfo``, need none)."""
    return [
        name
        for name in _HOST_WIDE_PROC
        if os.path.isfile(f"/proc/{name}") and os.stat(f"/proc/{name}").st_mode & stat.S_IROTH
    ]


def _system_arguments(runtime: str | None = None, helper: bool = False) -> list[str]:
    """What a bot of ``runtime`` sees of the system, read-only (all of /usr when None), and
    /bin, /lib... as the host has them (links into /usr, or binds); ``helper``: and the
    bots' Python, which a cold start's first process runs."""
    args = []
    for path in _runtime_files(runtime, helper):
        args += ["--ro-bind", path, path]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = Path("/") / name
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), f"/{name}"]
        elif host.is_dir() and runtime is None:
            args += ["--ro-bind", str(host), f"/{name}"]
    return args


@functools.cache
def _runtime_files(runtime: str | None, helper: bool = False) -> tuple[str, ...]:
    """The system files a runtime needs: its interpreter (and its standard library), the
    shared libraries, the time zones, and the sandbox's own tools (``prlimit``, the warm
    start's holder, the Python of a cold start's first process). Native bots also get
    /usr/bin, for scripts' tools; no runtime sees the compilers' parts (/usr/lib/gcc,
    /usr/libexec), headers, or other languages' libraries (Python's but for a cold start)."""
    if runtime is None:
        return ("/usr",)
    loader = Path(os.path.realpath("/lib64/ld-linux-x86-64.so.2"))
    libraries = loader.parent if loader.exists() else Path("/usr/lib")
    files = [str(libraries), "/usr/lib64", "/usr/share/zoneinfo", HOLDER_COMMAND]
    files.append(_which("prlimit") or "/usr/bin/prlimit")
    if runtime == "python" or helper:
        python = bot_python()
        real = Path(python).resolve()
        prefix = real.parents[1]  # /usr for /usr/bin/python3.11
        files += [python, str(real), str(prefix / "lib" / real.name)]
        if not real.is_relative_to("/usr"):
            files.append(str(prefix))  # ARENA_BOT_PYTHON's own installation
    if runtime == "node":
        node = bot_node()
        files += [node, str(Path(node).resolve())]
    elif runtime == "native":
        files += ["/usr/bin", "/usr/sbin"]
    return tuple(dict.fromkeys(f for f in files if os.path.exists(f)))


class BotProcess:
    """One running bot: its pipes, pausing, and a kill that leaves nothing behind."""

    def __init__(self, popen, backend, status_read_fd=None, staging_dir=None, cgroup=None):
        self.popen = popen
        self.backend = backend
        self.cgroup = cgroup  # a cgroups.SandboxCgroup, or None
        self._watch_key: str | None = None
        self.stdin = popen.stdin.fileno()
        self.stdout = popen.stdout.fileno()
        self.stderr = popen.stderr.fileno()
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self._status_fd = status_read_fd
        self._status_text = b""
        self._ns_init_pid: int | None = None
        self._pid_namespace: str | None = None
        self._group: int | None = popen.pid if backend == "none" else None
        self._staging_dir = staging_dir
        self.started = time.monotonic()
        self.killed = False
        # A warm start (see start_bot): the bot is not bubblewrap's command but a process
        # forked into its sandbox, with its own pipes and a report pipe from its keeper.
        self._bot_pid: int | None = None
        self._report_fd: int | None = None
        self._report_text = b""
        self.warm = False
        # A cold start's filter, whose refused calls this runner answers (seccomp.listen).
        self.listening: seccomp.Listening | None = None
        self.uid_claim: SandboxUid | None = None  # the host uid it runs as, held

    def attach(
        self, stdin: int, stdout: int, stderr: int, report: int, pid: int, reported: bytes = b""
    ) -> None:
        """Make the bot forked into this sandbox (warm start) the process this object runs;
        ``reported``: what its keeper wrote after the pid, already read."""
        self.warm = True
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        for fd in (stdin, stdout, stderr):
            os.set_blocking(fd, False)
        self._report_fd = report
        self._report_text = reported
        os.set_blocking(report, False)
        self._bot_pid = self._group = pid

    def _warm_status(self, wait_s: float = 0.0) -> int | None:
        """The bot's wait status once its keeper reported its end (warm start), else None."""
        deadline = time.monotonic() + wait_s
        while True:
            for line in self._report_text.splitlines():
                if line.startswith(b"exit "):
                    return int(line.split()[1])
            if self._report_fd is None:
                return None
            try:
                chunk = os.read(self._report_fd, 4096)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return None
                select.select([self._report_fd], [], [], max(0.0, deadline - time.monotonic()))
                continue
            if not chunk:  # the keeper is gone without a word: the bot went with it
                os.close(self._report_fd)
                self._report_fd = None
                self._report_text += b"exit 9\n"  # as if killed by SIGKILL
                continue
            self._report_text += chunk

    def refused_calls(self) -> list[str]:
        """The system calls the bot's filter refused, by name, first seen first: reported by
        a warm start's keeper, or answered by this runner for a cold start."""
        if self.listening is not None:
            return [seccomp.call_name(number) for number in self.listening.refused]
        self._warm_status()  # reads what has arrived
        return [
            seccomp.call_name(int(line.split()[1]))
            for line in self._report_text.splitlines()
            if line.startswith(b"refused ")
        ]

    # -- process ids -------------------------------------------------------------------

    def _read_status(self, wait_s: float = 0.0) -> None:
        """Read what bubblewrap reported on the status pipe (child pid, exit code)."""
        if self._status_fd is None:
            return
        deadline = time.monotonic() + wait_s
        while True:
            try:
                chunk = os.read(self._status_fd, 4096)
            except BlockingIOError:
                chunk = None
            if chunk:
                self._status_text += chunk
                continue
            if chunk == b"":
                os.close(self._status_fd)
                self._status_fd = None
                return
            if b"child-pid" in self._status_text or time.monotonic() >= deadline:
                return
            time.sleep(0.001)

    def _status(self) -> list[dict]:
        docs = []
        for line in self._status_text.splitlines():
            with contextlib.suppress(ValueError):
                docs.append(json.loads(line))
        return docs

    def ns_init_pid(self) -> int | None:
        """Host pid of the sandbox's PID 1 (bubblewrap's reaper), once known."""
        if self._ns_init_pid is None and self.backend == "bwrap":
            self._read_status(wait_s=1.0)
            for doc in self._status():
                if "child-pid" in doc:  # bubblewrap's first report; nothing else writes here
                    self._ns_init_pid = int(doc["child-pid"])
                    self._pid_namespace = f"pid:[{doc.get('pid-namespace')}]"
                    break
        return self._ns_init_pid

    def _sandbox_alive(self) -> bool:
        """True while the sandbox's PID 1 is still the process bubblewrap reported.

        Checked through its PID namespace, not its pid alone: a pid can be reused once the
        sandbox is gone, and bubblewrap's outer process may die before the sandbox does.
        """
        init = self.ns_init_pid()
        if init is None:
            return False
        try:
            return os.readlink(f"/proc/{init}/ns/pid") == self._pid_namespace
        except OSError:
            return False

    def group(self) -> int | None:
        """Process group of the bot, found once it runs.

        bubblewrap's ``--new-session`` makes its PID 1 the leader of a new session and
        group, which the bot and whatever it starts belong to.
        """
        if self._group is None:
            init = self.ns_init_pid()
            if init is not None:
                with contextlib.suppress(OSError):
                    self._group = os.getpgid(init)
        return self._group

    def bot_pid(self) -> int | None:
        """Host pid of the bot's own process (under bubblewrap: PID 1's child)."""
        if self.backend == "none":
            return self.popen.pid
        if self.warm:
            return self._bot_pid
        init = self.ns_init_pid()
        children = children_of(init) if init is not None else []
        return children[0] if children else None

    def confine(self, block_write: int | None) -> None:
        """Once bubblewrap reported the sandbox's PID 1: put it in the sandbox's group and
        let it go on (``block_write``, where it waits), and have the watchdog kill it if this
        runner dies."""
        try:
            init = self.ns_init_pid()
            if self.cgroup is not None and init is not None and block_write is not None:
                try:
                    self.cgroup.add(init)
                except OSError as err:  # gone already, or the group is: bounded per process
                    log.warning("sandbox.cgroup.failed %s", {"error": str(err)})
            if init is not None:  # watched before the bot runs: no moment it could outlive us
                self._watch_key = f"sandbox-{init}"
                groups = self.cgroup.directories if self.cgroup is not None else []
                watchdog.watchdog(bot_python()).watch(
                    self._watch_key, init, self._pid_namespace, groups, watchdog.sandbox_label.get()
                )
        finally:
            if block_write is not None:
                with contextlib.suppress(OSError):
                    os.write(block_write, b"1")
                os.close(block_write)

    def oom_kills(self) -> int:
        """Processes of the sandbox the kernel killed for want of memory (0 without a group)."""
        return self.cgroup.oom_kills() if self.cgroup is not None else 0

    # -- control -----------------------------------------------------------------------

    def pause(self) -> None:
        """Stop every process of the bot's group (it cannot think on others' time)."""
        self._signal_group(signal.SIGSTOP)

    def resume(self) -> None:
        self._signal_group(signal.SIGCONT)

    def _signal_group(self, sig) -> None:
        group = self.group()
        if group is not None and not self.killed and self.alive():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, sig)

    def alive(self) -> bool:
        if self.warm:
            return self._warm_status() is None and self.popen.poll() is None
        return self.popen.poll() is None

    def exit_description(self) -> str:
        """How the process ended, for fault messages ("exit status 1", "killed by SIGKILL")."""
        code = self.popen.poll()
        self._read_status()
        for doc in self._status():
            if "exit-code" in doc:
                code = doc["exit-code"]
        if self.warm:
            status = self._warm_status()
            code = None if status is None else os.waitstatus_to_exitcode(status)
        if code is None:
            return "still running"
        if code < 0 or code > 128:
            number = -code if code < 0 else code - 128
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(number).name}"
        return f"exit status {code}"

    def close_stdin(self) -> None:
        if self.warm:
            if self.stdin >= 0:
                with contextlib.suppress(OSError):
                    os.close(self.stdin)
                self.stdin = -1
            return
        with contextlib.suppress(OSError):
            self.popen.stdin.close()

    def kill(self) -> None:
        """Kill the bot and everything it started, and wait until it is all gone."""
        self.send_kill()
        self.popen.wait()
        self._read_status()
        if self.warm:
            self._warm_status(wait_s=5.0)  # its keeper reports once the kernel took the bot

    def send_kill(self) -> None:
        """SIGKILL the bot and everything it started, without waiting (see :meth:`kill`)."""
        if self.killed:
            return
        self.group()  # learn the group before anything dies, to signal it below
        self.killed = True
        # Without a sandbox the group is all there is (it outlives its leader while members
        # remain); with one, its PID 1 must still be ours before anything is signalled.
        alive = self.backend == "none" or self._sandbox_alive()
        if self._group is not None and alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._group, signal.SIGKILL)
        init = self.ns_init_pid()
        if init is not None and alive and self.backend == "bwrap":
            # The namespace's PID 1: when it dies the kernel kills every process inside,
            # daemons and sessions that left the bot's group included.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(init, signal.SIGKILL)
        if self.cgroup is not None:
            self.cgroup.kill()  # and the group: a warm start's keeper is outside PID 1's reach
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()

    def release(self) -> None:
        """Close the pipes and remove staged files (after :meth:`kill` and a last read)."""
        self.kill()
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            with contextlib.suppress(OSError):
                stream.close()
        if self.warm:
            self.close_stdin()
            for fd in (self.stdout, self.stderr, self._report_fd):
                if fd is not None and fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self.stdout = self.stderr = -1
            self._report_fd = None
        if self._status_fd is not None:
            os.close(self._status_fd)
            self._status_fd = None
        if self.listening is not None:
            seccomp.stop_listening(self.listening)  # (what it refused stays readable)
        if self._staging_dir is not None:
            shutil.rmtree(self._staging_dir, ignore_errors=True)
            self._staging_dir = None
        if self._watch_key is not None:
            keeper = watchdog.watchdog(bot_python())
            if self.cgroup is not None:  # its groups are removed off the game's path
                keeper.retire(self._watch_key)
            else:
                keeper.forget(self._watch_key)
            self._watch_key = None
        elif self.cgroup is not None:
            self.cgroup.remove()
        self.cgroup = None
        if self.uid_claim is not None:  # every process of it is gone: the uid is free
            self.uid_claim.release()
            self.uid_claim = None


def start_in_bwrap(bot, limits, uid, bot_dir, staging, command) -> BotProcess:
    """bubblewrap running the bot's command, or ``command`` (a warm start's holder), in a
    control group of its own where the host has them, watched by this runner's watchdog."""
    group = _new_cgroup(limits)
    status_read, status_write = os.pipe()
    os.set_blocking(status_read, False)
    # The holder of a warm start runs no bot code: the native filter (its bot loads its own).
    filter_fd = _seccomp_fd("native" if command else seccomp.runtime_of(bot.language))
    passed = (status_write,) if filter_fd is None else (status_write, filter_fd)
    listening = confine = None
    if filter_fd is not None and not command:
        # A cold start: its first process loads the filter and sends us its listener.
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        listening = seccomp.listen(ours, limits.memory_mb << 20)
        confine = (_confine_code_fd(), theirs.detach(), filter_fd)
        passed += confine[:2]
        filter_fd = None
    arguments = bwrap_arguments(bot_dir, bot, limits, status_write, filter_fd, command, confine)
    block_write = None
    if group is not None and not command:
        # The sandbox's PID 1 waits (before it starts anything) until it is in the group. (A
        # warm start's holder stays out: it runs nothing, and its keeper joins the group
        # before it forks the bot. Each move into a group can wait for an RCU grace period.)
        block_read, block_write = os.pipe()
        passed += (block_read,)
        arguments[1:1] = ["--block-fd", str(block_read)]
    # Read from a descriptor, not argv: the sandbox's PID 1 is bubblewrap, whose command line
    # the bot can read in /proc/1/cmdline, and it would name the bot's host path.
    # (bubblewrap takes options only from there: the command stays on its command line.)
    split = arguments.index("--")
    args_fd = _arguments_fd(arguments[1:split])
    passed += (args_fd,)
    try:
        with spawning_as(uid):
            popen = subprocess.Popen(
                ["bwrap", "--args", str(args_fd), *arguments[split:]],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=passed,
                env={"PATH": BOT_ENV["PATH"]},
                close_fds=True,
                # Its own session: a Ctrl-C meant for the runner must not kill bubblewrap's
                # outer process first (that orphans the sandbox); the runner cleans up instead.
                start_new_session=True,
            )
    except BaseException:
        os.close(status_read)
        if block_write is not None:
            os.close(block_write)
        if group is not None:
            group.remove()
        if listening is not None:
            seccomp.stop_listening(listening)
        raise
    finally:
        for fd in passed:
            os.close(fd)
    fcntl.fcntl(status_read, fcntl.F_SETFD, fcntl.FD_CLOEXEC)
    process = BotProcess(popen, "bwrap", status_read, staging, group)
    process.listening = listening
    try:
        process.confine(block_write)
    except BaseException:
        process.release()
        raise
    return process


def _new_cgroup(limits: Limits) -> cgroups.SandboxCgroup | None:
    """A control group for a new sandbox; None where there are none (the worker said so at
    start) or where making one failed (logged: the sandbox runs, bounded per process)."""
    try:
        return cgroups.create(limits.memory_mb, limits.processes)
    except OSError as err:
        log.warning("sandbox.cgroup.failed %s", {"error": str(err)})
        return None


@contextlib.contextmanager
def spawning_as(uid: int | None):
    """Start processes as ``uid`` (and gid ``uid``, no supplementary groups) in this block.

    A root runner switches the ids of the calling thread to the sandbox user, keeping root
    only as its saved id, so what it starts here (bubblewrap, the zygote) execs with every
    id set to ``uid`` and no capabilities; it switches back afterwards. Exec'ing ``setpriv``
    for this cost a process start per bot, and ``Popen(user=...)`` rules out vfork, which
    makes a large runner (a Celery worker) copy its page tables for every bot. Only this
    thread switches (the raw system calls, not the C library's, which switch every thread):
    any other thread of the process (a library's, or a writer thread should one be added)
    keeps its own ids meanwhile.
    """
    if uid is None:
        yield
        return
    uids, gids, groups = os.getresuid(), os.getresgid(), os.getgroups()
    _thread_ids.setgroups([])
    _thread_ids.setresgid(uid, uid, gids[2])
    _thread_ids.setresuid(uid, uid, uids[2])
    try:
        yield
    finally:
        _thread_ids.setresuid(*uids)  # first: it restores the capabilities the others need
        _thread_ids.setresgid(*gids)
        _thread_ids.setgroups(groups)


class _ThreadIds:
    """setresuid, setresgid and setgroups for the calling thread only (x86-64 system calls;
    elsewhere the C library's, which apply to every thread)."""

    _NUMBERS = {"setgroups": 116, "setresuid": 117, "setresgid": 119}

    def __init__(self):
        import ctypes

        self._ctypes = ctypes
        self._libc = ctypes.CDLL(None, use_errno=True) if platform.machine() == "x86_64" else None

    def _call(self, name: str, *args) -> None:
        if self._libc.syscall(self._NUMBERS[name], *args) != 0:
            number = self._ctypes.get_errno()
            raise OSError(number, f"{name}: {os.strerror(number)}")

    def setresuid(self, r: int, e: int, s: int) -> None:
        if self._libc is None:
            return os.setresuid(r, e, s)
        self._call("setresuid", r, e, s)

    def setresgid(self, r: int, e: int, s: int) -> None:
        if self._libc is None:
            return os.setresgid(r, e, s)
        self._call("setresgid", r, e, s)

    def setgroups(self, groups: list[int]) -> None:
        if self._libc is None:
            return os.setgroups(groups)
        array = (self._ctypes.c_uint32 * len(groups))(*groups)
        self._call("setgroups", len(groups), array)


_thread_ids = _ThreadIds()


def readable_by_others(bot: BotFiles, bot_dir: Path) -> bool:
    """True if an unprivileged user can reach and read every file of the bot."""
    path = bot_dir.resolve()
    for parent in [path, *path.parents]:
        if not os.stat(parent).st_mode & stat.S_IXOTH:
            return False
    paths = [bot_dir / bot.entry] if bot.single_file else [bot_dir, *bot_dir.rglob("*")]
    for item in paths:
        mode = os.lstat(item).st_mode
        if stat.S_ISLNK(mode):
            continue
        need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
        if mode & need != need:
            return False
    return True


def stage_bot_files(bot: BotFiles) -> str:
    """Copy the bot's files where the sandbox user can read them (links are kept as links)."""
    _remove_stale_staging()
    staging = tempfile.mkdtemp(prefix=f"{_STAGING_PREFIX}{os.getpid()}-")
    os.chmod(staging, 0o711)
    target = Path(staging) / "bot"
    if bot.single_file:
        target.mkdir()
        shutil.copyfile(bot.entry_path, target / bot.entry)
    else:
        shutil.copytree(bot.root, target, symlinks=True)
    for item in [target, *target.rglob("*")]:
        if item.is_symlink():
            continue
        executable = item.is_dir() or os.stat(item).st_mode & stat.S_IXUSR
        os.chmod(item, 0o755 if executable else 0o644)
    return staging


_STAGING_PREFIX = "arena-bot-"


def _remove_stale_staging() -> None:
    """Remove copies staged by runners that died without cleaning up (killed workers)."""
    root = Path(tempfile.gettempdir())
    for path in root.glob(f"{_STAGING_PREFIX}*-*"):
        owner = path.name[len(_STAGING_PREFIX) :].split("-", 1)[0]
        if owner.isdigit() and not os.path.exists(f"/proc/{owner}"):
            shutil.rmtree(path, ignore_errors=True)


def children_of(pid: int) -> list[int]:
    """Direct children of ``pid`` (from /proc, with a scan when the children file is absent)."""
    if not os.path.exists(f"/proc/{pid}"):
        return []
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        return [int(p) for p in text.split()]
    except FileNotFoundError:
        pass
    except OSError:
        return []
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry))
    return sorted(found)
