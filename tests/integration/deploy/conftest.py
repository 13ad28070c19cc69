"""Helpers for the deployment tests: the production environment of deploy/env.example, and
processes started the way an operator starts them (no ARENA_* variable leaks in from the
test run)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from engine.core import signatures
from tests.support.platform import ROOT

DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent


def read_env_file(path: Path) -> dict[str, str]:
    """``NAME=value  # comment`` lines, as compose and deploy/env.example write them."""
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, value = line.partition("=")
        values[name.strip()] = value.split(" #", 1)[0].strip()
    return values


def operator_env(**overrides: str) -> dict[str, str]:
    """This machine's environment without the test run's ARENA_* and Django variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DJANGO_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "platform")])
    return {**env, **overrides}


def production_env_in(folder: Path) -> dict[str, str]:
    """deploy/env.example with a fresh secret key and record signing key, and local paths
    and servers in ``folder``."""
    values = read_env_file(DEPLOY / "env.example")
    values.update(
        ARENA_SECRET_KEY=secrets.token_urlsafe(50),
        ARENA_RECORD_SIGNING_KEY=signatures.new_private_key_text(),
        ARENA_ARTIFACT_SECRET=secrets.token_urlsafe(32),
        ARENA_DATABASE_URL=f"sqlite:///{folder / 'arena.sqlite3'}",
        ARENA_BROKER_URL="filesystem://",
        ARENA_VAR_DIR=str(folder / "var"),
        ARENA_STATIC_ROOT=str(folder / "static"),
        ARENA_MEDIA_ROOT=str(folder / "media"),
        ARENA_BOT_CACHE=str(folder / "bot-cache"),
        ARENA_ALLOWED_HOSTS="arena.example.org,127.0.0.1",
    )
    return operator_env(**values)


@pytest.fixture
def production_env(tmp_path) -> dict[str, str]:
    return production_env_in(tmp_path)


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, *, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited before it listened"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"nothing listened on port {port} after {timeout} s")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, headers: dict[str, str] | None = None):
    """(status, headers, body) of one GET, redirects not followed."""
    opener = urllib.request.build_opener(_NoRedirect)
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with opener.open(request, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
