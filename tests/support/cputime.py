"""CPU seconds of each test, for finding what the suite spends its machine on (wall times
move with whatever else runs; CPU moves much less).

``ARENA_TEST_CPU=folder pytest ...`` writes ``folder/cpu-<worker>.tsv``: one line per test
phase (setup, call, teardown) with the CPU of this test process and of its children that
ended in that phase (a process a test started and waited for: a worker, a server, a
compiler, a sandboxed bot), and the wall seconds. A session fixture's processes count where
they end (its teardown: the last test of the worker). PostgreSQL's and Redis's own CPU is
not counted. ``python -m tests.support.cputime folder`` sums them by test and by file.
"""

from __future__ import annotations

import collections
import os
import resource
import sys
import time
from pathlib import Path

import pytest

FOLDER = os.environ.get("ARENA_TEST_CPU")


def _cpu() -> tuple[float, float]:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime, children.ru_utime + children.ru_stime


class Recorder:
    def __init__(self, folder: str):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(folder).mkdir(parents=True, exist_ok=True)
        self.out = open(Path(folder) / f"cpu-{worker}.tsv", "a")  # noqa: SIM115 (the session's)

    def _timed(self, item, phase: str):
        own, children, wall = *_cpu(), time.monotonic()
        yield
        own2, children2 = _cpu()
        row = [item.nodeid, phase, own2 - own, children2 - children, time.monotonic() - wall]
        self.out.write("\t".join(f"{v:.3f}" if isinstance(v, float) else v for v in row) + "\n")
        self.out.flush()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        yield from self._timed(item, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        yield from self._timed(item, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item):
        yield from self._timed(item, "teardown")


def pytest_configure(config):
    if FOLDER:
        config.pluginmanager.register(Recorder(FOLDER), "arena-cputime")


def main(folder: str, top: int = 40) -> None:
    tests, files = collections.Counter(), collections.Counter()
    walls = collections.Counter()
    for path in Path(folder).glob("cpu-*.tsv"):
        for line in path.read_text().splitlines():
            nodeid, _, own, children, wall = line.split("\t")
            cpu = float(own) + float(children)
            tests[nodeid] += cpu
            files[nodeid.split("::")[0]] += cpu
            walls[nodeid] += float(wall)
    print(f"CPU {sum(tests.values()):.1f} s, wall {sum(walls.values()):.1f} s (summed)")
    print("by file:")
    for name, cpu in files.most_common(top):
        print(f"{cpu:8.1f}  {name}")
    print("by test (CPU, wall):")
    for name, cpu in tests.most_common(top):
        print(f"{cpu:8.1f} {walls[name]:8.1f}  {name}")


if __name__ == "__main__":
    main(*sys.argv[1:2], *[int(a) for a in sys.argv[2:3]])
