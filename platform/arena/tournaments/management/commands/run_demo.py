"""Run the demo: a Celery worker (with the sweeper's beat), the demo tournaments, the web site.

Everything started here is stopped here: Ctrl-C (or SIGTERM) ends the worker and the web
server by their process ids before the command exits.
"""

import errno
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from arena.processes import celery_env, stop_process_group
from arena.tournaments import services
from arena.tournaments.models import Tournament

ROOT = Path(settings.BASE_DIR)
VAR = Path(settings.VAR_DIR)
# The demo's web server is a development one: it shows errors and serves the apps' static
# files itself, with no collectstatic (ARENA_DEBUG set in the environment still wins). The
# worker keeps DEBUG off, where Django does not record every statement.
DEMO_WEB_ENV = {"ARENA_DEBUG": "true"}
# The demo's ladders stop once their ratings have settled (docs/ladders.md), so a demo left
# running does not fill the disk; set the variable to let them go on at that rate.
DEMO_WORKER_ENV = {"ARENA_LADDER_IDLE_GAMES_PER_HOUR": "0"}
# The port when --addr is not given: PORT from the environment (``make demo PORT=8001``).
DEFAULT_PORT = "8000"
# How long the web server may take to answer on its port before the demo gives up.
WEB_START_SECONDS = 60


class Command(BaseCommand):
    help = "Start a worker and the web server, play the demo tournaments, serve until Ctrl-C."

    def add_arguments(self, parser):
        parser.add_argument(
            "--addr",
            default=f"127.0.0.1:{os.environ.get('PORT') or DEFAULT_PORT}",
            help="host:port to serve on (default 127.0.0.1 and $PORT, else 8000)",
        )
        parser.add_argument(
            "--exit-when-done",
            action="store_true",
            help="stop once every demo tournament has finished (for scripts)",
        )

    def handle(self, *args, addr, exit_when_done, **options):
        host, port = _host_and_port(addr)
        _check_free(host, port)
        children: list[subprocess.Popen] = []
        # Ctrl-C and SIGTERM both stop everything (SIGINT explicitly: a shell that started
        # this in the background may have set it to be ignored).
        signal.signal(signal.SIGINT, _raise_interrupt)
        signal.signal(signal.SIGTERM, _raise_interrupt)
        try:
            children.append(self._start_worker())
            children.append(self._start_web(addr))
            _wait_for_web(host, port, children[-1])
            demo = self._start_tournaments()
            self._print_where_to_look(addr, demo)
            self._watch(demo, children, exit_when_done)
        except KeyboardInterrupt:
            self.stdout.write("\nStopping the worker and the web server…")
        finally:
            for child in reversed(children):
                stop_process_group(child, grace_seconds=20)
        self.stdout.write("Demo stopped. Run `make demo` again to continue where it left off.")

    def _start_worker(self) -> subprocess.Popen:
        log = open(VAR / "demo-worker.log", "ab")  # noqa: SIM115 (kept for the child)
        command = [
            sys.executable, "-m", "celery", "-A", "arena", "worker", "--beat",
            "--schedule", str(VAR / "celerybeat-schedule"),
            "--concurrency", "2", "--loglevel", "INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        return subprocess.Popen(
            command, cwd=ROOT, env=celery_env(_demo_worker_env()), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def _start_web(self, addr: str) -> subprocess.Popen:
        log = open(VAR / "demo-web.log", "ab")  # noqa: SIM115 (kept for the child)
        command = [sys.executable, "manage.py", "runserver", addr, "--noreload"]
        return subprocess.Popen(
            command, cwd=ROOT, env=_demo_web_env(), stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def _start_tournaments(self) -> list[Tournament]:
        demo = list(Tournament.objects.filter(organiser__username="demo").order_by("id"))
        for tournament in demo:
            if tournament.status == Tournament.Status.DRAFT:
                services.start_tournament(tournament.pk)
        return demo

    def _print_where_to_look(self, addr: str, demo: list[Tournament]) -> None:
        base = f"http://{addr}"
        lines = [
            "",
            f"Meeple Arena demo is running at {base}/",
            *(f"  {t.name}: {base}{t.get_absolute_url()}" for t in demo),
            *(
                f"  {t.name}: {base}/ladders/{t.pk}/"
                for t in Tournament.objects.filter(standing=True)
            ),
            f"  API schema: {base}/api/schema/   admin: {base}/admin/",
            "  Log in as demo or admin, password meeple-demo.",
            f"  Logs: {_shown(VAR / 'demo-worker.log')}, {_shown(VAR / 'demo-web.log')}. "
            "Press Ctrl-C to stop.",
            "",
        ]
        self.stdout.write("\n".join(lines))

    def _watch(self, demo, children, exit_when_done: bool) -> None:
        reported = set()
        while True:
            for child in children:
                if child.poll() is not None:
                    raise SystemExit(
                        f"a demo process exited (code {child.returncode}); see the logs in "
                        f"{_shown(VAR)}"
                    )
            for tournament in demo:
                tournament.refresh_from_db()
                if (
                    tournament.status == Tournament.Status.FINISHED
                    and tournament.pk not in reported
                ):
                    reported.add(tournament.pk)
                    self.stdout.write(f"{tournament.name} finished: standings on its page.")
            if exit_when_done and len(reported) == len(demo):
                return
            time.sleep(2)


def _host_and_port(addr: str) -> tuple[str, int]:
    host, _, port = addr.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(f"--addr {addr!r}: give host:port, e.g. 127.0.0.1:8001")
    return host or "127.0.0.1", int(port)


def _check_free(host: str, port: int) -> None:
    """Refuse a port another program listens on before anything starts, so the demo never
    says it is running while its web server could not bind."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            reason = "is in use" if error.errno == errno.EADDRINUSE else f"cannot be used ({error})"
            raise CommandError(
                f"port {port} on {host} {reason}: stop what listens there or choose another "
                f"port, e.g. make demo PORT={port + 1}"
            ) from None


def _wait_for_web(host: str, port: int, web: subprocess.Popen) -> None:
    """Wait until the web server answers on its port; if it exits first, say why."""
    deadline = time.monotonic() + WEB_START_SECONDS
    while time.monotonic() < deadline:
        if web.poll() is not None:
            log = (VAR / "demo-web.log").read_text(errors="replace").splitlines()[-5:]
            raise CommandError(
                f"the web server exited (code {web.returncode}) before serving:\n  "
                + "\n  ".join(log)
            )
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise CommandError(f"the web server did not answer on {host}:{port} within "
                       f"{WEB_START_SECONDS} s; see {_shown(VAR / 'demo-web.log')}")  # fmt: skip


def _demo_web_env() -> dict[str, str]:
    return {**DEMO_WEB_ENV, **os.environ}


def _demo_worker_env() -> dict[str, str]:
    return {**DEMO_WORKER_ENV, **os.environ}


def _raise_interrupt(signum, frame):
    # Once: a second Ctrl-C (or make passing on the signal) while the worker and the web
    # server stop must neither cut that short nor end in a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def _shown(path: Path) -> str:
    """A path as a person reads it: relative to the checkout when inside it."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)
