"""Stopping the worker and server processes the demo and the tests start; the heap a web
process freezes before it serves."""

import contextlib
import gc
import os
import signal
import subprocess


def stop_process_group(process: subprocess.Popen, *, grace_seconds: float = 20) -> None:
    """SIGTERM (Celery's warm shutdown stops its own pool), then SIGKILL what is left of the
    process group. ``process`` must have been started with ``start_new_session=True``."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=grace_seconds)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.wait(timeout=10)


def celery_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (this process's environment by default) with the checkout and its
    ``platform/`` folder on PYTHONPATH, where ``celery -A arena`` finds the app."""
    env = dict(os.environ if env is None else env)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    paths = [root, os.path.join(root, "platform"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return env


def freeze_web_heap() -> None:
    """Load every view (the URLconf imports them), then move all that is loaded (Django, the
    engine, plotly, the views) out of the collector's reach, as the worker's pool processes
    do (``arena.worker``): a page that builds a few thousand objects (a ladder's 200
    entrants) triggers full collections, which walked that large, never-freed heap each
    time, 100-600 ms of the tournament page's time in ``bench/history.py``."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports the views
    gc.collect()
    gc.freeze()
