"""The container image (deploy/Dockerfile): linted, its init reaps what a worker leaves, and
its workers' seccomp profile lets bubblewrap build real sandboxes while refusing the rest.

No Docker engine runs here, so the image is not built: each property is shown on this machine
with the same parts (tini as the Dockerfile starts it, the profile applied as a runtime
applies it, the real sandbox and match runner).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.platform import ROOT

from .conftest import DEPLOY, VENV_BIN, operator_env

pytestmark = pytest.mark.sandbox

PROFILE = DEPLOY / "container" / "seccomp-bwrap.json"
APPLY_PROFILE = [sys.executable, str(Path(__file__).with_name("seccomp_exec.py"))]
TOOLS_PATH = f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}"

# Counts the zombies of its PID namespace after a worker's sandboxed games (run as PID 1 it
# is the one orphans are handed to, as a worker is in a container without an init).
ZOMBIE_COUNT = """
import os, subprocess, sys, time
subprocess.run([sys.executable, "-m", "workers.play", "--title", "citadels",
    "--bot", "starter-kits/citadels-python", "--vs", "random,random,random",
    "--games", "2", "--out", sys.argv[1]], check=True, stdout=subprocess.DEVNULL)
time.sleep(1)
states = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    states.append(stat[stat.rindex(")") + 2])
print(states.count("Z"))
"""


def dockerfile_entrypoint() -> list[str]:
    lines = (DEPLOY / "Dockerfile").read_text().splitlines()
    (entry,) = [line for line in lines if line.startswith("ENTRYPOINT ")]
    return json.loads(entry.removeprefix("ENTRYPOINT "))


def test_the_dockerfile_and_its_entrypoint_lint_clean():
    env = {**os.environ, "PATH": TOOLS_PATH}  # hadolint checks RUN lines with shellcheck
    for command in (
        ["hadolint", "deploy/Dockerfile"],
        ["shellcheck", "deploy/container/entrypoint.sh"],
    ):
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def test_everything_the_image_copies_is_in_the_checkout():
    for line in (DEPLOY / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            *sources, _ = line.split()[1:]
            for source in sources:
                assert (ROOT / source).exists(), source


def zombies_after_games(init: list[str], tmp_path) -> int:
    done = subprocess.run(
        ["unshare", "--pid", "--fork", "--mount-proc", *init,
         sys.executable, "-c", ZOMBIE_COUNT, str(tmp_path / "games")],
        cwd=ROOT, env=operator_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_the_images_init_reaps_every_sandbox_a_worker_leaves(tmp_path):
    init = dockerfile_entrypoint()[:-1]  # tini and its options, without the script
    assert shutil.which(init[0]), f"{init[0]} (Debian package tini) is not installed"
    assert zombies_after_games(init, tmp_path) == 0
    # The same games with the worker as PID 1 leave bubblewrap and its helpers as zombies.
    assert zombies_after_games([], tmp_path) > 0


def test_bots_play_in_their_sandbox_under_the_workers_seccomp_profile(tmp_path):
    played = subprocess.run(
        [*APPLY_PROFILE, str(PROFILE), sys.executable, "-m", "workers.play",
         "--title", "citadels", "--bot", "starter-kits/citadels-python",
         "--vs", "random,random,random", "--games", "2", "--out", str(tmp_path)],
        cwd=ROOT, env=operator_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    for number in (1, 2):
        game = json.loads((tmp_path / f"game-000{number}.json").read_text())
        assert game["faults"] == [[], [], [], []]


def test_the_profile_refuses_what_no_worker_needs():
    probe = "import ctypes; print(ctypes.CDLL(None).ptrace(0, 0, 0, 0))"  # PTRACE_TRACEME
    plain = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    under = subprocess.run(
        [*APPLY_PROFILE, str(PROFILE), sys.executable, "-c", probe], capture_output=True, text=True
    )
    assert (plain.stdout.strip(), under.stdout.strip()) == ("0", "-1")


def test_a_profile_that_refuses_namespaces_gets_a_sandbox_error_saying_so(tmp_path):
    # Docker's default profile refuses these to a process without CAP_SYS_ADMIN.
    refusing = tmp_path / "no-namespaces.json"
    rule = {"names": ["unshare", "mount", "pivot_root", "setns"], "action": "SCMP_ACT_ERRNO"}
    refusing.write_text(json.dumps({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [rule]}))
    check = "from workers.sandbox import check_backend; check_backend('bwrap')"
    done = subprocess.run(
        [*APPLY_PROFILE, str(refusing), sys.executable, "-c", check],
        cwd=ROOT, env=operator_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "bubblewrap cannot create its namespaces here" in done.stderr
