"""Platform test set-up: real PostgreSQL, real Redis, real Celery worker processes.

Imported by tests/conftest.py. ``ARENA_DATABASE_URL`` defaults to the local PostgreSQL (pytest-
django creates ``test_arena`` / ``test_arena_gw<n>`` from it); each xdist process gets its own
Redis database (15, 14, ... or from ``ARENA_TEST_REDIS_DB`` down) so the workers of one process never take another's games.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from arena.processes import stop_process_group

ROOT = Path(__file__).resolve().parents[2]
TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/arena"
REDIS_URL = "redis://127.0.0.1:6379"


def _xdist_index() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


# ARENA_TEST_REDIS_DB moves the range down, so that two checkouts can run their suites at once.
REDIS_DB = int(os.environ.get("ARENA_TEST_REDIS_DB", "15")) - _xdist_index()
BROKER_URL = f"{REDIS_URL}/{REDIS_DB}"


def _configure() -> None:
    """Point Django at PostgreSQL and Redis before any connection is made."""
    from django.conf import settings
    from django.db import connections

    from arena.settings import broker_from_url, database_from_url

    os.environ.setdefault("ARENA_DATABASE_URL", TEST_DATABASE_URL)
    settings.DATABASES["default"].update(database_from_url(os.environ["ARENA_DATABASE_URL"]))
    # Tests sign people in by the dozen; the production hasher is slow on purpose.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A connection object made before this point still has the default backend.
    with contextlib.suppress(AttributeError):
        del connections["default"]
    (
        settings.CELERY_BROKER_URL,
        settings.CELERY_BROKER_TRANSPORT,
        settings.CELERY_BROKER_TRANSPORT_OPTIONS,
    ) = broker_from_url(BROKER_URL)


_configure()


def wait_for(predicate, *, timeout: float = 120, what: str = "the condition"):
    """Poll until ``predicate()`` is truthy (games are played by other processes)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what} after {timeout} s")
        time.sleep(0.2)


@pytest.fixture(scope="session")
def django_db_setup(request, django_db_setup, django_db_blocker):
    """pytest-django's test database; a kept one (``--reuse-db``, as ``make check`` runs:
    migrated, not made again) is emptied if an interrupted run left people in it (a test
    that commits, and so empties the database after it, was stopped half-way)."""
    if request.config.getvalue("reuse_db") and not request.config.getvalue("create_db"):
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        with django_db_blocker.unblock():
            if get_user_model().objects.exists():  # every test's rows start with a person
                call_command("flush", interactive=False, verbosity=0)
    yield


@pytest.fixture(scope="session")
def arena_files(tmp_path_factory):
    """Media and bot-cache folders shared by this test process and its workers."""
    root = tmp_path_factory.mktemp("arena-files")
    from django.conf import settings

    settings.MEDIA_ROOT = root / "media"
    settings.ARENA_BOT_CACHE = root / "bot-cache"
    return root


def _flush_redis() -> None:
    import redis

    redis.Redis.from_url(BROKER_URL).flushdb()


def test_database_url() -> str:
    """The URL of the test database pytest-django made (for processes started by a test)."""
    from django.db import connection

    url = urlsplit(os.environ["ARENA_DATABASE_URL"])
    return urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))


@pytest.fixture(scope="session")
def celery_workers(django_db_setup, django_db_blocker, arena_files):
    """A real Celery worker (prefork, two processes) on the test database and Redis.

    Killed (its whole process group) when the session ends, before the test database goes:
    nothing waits for its games then, so a warm shutdown (which ran out the 15 s grace at the
    end of every session) is not waited for.
    """
    _flush_redis()
    try:
        command = worker_command(f"test-{REDIS_DB}@%h", 2)
        with celery_process(arena_files, command, "worker", grace_seconds=2) as worker:
            yield worker
    finally:
        _flush_redis()


def worker_command(hostname: str, concurrency: int) -> list[str]:
    """A worker that also knows the toy title (tests.support.celery_worker)."""
    return [
        sys.executable, "-m", "tests.support.celery_worker", "worker",
        "--concurrency", str(concurrency), "--pool", "prefork", "--loglevel", "INFO",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
        "--hostname", hostname,
    ]  # fmt: skip


def beat_command(schedule: Path) -> list[str]:
    """The beat as shipped: it sends the sweep every ARENA_SWEEP_SECONDS."""
    return [
        sys.executable, "-m", "celery", "-A", "arena", "beat",
        "--schedule", str(schedule), "--loglevel", "INFO",
    ]  # fmt: skip


def process_env(arena_files: Path, broker_url: str, **more: str) -> dict[str, str]:
    """The environment of a worker or beat started by the tests: the test database, this
    broker, the shared media and bot-cache folders."""
    return {
        **os.environ,
        "ARENA_DATABASE_URL": test_database_url(),
        "ARENA_BROKER_URL": broker_url,
        "ARENA_MEDIA_ROOT": str(arena_files / "media"),
        "ARENA_BOT_CACHE": str(arena_files / "bot-cache"),
        "ARENA_LOG_LEVEL": "INFO",
        # Mail the workers send (a suspended bot's owner is told) lands where tests read it.
        "ARENA_EMAIL_BACKEND": "filebased",
        "ARENA_EMAIL_FILE_PATH": str(arena_files / "mail"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        **more,
    }


def start_worker(env: dict[str, str], log_path: Path, hostname: str) -> WorkerHandle:
    """A real Celery worker (prefork, two processes, knowing the toy title) with ``env``,
    once it said it is ready; stop it with ``stop_process_group(handle.process)``."""
    return _start(worker_command(f"{hostname}@%h", 2), env, log_path, b"ready.")


@contextlib.contextmanager
def celery_process(
    arena_files: Path,
    command: list[str],
    name: str,
    ready: bytes = b"ready.",
    grace_seconds: float = 15,
    **env: str,
):
    """Start ``command`` (a worker or the beat) in its own process group on the test
    database and Redis, with ``env`` added to its environment, logging to ``<name>.log``;
    wait for ``ready`` in its log, and on leaving stop the group (SIGTERM, then SIGKILL
    after ``grace_seconds``)."""
    with celery_processes(arena_files, [(command, name, ready)], grace_seconds, **env) as handles:
        yield handles[0]


@contextlib.contextmanager
def celery_processes(
    arena_files: Path,
    started: list[tuple[list[str], str, bytes]],
    grace_seconds: float = 15,
    **env: str,
):
    """:func:`celery_process` for several ``(command, name, ready)`` at once: every one is
    started before any is waited for, and on leaving every one is sent SIGTERM before any
    is waited for (a fleet of three started and stopped one after the other spent the sum
    of their start-ups and graces, some 5-10 s a test)."""
    environment = process_env(arena_files, BROKER_URL, **env)
    handles = []
    try:
        for command, name, _ in started:
            handles.append(_spawn(command, environment, arena_files / f"{name}.log"))
        for handle, (command, _, ready) in zip(handles, started, strict=True):
            _wait_ready(handle, command, ready)
        yield handles
    finally:
        _stop_all([handle.process for handle in handles], grace_seconds)


def _start(command: list[str], env: dict[str, str], log_path: Path, ready: bytes) -> WorkerHandle:
    handle = _spawn(command, env, log_path)
    try:
        _wait_ready(handle, command, ready)
    except BaseException:
        stop_process_group(handle.process, grace_seconds=15)
        raise
    return handle


def _spawn(command: list[str], env: dict[str, str], log_path: Path) -> WorkerHandle:
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    return WorkerHandle(process, log_path)


def _wait_ready(handle: WorkerHandle, command: list[str], ready: bytes) -> None:
    process, log_path = handle.process, handle.log_path
    wait_for(
        lambda: ready in log_path.read_bytes() or process.poll() is not None,
        timeout=60,
        what=f"{command[:5]} to start",
    )
    if process.poll() is not None:
        raise RuntimeError(f"{command[:5]} did not start:\n" + log_path.read_text())


def _stop_all(processes: list[subprocess.Popen], grace_seconds: float) -> None:
    """SIGTERM each (Celery's warm shutdown stops its own pool), then SIGKILL what is left
    of each group after one grace for all."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace_seconds
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
    for process in processes:
        stop_process_group(process, grace_seconds=0)


class WorkerHandle:
    def __init__(self, process: subprocess.Popen, log_path: Path):
        self.process = process
        self.log_path = log_path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.fixture
def toy_title():
    """The toy title registered in this process for one test (workers always know it)."""
    from tests.support.registry import registered
    from tests.support.toy_title import TOY

    with registered(TOY) as title:
        yield title


def sent_ids(callbacks, task: str = "workers.play_game") -> list[int]:
    """The ids the captured on-commit callbacks send ``task`` messages for, in order."""
    from arena.outbox.services import Messages

    return [pk for cb in callbacks if isinstance(cb, Messages) and cb.task == task for pk in cb.ids]


@pytest.fixture
def cache_on_redis(tmp_path, settings):
    """Django's cache on a redis-server of the test's own, as in production
    (``arena.cache.RedisWithFallback``); ``.stop()`` it to test an outage."""
    from tests.support.broker import RedisServer

    server = RedisServer(tmp_path)
    server.start()
    settings.CACHES = {
        "default": {"BACKEND": "arena.cache.RedisWithFallback", "LOCATION": server.url}
    }
    try:
        yield server
    finally:
        server.stop()
