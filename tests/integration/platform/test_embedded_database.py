"""The worker's raw SQL on the embedded default database (SQLite), which ``make demo`` uses."""

import os
import subprocess
import sys

import pytest

from tests.support.platform import ROOT

pytestmark = pytest.mark.slow


def test_games_are_claimed_stored_rated_and_finished_on_sqlite(tmp_path):
    env = {
        **os.environ,
        "ARENA_DATABASE_URL": f"sqlite:///{tmp_path / 'arena.sqlite3'}",
        "ARENA_MEDIA_ROOT": str(tmp_path / "media"),
        "ARENA_LOG_LEVEL": "WARNING",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
    }
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.embedded_store"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")
