"""`python -m engine position RECORD --at N [-o FILE]`: the position before decision N.

RECORD is read as ``view`` reads it (a bare record, the platform's replay download, a line of
``simulate --out`` or a ``workers.play --out`` game file). The position (docs/positions.md) is
written as JSON to FILE, or to standard output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import engine
from engine.core.errors import EngineError
from engine.core.positions import position_in_record
from engine.viewer_cli import ViewError, read_record


def add_position_command(commands) -> None:
    """Register the ``position`` subcommand on the CLI's subparsers."""
    cmd = commands.add_parser("position", help="write the whole position before decision N")
    cmd.add_argument("record", help="a replay record (JSON), or a JSON-lines file's first line")
    cmd.add_argument("--at", type=int, required=True, help="the decision, 1 = the first")
    cmd.add_argument("-o", "--out", help="the JSON file to write (default: standard output)")
    cmd.set_defaults(run=run_position)


def run_position(args) -> int:
    try:
        game = read_record(args.record)
        record = game.get("record", game)
        if record.get("title") not in engine.titles():
            raise ViewError(f"{args.record}: {record.get('title')!r} is not a title of this engine")
        position = position_in_record(engine.title(record["title"]), record, args.at)
        text = json.dumps(position, ensure_ascii=False, indent=1) + "\n"
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
            print(
                f"wrote {args.out}: decision {args.at}, seat {position['to_move']['seat']} to move"
            )
        else:
            sys.stdout.write(text)
    except ViewError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except EngineError as err:
        print(f"error: {args.record}: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: cannot write {args.out}: {err.strerror}", file=sys.stderr)
        return 2
    return 0
