"""`python -m engine view RECORD.json -o game.html`: one self-contained viewer file per record.

The record may be a bare replay record, the platform's replay download, a line of
``simulate --out`` or a local runner's game file (``workers.play --out``: faults and bot names
are then shown too). The file needs no network and opens at the last position.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.core.errors import EngineError
from engine.core.view import write_game_html


class ViewError(Exception):
    """A record that cannot be shown: printed as one line, exit status 2."""


def add_view_command(commands) -> None:
    """Register the ``view`` subcommand on the CLI's subparsers."""
    view = commands.add_parser("view", help="write a self-contained HTML viewer of a record")
    view.add_argument("record", help="a replay record (JSON), or a JSON-lines file's first line")
    view.add_argument("-o", "--out", required=True, help="the HTML file to write")
    view.set_defaults(run=run_view)


def run_view(args) -> int:
    try:
        game = read_record(args.record)
        path = write_game_html(game, args.out)
    except ViewError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except EngineError as err:
        print(f"error: {args.record}: cannot replay this record: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: cannot write {args.out}: {err.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    return 0


def read_record(name: str) -> dict:
    """The record (or game holding one) in the file ``name``; ViewError says what is wrong."""
    try:
        text = Path(name).read_text(encoding="utf-8")
    except OSError as err:
        raise ViewError(f"cannot read {name}: {err.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as whole:
        first = text.lstrip().split("\n", 1)[0]
        try:  # a JSON-lines file (simulate --out): its first game
            data = json.loads(first)
        except json.JSONDecodeError:
            raise ViewError(
                f"{name} is not JSON: {whole.msg} at line {whole.lineno} column {whole.colno}"
            ) from None
    if not isinstance(data, dict):
        raise ViewError(f"{name} holds no record (a JSON object with 'title' and 'actions')")
    return data
