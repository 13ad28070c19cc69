"""`python -m engine`: simulate games between built-in bots, replay records, run a demo league.

    python -m engine simulate citadels --players 4 --bots greedy,random,random,random \
        --games 1000 --seed 1 [--jobs N] [--out games.jsonl] [--option name=value ...]
    python -m engine replay games.jsonl
    python -m engine replay --verify --public-key KEY game-1-replay.json
    python -m engine titles
    python -m engine demo
    python -m engine view RECORD.json -o game.html
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

import engine
from engine.core import signatures
from engine.core.commandline import Parser, Progress, Tally, UsageError, parse_options, table
from engine.core.rng import derive_seed
from engine.position_cli import add_position_command
from engine.viewer_cli import add_view_command

# Options whose value may start with "-": a public key's base64url text does one time in 64,
# and argparse takes "--public-key -Abc…" for two options.
DASHED_VALUES = ("--public-key",)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    try:
        args = _parser().parse_args(_dashed_values_joined(sys.argv[1:] if argv is None else argv))
        return args.run(args)
    except UsageError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except engine.ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m engine", description="Meeple Arena rules engine")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    sim = commands.add_parser("simulate", help="play games between built-in bots")
    sim.add_argument("title", help="title id (see `python -m engine titles`)")
    sim.add_argument(
        "--bots", required=True, help="comma-separated built-in bot names, one per seat"
    )
    sim.add_argument("--players", type=int, help="seats per game (default: number of bots)")
    sim.add_argument("--games", type=_positive_int, default=100)
    sim.add_argument("--seed", type=_non_negative_int, default=1)
    sim.add_argument("--jobs", type=_positive_int, default=1, help="worker processes")
    sim.add_argument("--out", help="write one JSON line per game (record and result) here")
    sim.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="rule option"
    )
    sim.add_argument(
        "--fixed-seats",
        action="store_true",
        help="keep bot i at seat i (default: rotate seats from game to game)",
    )
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=_simulate)

    rep = commands.add_parser("replay", help="re-play records and report mismatches")
    rep.add_argument(
        "file", help="JSON lines written by `simulate --out` (or bare records), or one record"
    )
    rep.add_argument(
        "--allow-version",
        action="store_true",
        help="replay records of another rules version under this one (result not checked)",
    )
    rep.add_argument(
        "--verify",
        action="store_true",
        help="also check each record's signature: that the platform which served it signed "
        "this very record",
    )
    rep.add_argument(
        "--public-key",
        metavar="KEY",
        help="with --verify: the signer's public key (base64url, as the platform publishes "
        "it at /api/v1/record-key/), or a file holding it; without it the key the record "
        "names is checked and printed, for you to compare",
    )
    rep.set_defaults(run=_replay)

    lst = commands.add_parser("titles", help="list titles, built-in bots and rule options")
    lst.set_defaults(run=_titles)

    demo = commands.add_parser("demo", help="a small league of built-in bots for every title")
    demo.add_argument("--games", type=_positive_int, default=200)
    demo.set_defaults(run=_demo)
    add_view_command(commands)
    add_position_command(commands)
    return parser


def _dashed_values_joined(argv: list[str]) -> list[str]:
    """``argv`` with each ``OPTION VALUE`` of :data:`DASHED_VALUES` as ``OPTION=VALUE``."""
    joined, rest = [], iter(argv)
    for arg in rest:
        value = next(rest, None) if arg in DASHED_VALUES else None
        joined.append(arg if value is None else f"{arg}={value}")
    return joined


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {text}")
    return value


# -- simulate ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Everything needed to play game ``index`` of a simulation, in any process."""

    title: str
    bots: tuple[str, ...]
    options: dict
    seed: int
    rotate: bool

    def seating(self, index: int) -> list[int]:
        """Bot index at each seat for game ``index`` (rotated so each bot visits each seat)."""
        n = len(self.bots)
        shift = index % n if self.rotate else 0
        return [(seat + shift) % n for seat in range(n)]

    def play(self, index: int) -> dict:
        seating = self.seating(index)
        names = [self.bots[b] for b in seating]
        state = engine.play_game(
            self.title, names, derive_seed(self.seed, "game", index), self.options
        )
        return {
            "game": index,
            "bots": names,
            "result": _summary(state.result()),
            "decisions": len(state.actions()),
            "record": state.record(),
        }


def _summary(result: dict) -> dict:
    return {key: result[key] for key in ("scores", "ranks", "winners") if key in result}


def _simulate(args) -> int:
    title = engine.title(args.title)
    bots = tuple(name.strip() for name in args.bots.split(",") if name.strip())
    players = args.players or len(bots)
    if len(bots) != players:
        raise UsageError(
            f"--bots names {len(bots)} bots but --players is {players}; give one per seat"
        )
    for name in bots:
        engine.make_bot(args.title, name)  # unknown names fail here, before any game
    options = title.options(players, **parse_options(args.option))
    plan = Plan(args.title, bots, options, args.seed, rotate=not args.fixed_seats)
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115
    league = League(bots=list(dict.fromkeys(bots)), players=players)
    progress = Progress(args.games, quiet=args.quiet)
    try:
        for done, game in enumerate(_run(plan, args.games, args.jobs), 1):
            league.add(game)
            if out:
                out.write(json.dumps(game, separators=(",", ":")) + "\n")
            progress(done)
    finally:
        if out:
            out.close()
    print(league.report(title.name, options))
    return 0


def _run(plan: Plan, games: int, jobs: int) -> Iterator[dict]:
    if jobs == 1:
        yield from (plan.play(i) for i in range(games))
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(
            plan.play, range(games), chunksize=max(1, min(50, games // (jobs * 8)))
        )


@dataclass
class League:
    """Wins (a shared win counts 1/k), scores and games per bot and per seat."""

    bots: list[str]
    players: int
    games: int = 0
    decisions: int = 0
    by_bot: dict[str, Tally] = field(default_factory=dict)
    by_seat: dict[int, Tally] = field(default_factory=dict)

    def add(self, game: dict) -> None:
        self.games += 1
        self.decisions += game["decisions"]
        for seat, name in enumerate(game["bots"]):
            self.by_bot.setdefault(name, Tally(name)).add(game["result"], seat)
            # people count seats from 1
            self.by_seat.setdefault(seat, Tally(str(seat + 1))).add(game["result"], seat)

    def report(self, title_name: str, options: dict) -> str:
        lines = [
            f"{title_name}: {self.games} games, {self.players} players, "
            f"{self.decisions / max(1, self.games):.0f} decisions per game",
            f"options: {json.dumps(options, separators=(',', '='))}",
            "",
        ]
        lines += _table("bot", [self.by_bot[b] for b in self.bots if b in self.by_bot])
        lines.append("")
        lines += _table("seat", [self.by_seat[s] for s in sorted(self.by_seat)])
        lines.append("")
        lines.append(
            f"A fair share is {100 / self.players:.1f}% per seat; intervals are Wilson 95%; "
            "a shared win counts 1/k."
        )
        return "\n".join(lines)


def _table(label: str, tallies: list[Tally]) -> list[str]:
    return table(
        (label, "played", "win rate", "95% interval", "avg score"),
        [
            (t.label, str(t.games), f"{100 * t.win_rate:.1f}%", t.interval(),
             f"{t.score / t.games:.1f}")
            for t in tallies
        ],
    )  # fmt: skip


# -- replay ------------------------------------------------------------------------------


def _replay(args) -> int:
    """Replay every record of the file; one line per record that does not replay as stored."""
    try:
        with open(args.file, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "it is not UTF-8 text"
        raise UsageError(f"cannot read {args.file}: {reason}") from None
    trusted = _trusted_key(args)
    signers: set[str] = set()
    replayed = refused = unparsed = 0
    for where, entry in _entries(text):
        if isinstance(entry, json.JSONDecodeError):
            unparsed += 1
            print(
                f"{where}: cannot parse JSON ({entry.msg} at column {entry.colno}); fix or "
                "remove this line"
            )
            continue
        problem = _check_entry(entry, args.allow_version)
        if not problem and args.verify:
            problem = _check_signature(entry, trusted, signers)
        if problem:
            refused += 1
            print(f"{where}: {problem}")
        else:
            replayed += 1
    print(
        f"{replayed + refused} records read: {replayed} replay as stored, {refused} do not"
        + (f"; {unparsed} lines could not be parsed" if unparsed else "")
    )
    if signers:
        checked = "the key given" if trusted else "; ".join(sorted(signers))
        print(f"signed by {checked}" + ("" if trusted else _COMPARE_KEY))
    return 1 if refused or unparsed else 0


_COMPARE_KEY = (
    " (not checked against a key you trust: compare it with the public key the platform "
    "publishes at /api/v1/record-key/, or pass it with --public-key)"
)


def _trusted_key(args) -> str | None:
    """The public key given with --public-key (its text, or a file holding it)."""
    if args.public_key is None:
        return None
    if not args.verify:
        raise UsageError("--public-key is used with --verify")
    text = args.public_key.strip()
    if os.path.isfile(text):
        with open(text, encoding="utf-8") as handle:
            text = handle.read().strip()
    try:
        return signatures.public_key(text)
    except engine.ConfigError as err:
        raise UsageError(f"--public-key: {err}") from None


def _check_signature(entry, trusted: str | None, signers: set[str]) -> str | None:
    record = entry.get("record", entry)
    try:
        signers.add(signatures.check(record, trusted))
    except engine.SignatureRefused as err:
        return str(err)
    return None


def _entries(text: str):
    """(where, entry) for a file of JSON lines, or for a file holding one JSON document (as the
    platform's replay download, indented over many lines). A line that is not JSON comes as its
    JSONDecodeError; a single document that is not JSON is reported at its own line."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        return
    try:
        json.loads(lines[0][1])
    except json.JSONDecodeError:
        try:
            yield "record", json.loads(text)
        except json.JSONDecodeError as err:
            yield f"line {err.lineno}", err
        return
    for number, line in lines:
        try:
            yield f"line {number}", json.loads(line)
        except json.JSONDecodeError as err:
            yield f"line {number}", err


def _check_entry(entry, allow_version: bool) -> str | None:
    record = entry.get("record", entry) if isinstance(entry, dict) else None
    if not isinstance(record, dict):
        return "not a record: expected a JSON object with the record's fields"
    title_id = record.get("title")
    if title_id not in engine.titles():
        return f"the record is for {title_id!r}, which is not a title of this engine"
    try:
        state = engine.title(title_id).replay(record, allow_version=allow_version)
    except engine.EngineError as err:
        return str(err)
    if not state.is_over():
        return None  # sealed as unfinished, and replays to that point
    stored = entry.get("result")
    if stored is not None and _summary(state.result()) != _summary(stored):
        return (
            f"the result written beside the record differs from its replay: stored "
            f"{_summary(stored)}, replayed {_summary(state.result())}"
        )
    return None


# -- titles and demo ---------------------------------------------------------------------


def _titles(args) -> int:
    for title_id in engine.titles():
        title = engine.title(title_id)
        print(
            f"{title.id}: {title.name}, {title.min_players}-{title.max_players} players, "
            f"rules {title.rules_version}"
        )
        print(f"  bots: {', '.join(engine.bots(title_id))}")
        for option in title.option_help():
            allowed = ", ".join(map(str, option["allowed"]))
            kind = "list of" if option["list"] else "one of"
            print(f"  --option {option['name']}=...  {option['description']} ({kind}: {allowed})")
    return 0


def _demo(args) -> int:
    for title_id in engine.titles():
        title = engine.title(title_id)
        players = max(title.min_players, min(4, title.max_players))
        names = [b for b in engine.bots(title_id, thinking=False) if b != "random"] or ["random"]
        bots = [names[i % len(names)] for i in range(players - 1)] + ["random"]
        print(f"\n== {title.name}: a {args.games}-game league of built-in bots")
        _simulate(
            argparse.Namespace(
                title=title_id,
                bots=",".join(bots),
                players=players,
                games=args.games,
                seed=1,
                jobs=1,
                out=None,
                option=[],
                fixed_seats=False,
                quiet=False,
            )
        )
    return 0
