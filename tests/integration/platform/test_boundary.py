"""Imports run one way between the platform and the workers: the workers' Celery entry point
and tasks use the platform, the platform never imports them, and the match runner a bot
author runs locally needs neither Django nor the platform."""

import json
import os
import subprocess
import sys

from tests.support.platform import ROOT

EVERY_PLATFORM_MODULE = """
import importlib, json, pkgutil, sys
import django
django.setup()
import arena
for module in pkgutil.walk_packages(arena.__path__, "arena."):
    if ".migrations" not in module.name:
        importlib.import_module(module.name)
print(json.dumps(sorted(n for n in sys.modules if n.split(".")[0] == "workers")))
"""

THE_RUNNER = """
import json, sys
import workers.match, workers.play, workers.limits
print(json.dumps(sorted(n for n in sys.modules if n.split(".")[0] in ("django", "arena"))))
"""


def run(code: str, tmp_path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DJANGO_"))}
    env.update(
        ARENA_VAR_DIR=str(tmp_path),
        # arena.wsgi refuses to load with DEBUG off and no real key (arena.security)
        ARENA_SECRET_KEY="a-key-for-this-test-only-" + "x" * 40,
        DJANGO_SETTINGS_MODULE="arena.settings",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_no_platform_module_imports_the_workers_tasks_or_their_celery_entry_point(tmp_path):
    imported = run(EVERY_PLATFORM_MODULE, tmp_path)
    assert "arena.games.tasks" not in imported
    assert "workers.limits" in imported  # the one source of the bots' limits


def test_the_match_runner_runs_without_django_or_the_platform(tmp_path):
    assert run(THE_RUNNER, tmp_path) == []
