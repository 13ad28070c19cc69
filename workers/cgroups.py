"""One control group per sandbox: memory (everything the sandbox holds), processes, CPU, and
a kill of the whole group that no process inside can dodge.

What the host offers is found once per process (:func:`support`):

``v2``
    the unified hierarchy with the ``memory`` and ``pids`` controllers delegated to the
    worker's own cgroup (systemd ``Delegate=yes``, a container with its own cgroup
    namespace, Kubernetes' pod cgroup). If that cgroup holds processes, they move to a leaf
    ``runner`` first, since a cgroup with processes cannot hand controllers down. Each
    sandbox is a child with ``memory.max`` = ``memory_mb`` and no swap, ``pids.max`` and
    ``cpu.max`` of one CPU; ``cgroup.kill`` ends it.
``v1``
    the legacy hierarchies (``memory``, ``pids``, ``cpu``) under the worker's own groups
    there: ``memory.limit_in_bytes`` (and ``memsw``, so no swap), ``pids.max``,
    ``cpu.cfs_quota_us``. A mounted unified hierarchy, even one without controllers, adds
    its ``cgroup.kill``; without one the group's processes are killed one by one until none
    is left.
``none``
    nothing can be created (read-only ``/sys/fs/cgroup``, no delegation): the sandbox then
    bounds each process's address space only; the worker says so at start, in its log and
    on the staff queue page (``deploy/runbook.md`` says how to give it a cgroup).

The memory bound covers the sandbox's processes, System V shared memory, memfds and its
``/tmp`` (tmpfs pages are charged to the group that writes them). An out-of-memory kill is
counted by the kernel (``oom_kill``), which the match turns into a memory fault.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("workers.sandbox")

_PREFIX = "arena-sandbox-"
_CPU_PERIOD_US = 100_000
# bubblewrap's PID 1 (or a warm start's holder) and its keeper beside the bot's processes
_EXTRA_PROCESSES = 3
_counter = itertools.count(1)


@dataclass(frozen=True)
class Support:
    """What control groups this process can make for its sandboxes."""

    mode: str  # "v2" | "v1" | "none"
    detail: str  # where they are made, or why none can be
    # controller ("memory", "pids", "cpu", "kill") -> the directory sandboxes go under
    parents: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        if self.mode == "none":
            return f"no cgroup for sandboxes ({self.detail}): memory_mb bounds each process only"
        return f"cgroup {self.mode} per sandbox ({self.detail})"


@functools.cache
def support() -> Support:
    """This process's cgroup support, found once (``ARENA_SANDBOX_CGROUP=none`` turns it off)."""
    if os.environ.get("ARENA_SANDBOX_CGROUP", "").lower() == "none":
        return Support("none", "ARENA_SANDBOX_CGROUP=none")
    groups, mounts = _own_groups(), _mounts()
    reasons = []
    for finder in (_v2, _v1):
        try:
            found = finder(groups, mounts)
        except OSError as err:
            reasons.append(f"{finder.__name__[1:]}: {err.strerror or err}")
            continue
        if isinstance(found, Support):
            _sweep(found)
            return found
        reasons.append(found)
    return Support("none", "; ".join(reasons))


def _own_groups() -> dict[str, str]:
    """Controller (or "" for the unified hierarchy) -> this process's cgroup path."""
    groups = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            groups[name.removeprefix("name=")] = path
    return groups


def _mounts() -> dict[str, tuple[str, str]]:
    """Controller (or "" for cgroup2) -> (mount point, the hierarchy's root at that point)."""
    mounts = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        separator = fields.index("-")
        fstype, options = fields[separator + 1], fields[separator + 3].split(",")
        root, point = fields[3], fields[4]
        if fstype == "cgroup2":
            mounts.setdefault("", (point, root))
        elif fstype == "cgroup":
            for name in options:
                mounts.setdefault(name, (point, root))
    return mounts


def _directory(groups, mounts, controller: str) -> Path | None:
    if controller not in groups or controller not in mounts:
        return None
    point, root = mounts[controller]
    relative = os.path.relpath(groups[controller], root) if root != "/" else groups[controller]
    path = Path(point) / relative.lstrip("/").removeprefix(".")
    return path if path.is_dir() else None


def _v2(groups, mounts) -> Support | str:
    own = _directory(groups, mounts, "")
    if own is None:
        return "v2: no unified hierarchy"
    available = set((own / "cgroup.controllers").read_text().split())
    missing = {"memory", "pids"} - available
    if missing:
        return f"v2: {', '.join(sorted(missing))} not delegated to {own}"
    wanted = " ".join(f"+{c}" for c in ("memory", "pids", "cpu") if c in available)
    try:
        (own / "cgroup.subtree_control").write_text(wanted)
    except OSError as err:
        if err.errno != 16:  # EBUSY: this cgroup has processes; move them to a leaf first
            raise
        leaf = own / "runner"
        leaf.mkdir(exist_ok=True)
        for pid in (own / "cgroup.procs").read_text().split():
            with contextlib.suppress(ProcessLookupError, OSError):
                (leaf / "cgroup.procs").write_text(pid)
        (own / "cgroup.subtree_control").write_text(wanted)
    _probe(own)
    parents = {name: str(own) for name in ("memory", "pids", "cpu", "kill")}
    return Support("v2", str(own), parents)


def _v1(groups, mounts) -> Support | str:
    parents = {}
    for controller in ("memory", "pids", "cpu"):
        directory = _directory(groups, mounts, controller)
        if directory is None:
            return f"v1: no {controller} hierarchy"
        _probe(directory)
        parents[controller] = str(directory)
    unified = _directory(groups, mounts, "")
    if unified is not None:
        with contextlib.suppress(OSError):
            _probe(unified)
            parents["kill"] = str(unified)
    return Support("v1", parents["memory"], parents)


def _probe(directory: Path) -> None:
    """Raise OSError unless a child group can be made (and removed) in ``directory``."""
    probe = directory / f"{_PREFIX}probe-{os.getpid()}"
    probe.mkdir(exist_ok=True)
    probe.rmdir()


def _pid_namespace() -> int:
    """This process's PID namespace (its inode): a group's owner pid means something only
    to runners in the same one."""
    return os.stat("/proc/self/ns/pid").st_ino


def _sweep(found: Support) -> None:
    """Remove groups left by runners that died (their watchdog removes them first, but a
    kill of the whole machine's processes leaves them). Only groups made in this PID
    namespace: another's owners (a container's, a test's ``unshare --pid``) are not in this
    ``/proc``, alive or not."""
    here = str(_pid_namespace())
    for parent in set(found.parents.values()):
        for path in Path(parent).glob(f"{_PREFIX}*-*-*"):
            owner, namespace, _ = path.name[len(_PREFIX) :].split("-", 2)
            if namespace == here and owner.isdigit() and not os.path.exists(f"/proc/{owner}"):
                with contextlib.suppress(OSError):
                    _kill_members(path)
                    path.rmdir()


class SandboxCgroup:
    """The control group(s) of one sandbox: one directory per hierarchy."""

    def __init__(self, found: Support):
        """Make the group's directories (:meth:`limit` bounds it; :func:`create` does both)."""
        self.mode = found.mode
        name = f"{_PREFIX}{os.getpid()}-{_pid_namespace()}-{next(_counter)}"
        self.directories = sorted({str(Path(p) / name) for p in found.parents.values()})
        self._kill_file = None
        if "kill" in found.parents:
            self._kill_file = Path(found.parents["kill"]) / name / "cgroup.kill"
        self._memory = Path(found.parents["memory"]) / name
        self._pids = Path(found.parents["pids"]) / name
        self._cpu = Path(found.parents["cpu"]) / name
        try:
            for directory in self.directories:
                Path(directory).mkdir()
        except OSError:
            self.remove()
            raise

    def limit(self, memory_mb: int, processes: int) -> None:
        """Bound the group: ``memory_mb`` of memory (no swap), ``processes`` (and the
        sandbox's own), one CPU."""
        memory, processes = memory_mb << 20, processes + _EXTRA_PROCESSES
        if self.mode == "v2":
            _write(self._memory / "memory.max", memory)
            _write(self._memory / "memory.swap.max", 0, optional=True)
            _write(self._cpu / "cpu.max", f"{_CPU_PERIOD_US} {_CPU_PERIOD_US}", optional=True)
        else:
            _write(self._memory / "memory.limit_in_bytes", memory)
            _write(self._memory / "memory.memsw.limit_in_bytes", memory, optional=True)
            _write(self._cpu / "cpu.cfs_period_us", _CPU_PERIOD_US)
            _write(self._cpu / "cpu.cfs_quota_us", _CPU_PERIOD_US)
        _write(self._pids / "pids.max", processes)

    def add(self, pid: int) -> None:
        """Move ``pid`` into every hierarchy's group (its later children are born there)."""
        for directory in self.directories:
            _write(Path(directory) / "cgroup.procs", pid)

    def kill(self) -> None:
        """SIGKILL every process in the group."""
        if self._kill_file is not None and self._kill_file.exists():
            with contextlib.suppress(OSError):
                self._kill_file.write_text("1")
                return
        with contextlib.suppress(OSError):
            _kill_members(self._pids)

    def oom_kills(self) -> int:
        """How many processes the kernel killed for want of memory in this group."""
        events = "memory.events" if self.mode == "v2" else "memory.oom_control"
        with contextlib.suppress(OSError, ValueError):
            for line in (self._memory / events).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        return 0

    def remove(self, wait_s: float = 2.0) -> None:
        """Remove the groups once their processes are gone (killing stragglers)."""
        deadline = time.monotonic() + wait_s
        for directory in self.directories:
            path = Path(directory)
            while path.exists():
                try:
                    path.rmdir()
                except OSError:
                    if time.monotonic() >= deadline:
                        log.warning("sandbox.cgroup.left %s", {"path": directory})
                        break
                    _kill_members(path)
                    time.sleep(0.005)


def create(memory_mb: int, processes: int) -> SandboxCgroup | None:
    """A new group for one sandbox, or None where this host offers none."""
    found = support()
    if found.mode == "none":
        return None
    group = SandboxCgroup(found)
    try:
        group.limit(memory_mb, processes)
    except OSError:
        group.remove()
        raise
    return group


def _kill_members(path: Path) -> None:
    with contextlib.suppress(OSError):
        for pid in map(int, (path / "cgroup.procs").read_text().split()):
            if pid <= 0:  # a member outside this PID namespace reads as 0: kill(0) is our group
                continue
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def _write(path: Path, value, optional: bool = False) -> None:
    """Write ``value`` to a control file; an ``optional`` one may be absent (a controller
    not enabled, swap not accounted). (cgroupfs answers a write to a missing file EACCES,
    not ENOENT: it makes no files, so absence is asked first.)"""
    if optional and not path.exists():
        return
    path.write_text(str(value))
