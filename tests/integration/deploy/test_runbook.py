"""deploy/runbook.md's commands, run as written on one machine in the production settings of
deploy/env.example (SQLite and the filesystem broker standing in for the servers, no
PYTHONPATH: an operator has none): the web, worker and beat commands of its table of parts,
and each command block, the restore's excepted (it names a database and a dated dump of
the operator's; tests/integration/deploy/test_backup.py runs the same commands)."""

from __future__ import annotations

import os
import re
import subprocess

import psycopg
import pytest

from arena.processes import stop_process_group
from tests.support.platform import ROOT, wait_for

from .conftest import DEPLOY, fetch, free_port, production_env_in

RUNBOOK = (DEPLOY / "runbook.md").read_text()
SERVER = "postgresql://postgres@127.0.0.1:5432"


def parts() -> dict[str, str]:
    """The command of each process in the table of parts: ``{"web": "...", ...}``."""
    table = RUNBOOK.split("## Parts")[1].split("\n## ")[0]
    rows = re.findall(r"^\| (web|worker|beat)\b[^|]*\| `([^`]+)`", table, re.M)
    return dict(rows)


def blocks() -> list[list[str]]:
    """Each fenced block's commands (comments after ``#`` dropped)."""
    found = re.findall(r"^```\n(.*?)^```", RUNBOOK, re.M | re.S)
    return [
        [line.split("   #")[0].strip() for line in block.splitlines() if line.strip()]
        for block in found
    ]


@pytest.fixture
def env(tmp_path):
    values = production_env_in(tmp_path)
    values.pop("PYTHONPATH")
    values["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{values['PATH']}"
    values["ARENA_WEB_BIND"] = f"127.0.0.1:{free_port()}"
    return values


def run(command: str, env: dict[str, str], cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, input="yes\n", capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip


def test_the_runbook_names_the_three_processes_and_its_blocks():
    assert set(parts()) == {"web", "worker", "beat"}
    assert [block[0].split()[0] for block in blocks()] == [
        ".venv/bin/python",
        "pg_dump",
        "createdb",
    ]


@pytest.mark.slow  # migrates a new database in a process of its own
def test_the_first_start_block_runs_as_written(env):
    first_start = blocks()[0]
    for command in first_start:
        done = run(command, env)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])


@pytest.mark.slow  # starts the three processes
def test_the_web_worker_and_beat_start_as_written(env, tmp_path):
    assert run(blocks()[0][0], env).returncode == 0  # migrate
    started = {}
    try:
        for name, command in parts().items():
            log = open(tmp_path / f"{name}.log", "wb")  # noqa: SIM115 (the process keeps it)
            started[name] = subprocess.Popen(
                # <cores>: the one value an operator fills in; `env` runs a command that
                # begins with a variable assignment, as the worker's does
                ["bash", "-c", f"exec env {command.replace('<cores>', '1')}"], cwd=ROOT, env=env, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        # At the shipped log level (WARNING) each prints only its banner as it starts.
        for name, ready in [("worker", b"[queues]"), ("beat", b"beat v")]:
            wait_for(
                lambda n=name, r=ready: (
                    r in (tmp_path / f"{n}.log").read_bytes() or started[n].poll() is not None
                ),
                timeout=90,
                what=f"the {name} to start",
            )
            assert started[name].poll() is None, (tmp_path / f"{name}.log").read_text()
        url = f"http://{env['ARENA_WEB_BIND']}/api/v1/titles/"
        headers = {"X-Forwarded-Proto": "https"}  # as the TLS proxy says (env.example)

        def answered():
            assert started["web"].poll() is None, (tmp_path / "web.log").read_text()
            try:
                return fetch(url, headers)
            except OSError:
                return None

        status, _, body = wait_for(answered, timeout=90, what="the web to answer")
        assert status == 200 and b"citadels" in body
        for name in ("worker", "beat"):
            assert started[name].poll() is None, (tmp_path / f"{name}.log").read_text()
    finally:
        for process in started.values():
            stop_process_group(process, grace_seconds=15)


@pytest.fixture
def database():
    name = f"arena_runbook_{os.getpid()}"
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
        yield f"{SERVER}/{name}"
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_the_backup_block_runs_as_written(env, database, tmp_path):
    media = tmp_path / "media"
    media.mkdir(exist_ok=True)
    (media / "artifact").write_bytes(b"kept")
    env = {**env, "ARENA_DATABASE_URL": database, "ARENA_MEDIA_ROOT": str(media)}
    for command in blocks()[1]:
        done = run(command, env, cwd=tmp_path)
        assert done.returncode == 0, (command, done.stderr[-2000:])
    assert len(list(tmp_path.glob("arena-*.dump"))) == 1
    assert len(list(tmp_path.glob("arena-media-*.tar.gz"))) == 1
