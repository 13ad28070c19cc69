"""What the benches that time two history sizes in turns share (bench/history_store.py,
bench/history_reads.py): one child process per kept database, each answering a line of
JSON for each line it is sent."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgres://postgres@127.0.0.1:5432"


def size_arguments(parser: argparse.ArgumentParser) -> None:
    """The two sizes, the rounds and the databases' names, as every such bench takes them."""
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--database", help="as bench/history.py's --database")


def start(script: str, args: argparse.Namespace) -> dict[int, subprocess.Popen]:
    """A child of ``script`` (run with ``--child <build file>``) per size, on the database
    a ``bench/history.py --keep`` run of that size built (its ladders kept in var/bench/)."""
    own = os.environ.get("ARENA_DATABASE_URL", "").rsplit("/", 1)[-1] or "arena"
    prefix = args.database or own + "_history_bench"
    return {games: _child(script, f"{prefix}_{games}") for games in (args.small, args.large)}


def _child(script: str, database: str) -> subprocess.Popen:
    built = ROOT / "var" / "bench" / f"history-built-{database}.json"
    if not built.exists():
        raise SystemExit(f"no kept build of {database} ({built}): bench/history.py --keep first")
    env = {
        **os.environ, "ARENA_DATABASE_URL": f"{SERVER}/{database}", "ARENA_DEBUG": "false",
        "ARENA_LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "arena.settings",
    }  # fmt: skip
    return subprocess.Popen(
        [sys.executable, script, "--child", str(built)],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


def ask(child: subprocess.Popen, line: str) -> dict:
    """Send ``line`` to ``child``; its answer."""
    child.stdin.write(line + "\n")
    child.stdin.flush()
    answer = child.stdout.readline()
    if not answer:
        raise SystemExit("a database's process ended (see its error above)")
    return json.loads(answer)


def stop(children: dict[int, subprocess.Popen]) -> None:
    for child in children.values():
        child.stdin.close()
        child.wait()


def serve(answer) -> None:
    """In a child: set Django up on its database and answer each line of stdin with
    ``answer(line, built)`` (``built``: the build's kept ladders), a line of JSON each."""
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    import django

    django.setup()
    built = json.loads(Path(sys.argv[2]).read_text())
    state: dict = {}
    for line in sys.stdin:
        print(json.dumps(answer(line.strip(), built, state)), flush=True)
