"""Two hosts on one machine: the platform's (PostgreSQL, Redis, the web service and the web
side's commands) and a worker's, each in a network namespace of its own, joined by a veth
pair with loopback-range addresses (127.100.0.1 and .2). The worker reaches PostgreSQL,
Redis and the web service only over that link, shares no folder with the platform side (its
own media, bot cache and var folders), fetches the uploaded bot's artifact from the web
service (/internal/artifacts/, signed) and plays a tournament to the end.

Both namespaces are made here, so their routes can be changed: each keeps only 127.0.0.1 on
its own loopback (not all of 127/8), lets the veth carry 127.x addresses (route_localnet),
and so sends 127.100.0.x across the link. The machine's own network is never touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from arena.processes import stop_process_group
from engine.core import signatures
from tests.support.platform import ROOT

from .conftest import operator_env

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

PLATFORM_ADDRESS, WORKER_ADDRESS = "127.100.0.1", "127.100.0.2"
PG_BIN = Path("/usr/lib/postgresql/15/bin")
PG_PORT = 55432

WEB_PORT = 58000
ARTIFACT_SECRET = "the-link-s-artifact-secret"

# Run on the platform's host with its settings: migrate, enter three built-in Citadels bots
# and an uploaded one (its artifact stored in the platform host's media folder only), start
# a round robin of four games.
START_TOURNAMENT = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
import engine
from arena.bots import services as bots
from arena.bots.models import Bot, BotVersion
from arena.tournaments import services
from tests.factories import RANDOM_BOT_SOURCE
owner = get_user_model().objects.create_user("organiser")
names = engine.bots("citadels", thinking=False)
versions = [
    bots.add_builtin_version(
        bot=Bot.objects.create(owner=owner, title="citadels", name=f"bot-{i}"),
        builtin_name=names[i % len(names)],
    )
    for i in range(3)
]
uploaded = bots.upload_version(
    bot=Bot.objects.create(owner=owner, title="citadels", name="uploaded"),
    filename="bot.py",
    data=RANDOM_BOT_SOURCE.encode(),
)
BotVersion.objects.filter(pk=uploaded.pk).update(status="ready")
uploaded.refresh_from_db()
versions.append(uploaded)
t = services.create_tournament(
    organiser=owner, name="Across the link", title="citadels", seats=4, entrants=versions
)
services.start_tournament(t.pk)
print(t.pk)
"""
REPORT = """
import django, json, sys
django.setup()
from arena.games.models import Game
from arena.ratings.models import Rating
from arena.tournaments.models import Tournament
t = Tournament.objects.get(pk=int(sys.argv[1]))
games = list(Game.objects.filter(tournament=t).values_list("status", "rated", "worker"))
print(json.dumps({
    "status": t.status,
    "games": games,
    "rated_seats": sum(r.games for r in Rating.objects.filter(tournament=t)),
}))
"""


def _run(*command: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(command)}: {done.stderr}")
    return done


def _in(namespace: str, *command: str, check: bool = True) -> subprocess.CompletedProcess:
    return _run("ip", "netns", "exec", namespace, *command, check=check)


def _make_host(namespace: str, device: str, address: str) -> None:
    _in(namespace, "ip", "link", "set", "lo", "up")
    # Only 127.0.0.1 stays on this host's loopback, so 127.100.0.x goes over the veth.
    _in(namespace, "ip", "route", "del", "local", "127.0.0.0/8", "dev", "lo", "table", "local")
    _in(namespace, "ip", "route", "replace", "local", "127.0.0.1", "dev", "lo", "table", "local")
    for name in ("all", device):
        _in(namespace, "sysctl", "-q", "-w", f"net.ipv4.conf.{name}.route_localnet=1")
    _in(namespace, "ip", "addr", "add", f"{address}/30", "dev", device)
    _in(namespace, "ip", "link", "set", device, "up")


@pytest.fixture
def two_hosts():
    if os.geteuid() != 0 or not shutil.which("ip"):
        pytest.fail("this test makes network namespaces: it needs root and iproute2")
    tag = f"{os.getpid() % 100000}"
    platform, worker = f"arena-p{tag}", f"arena-w{tag}"
    _run("ip", "netns", "add", platform)
    _run("ip", "netns", "add", worker)
    try:
        _run("ip", "link", "add", f"ap{tag}", "type", "veth", "peer", "name", f"aw{tag}")
        _run("ip", "link", "set", f"ap{tag}", "netns", platform)
        _run("ip", "link", "set", f"aw{tag}", "netns", worker)
        _make_host(platform, f"ap{tag}", PLATFORM_ADDRESS)
        _make_host(worker, f"aw{tag}", WORKER_ADDRESS)
        yield platform, worker
    finally:
        for namespace in (platform, worker):  # its end of the veth pair goes with it
            _run("ip", "netns", "del", namespace, check=False)


@contextlib.contextmanager
def _postgres(namespace: str):
    """A PostgreSQL of the platform host's own, listening on its loopback and the link."""
    data = Path(tempfile.mkdtemp(prefix="arena-netns-pg-"))
    shutil.chown(data, "postgres", "postgres")
    as_postgres = ["runuser", "-u", "postgres", "--"]
    _run(*as_postgres, str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
    with open(data / "pg_hba.conf", "a") as rules:  # the link's addresses, as the machine's
        rules.write("host all all 127.100.0.0/30 trust\n")
    options = f"-c listen_addresses=127.0.0.1,{PLATFORM_ADDRESS} -p {PG_PORT} -k {data}"
    pg_ctl = [*as_postgres, str(PG_BIN / "pg_ctl"), "-D", str(data)]
    _in(namespace, *pg_ctl, "-o", options, "-l", str(data / "log"), "-w", "start")
    try:
        yield
    finally:
        _in(namespace, *pg_ctl, "-m", "immediate", "stop", check=False)
        shutil.rmtree(data, ignore_errors=True)


@contextlib.contextmanager
def _started(namespace: str, command: list[str], env: dict, log: Path):
    with open(log, "wb") as out:
        process = subprocess.Popen(
            ["ip", "netns", "exec", namespace, *command], cwd=ROOT, env=env,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        yield process
    finally:
        stop_process_group(process, grace_seconds=20)


def _settings(folder: Path, address: str, **more: str) -> dict[str, str]:
    """One host's settings: the servers at ``address``, every folder its own."""
    folder.mkdir()
    return operator_env(
        ARENA_DATABASE_URL=f"postgres://postgres@{address}:{PG_PORT}/postgres",
        ARENA_BROKER_URL=f"redis://{address}:6379/0",
        ARENA_VAR_DIR=str(folder / "var"),
        ARENA_MEDIA_ROOT=str(folder / "media"),
        ARENA_BOT_CACHE=str(folder / "bot-cache"),
        ARENA_LOG_LEVEL="INFO",
        ARENA_ARTIFACT_SECRET=ARTIFACT_SECRET,
        DJANGO_SETTINGS_MODULE="arena.settings",
        **more,
    )


def test_a_worker_on_another_host_plays_a_tournament_to_the_end(two_hosts, tmp_path):
    platform, worker = two_hosts
    web_side = _settings(
        tmp_path / "platform",
        "127.0.0.1",
        ARENA_SECRET_KEY=secrets.token_urlsafe(50),
        ARENA_RECORD_SIGNING_KEY=signatures.new_private_key_text(),
        ARENA_ALLOWED_HOSTS=PLATFORM_ADDRESS,
    )
    worker_side = _settings(
        tmp_path / "worker",
        PLATFORM_ADDRESS,
        ARENA_ARTIFACT_URL=f"http://{PLATFORM_ADDRESS}:{WEB_PORT}",
    )
    redis = ["redis-server", "--bind", "127.0.0.1", PLATFORM_ADDRESS, "--port", "6379",
             "--save", "", "--appendonly", "no",
             # 127.100.0.2 is not 127.0.0.1: Redis would refuse it without a password.
             "--protected-mode", "no"]  # fmt: skip
    celery = [sys.executable, "-m", "celery", "-A", "arena", "worker",
              "--concurrency", "2", "--loglevel", "INFO", "--without-gossip",
              "--without-mingle", "--without-heartbeat", "--hostname", "far-worker@%h"]  # fmt: skip
    web = [str(Path(sys.executable).parent / "gunicorn"), "arena.wsgi",
           "--bind", f"{PLATFORM_ADDRESS}:{WEB_PORT}", "--workers", "1"]  # fmt: skip
    with (
        _postgres(platform),
        _started(platform, redis, web_side, tmp_path / "redis.log"),
        _started(platform, web, web_side, tmp_path / "web.log"),
    ):
        time.sleep(1)  # Redis listens within a moment; the tournament's sends need it
        started = _in(platform, "env", *_env_args(web_side), sys.executable, "-c", START_TOURNAMENT)
        tournament_id = started.stdout.split()[-1]
        with _started(worker, celery, worker_side, tmp_path / "worker.log") as far_worker:
            report = _wait_for_the_end(platform, web_side, tournament_id, far_worker, tmp_path)
    assert report["status"] == "finished", report
    assert [status for status, _, _ in report["games"]] == ["finished"] * 4
    assert all(rated for _, rated, _ in report["games"])
    assert report["rated_seats"] == 4 * 4  # every seat of every game rated, once
    # The uploaded bot came over the link, into the worker's cache; its media stayed empty.
    worker_files = tmp_path / "worker"
    assert len(list((worker_files / "bot-cache" / "artifacts").glob("*.py"))) == 1
    assert not (worker_files / "media").exists()


def _env_args(env: dict[str, str]) -> list[str]:
    """``env`` as ``NAME=value`` words: ``ip netns exec`` keeps the caller's environment, and
    these commands run through it with the host's own settings."""
    return ["-i", *(f"{k}={v}" for k, v in env.items())]


def _wait_for_the_end(platform, env, tournament_id, far_worker, tmp_path) -> dict:
    deadline = time.monotonic() + 300
    while True:
        assert far_worker.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
        shown = _in(platform, "env", *_env_args(env), sys.executable, "-c", REPORT, tournament_id)
        report = json.loads(shown.stdout.splitlines()[-1])
        if report["status"] == "finished":
            return report
        assert time.monotonic() < deadline, (report, (tmp_path / "worker.log").read_text()[-3000:])
        time.sleep(1)
