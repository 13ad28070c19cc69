"""The cgroup v2 code on a real cgroup2 filesystem, on any host that mounts one.

Where memory and pids are bound to cgroup v1 hierarchies (this project's CI host is hybrid:
the unified hierarchy there offers only ``hugetlb``), no cgroup2 can hold them: a controller
moves to v2 only once its v1 hierarchy has no groups and no mounts, in any mount namespace
(a private mount namespace that unmounts ``/sys/fs/cgroup/pids`` and mounts a new cgroup2
still sees ``hugetlb`` alone). So these tests run what v2 does without those controllers:
finding what is not delegated, making a sandbox's group, moving processes in, ``cgroup.kill``,
removing it, and the watchdog's kill; the limits (``memory.max``, ``pids.max``) run where a
host delegates them, in every other sandbox test.
"""

import subprocess
from pathlib import Path

import pytest

from workers import cgroups, watchdog

pytestmark = pytest.mark.sandbox


def unified() -> Path:
    directory = cgroups._directory(cgroups._own_groups(), cgroups._mounts(), "")
    if directory is None or not (directory / "cgroup.procs").exists():
        pytest.skip("no cgroup2 hierarchy mounted here")
    return directory


def v2_support() -> cgroups.Support:
    parent = str(unified())
    return cgroups.Support("v2", parent, dict.fromkeys(("memory", "pids", "cpu", "kill"), parent))


def test_the_v2_finder_names_the_controllers_not_delegated():
    directory = unified()
    found = cgroups._v2(cgroups._own_groups(), cgroups._mounts())
    if isinstance(found, cgroups.Support):
        assert found.mode == "v2"  # delegated: every sandbox test runs on v2 here
        return
    missing = {"memory", "pids"} - set((directory / "cgroup.controllers").read_text().split())
    assert found == f"v2: {', '.join(sorted(missing))} not delegated to {directory}"


def members(directory: Path) -> set[int]:
    return {int(pid) for pid in (directory / "cgroup.procs").read_text().split()}


def shell_in(group: cgroups.SandboxCgroup) -> tuple[subprocess.Popen, set[int]]:
    """A shell moved into ``group`` that then starts a child there; its processes."""
    shell = subprocess.Popen(
        ["sh", "-c", "read go; sleep 60 & echo started; wait"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    group.add(shell.pid)
    shell.stdin.write(b"go\n")  # its child is born in the group
    shell.stdin.flush()
    assert shell.stdout.readline() == b"started\n"
    return shell, members(Path(group.directories[0]))


def test_a_v2_group_takes_processes_and_cgroup_kill_ends_them_all():
    group = cgroups.SandboxCgroup(v2_support())
    directory = Path(group.directories[0])
    controllers = set((directory / "cgroup.controllers").read_text().split())
    try:
        if {"memory", "pids"} <= controllers:
            group.limit(64, 4)
            assert (directory / "memory.max").read_text().strip() == str(64 << 20)
        else:  # not delegated here: the limit says which file it could not write
            with pytest.raises(OSError, match="memory.max"):  # (cgroupfs makes no file)
                group.limit(64, 4)
        # Optional limits whose controller is not enabled are skipped, not a failure: a
        # missing control file answers a write EACCES (this failed every v2 group once).
        cgroups._write(directory / "cpu.max", "100000 100000", optional=True)
        cgroups._write(directory / "memory.swap.max", 0, optional=True)
        shell, inside = shell_in(group)
        assert shell.pid in inside and len(inside) == 2  # the shell and its child
        group.kill()  # through cgroup.kill, which no process inside can dodge
        assert shell.wait(10) == -9
        assert group.oom_kills() == 0
    finally:
        group.remove()
    assert not directory.exists()


def test_the_watchdog_kills_and_removes_a_v2_group():
    group = cgroups.SandboxCgroup(v2_support())
    directory = Path(group.directories[0])
    try:
        shell, _ = shell_in(group)
        # (no PID 1 of a sandbox to kill: a namespace no process has)
        watchdog.kill_sandbox(shell.pid, "pid:[0]", [str(directory)])
        assert shell.wait(10) == -9
        assert not directory.exists()
    finally:
        group.remove()
