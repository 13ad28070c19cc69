"""``python -m workers.play``: play local games with the same sandbox and runner as the servers.

    python -m workers.play --title citadels --bot starter-kits/citadels-python \\
        --vs random,random,random --games 20 --seed 1 --out out/
    python -m workers.play --title praga --round-robin mine/,theirs/,builder,climber \\
        --players 3 --games 24

Your bot changes seat every game (game i puts it at seat i mod players), so no seat favours
it. ``--round-robin`` plays every group of ``--players`` of the bots named in turn (each group
in every seat order over the games) and prints a leaderboard in the ladders' format
(``workers/leaderboard.py``). ``--vs`` takes built-in bot names or paths to other bots. ``--out`` receives, per game,
the replay record with faults and timings (``game-0001.json``) and each bot process's stderr
(``game-0001-seat2.stderr.txt``), and ``game-0001.html``, the game's viewer (docs/viewer.md),
which opens with no network. Bad arguments print one line and exit with status 2.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import engine
from engine.core.commandline import Parser, Progress, Tally, UsageError, parse_options, table
from engine.core.view import has_viewer, write_game_html

from .leaderboard import Leaderboard
from .limits import DEFAULT_LIMITS, Limits
from .manifest import BotSpecError, load_bot
from .match import MatchResult, SeatSpec, run_match
from .positions import PositionUnusable, ask_bot, read_position
from .sandbox import SandboxError, check_backend


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m workers.play",
        description="Play local games between your bot and others, sandboxed like the servers.",
    )
    parser.add_argument("--title", help="citadels or praga (a --position names its own)")
    parser.add_argument("--bot", help="your bot: a directory with bot.json or a .py")
    parser.add_argument("--vs", help="opponents: built-in names or bot paths, comma-separated")
    parser.add_argument(
        "--round-robin",
        metavar="BOTS",
        help="instead of --bot and --vs: bot paths or built-in names, comma-separated, that "
        "play each other in groups of --players; prints a leaderboard",
    )
    parser.add_argument("--players", type=int, help="seats per game of a --round-robin")
    parser.add_argument(
        "--position",
        metavar="FILE",
        help="ask --bot the decision of this position (python -m engine position) and print its "
        "answer beside the game's; --vs then names built-in bots for the other seats",
    )
    parser.add_argument(
        "--continue",
        dest="play_on",
        action="store_true",
        help="with --position: play the game on to its end",
    )
    parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument("--out", help="directory for replays and stderr logs")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (repeatable)",
    )
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run bots without bubblewrap (debugging trusted code only)",
    )
    parser.add_argument(
        "--decision-ms",
        type=int,
        help=f"time per decision (default: ARENA_BOT_DECISION_MS or {DEFAULT_LIMITS.decision_ms})",
    )
    parser.add_argument(
        "--bank-ms",
        type=int,
        help=f"time bank per game (default: ARENA_BOT_BANK_MS or {DEFAULT_LIMITS.bank_ms})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser  # fmt: skip


@dataclass
class BotTally(Tally):
    """What one participant did over all games: wins and score (:class:`Tally`), and its
    ranks, faults and thinking time."""

    rank: float = 0.0
    faults: int = 0
    timeouts: int = 0
    decisions: int = 0
    total_ms: float = 0.0
    max_ms: float = 0.0
    statuses: dict = field(default_factory=dict)

    def add_match(self, outcome: MatchResult, seat: int) -> None:
        result, timing = outcome.result, outcome.timings[seat]
        self.add(result, seat)
        self.rank += result["ranks"][seat]
        self.faults += len(outcome.faults[seat])
        self.timeouts += sum(1 for f in outcome.faults[seat] if f["kind"] == "timeout")
        self.decisions += timing["decisions"]
        self.total_ms += timing["total_ms"]
        self.max_ms = max(self.max_ms, timing["max_ms"])
        status = outcome.seat_status[seat]
        self.statuses[status] = self.statuses.get(status, 0) + 1


def main(argv: list[str] | None = None) -> int:
    try:
        plan = _plan(argv)
        if plan.get("position"):
            return _ask(plan)
    except UsageError as err:
        print(f"workers.play: error: {err}", file=sys.stderr)
        return 2
    _stop_on_ctrl_c()
    try:
        return _play(plan)
    except KeyboardInterrupt:  # the runner has already killed every bot of the game
        print("\nworkers.play: interrupted", file=sys.stderr)
        return 130


def _stop_on_ctrl_c() -> None:
    """Ctrl-C stops the games however this was started. A process inherits SIGINT ignored
    or blocked from whoever started it (a shell's background job ignores it), and Python
    then never raises KeyboardInterrupt: once in a CI run, a runner sent SIGINT went on
    waiting for its bot's 60 s decision."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _play(plan: dict) -> int:
    tallies: dict[str, BotTally] = {}
    participants = plan["participants"]
    board = Leaderboard() if plan["round_robin"] else None
    progress = Progress(plan["games"], quiet=not plan["progress"])
    for game in range(plan["games"]):
        order = _lineup(participants, plan["players"], game)
        outcome = run_match(
            plan["title"],
            [spec for _, spec in order],
            seed=plan["seed"] + game,
            options=plan["options"],
            limits=plan["limits"],
            sandbox=plan["sandbox"],
        )
        for seat, (label, _) in enumerate(order):
            tallies.setdefault(label, BotTally(label)).add_match(outcome, seat)
        if board is not None:
            clean = [status == "ok" for status in outcome.seat_status]
            board.add_game([label for label, _ in order], outcome.result["ranks"], clean)
        if plan["out"]:
            _write_game(plan["out"], game + 1, plan["seed"] + game, outcome)
        progress(game + 1)
    print(_table([tallies[label] for label, _ in _unique(participants) if label in tallies]))
    if board is not None:
        print(f"\nleaderboard (as the ladders rank: OpenSkill μ − 3σ)\n{board.render()}")
    if plan["out"]:
        print(f"replays and stderr logs in {plan['out']}")
    return 0


def _ask(plan: dict) -> int:
    """Ask the bot the position's decision (``workers/positions.py``) and print the answer."""
    try:
        asked = ask_bot(
            plan["title"], plan["position"], plan["bot"], vs=plan["vs"], limits=plan["limits"],
            sandbox=plan["sandbox"], play_on=plan["play_on"],
        )  # fmt: skip
    except (engine.ConfigError, PositionUnusable) as err:  # PositionRefused: another title,
        raise UsageError(str(err)) from None  # rules or format; a seat's view played on
    print(asked.report())
    return 0


def _position_plan(args) -> dict:
    try:
        title, data = read_position(args.position)
    except PositionUnusable as err:
        raise UsageError(str(err)) from None
    if args.title and args.title != title.id:
        raise UsageError(f"--title {args.title} but the position is of {title.id}")
    if not args.bot:
        raise UsageError("--position needs --bot: the bot to ask")
    vs = [n.strip() for n in (args.vs or "random").split(",")]
    for name in vs:
        if name not in engine.bots(title.id):
            raise UsageError(
                f"with --position, --vs names built-in bots of {title.id} "
                f"({', '.join(engine.bots(title.id))}), not {name!r}"
            )
    sandbox = "none" if args.no_sandbox else os.environ.get("ARENA_SANDBOX", "bwrap")
    try:
        check_backend(sandbox)
        limits = Limits.from_env()
    except (SandboxError, ValueError) as err:
        raise UsageError(str(err)) from None
    _seat(args.bot, title.id, "you", must_be_path=True)
    return {"title": title, "position": data, "bot": args.bot, "vs": vs, "limits": limits,
            "sandbox": sandbox, "play_on": args.play_on}  # fmt: skip


def _plan(argv) -> dict:
    args = _parser().parse_args(argv)
    if args.position:
        return _position_plan(args)
    if args.play_on:
        raise UsageError("--continue goes with --position")
    if not args.title:
        raise UsageError("--title is needed (citadels or praga)")
    try:
        title = engine.title(args.title)
    except engine.ConfigError as err:
        raise UsageError(str(err)) from None
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.seed < 0:
        raise UsageError("--seed must not be negative")
    sandbox = "none" if args.no_sandbox else os.environ.get("ARENA_SANDBOX", "bwrap")
    if args.round_robin:
        if args.bot or args.vs:
            raise UsageError("--round-robin names every bot: leave out --bot and --vs")
        participants = _participants(args.round_robin, title.id, "--round-robin")
        labels = [label for label, _ in participants]
        twice = sorted({x for x in labels if labels.count(x) > 1})
        if twice:
            raise UsageError(f"--round-robin names each bot once; twice: {', '.join(twice)}")
        players = args.players or min(len(participants), title.max_players)
        if len(participants) < players:
            raise UsageError(f"--round-robin names {len(participants)} bots for {players} seats")
        given = f"--players gives {players}"
    else:
        if not (args.bot and args.vs):
            raise UsageError("give --bot and --vs (or --round-robin)")
        participants = [("you", _seat(args.bot, title.id, "you", must_be_path=True))]
        participants += _participants(args.vs, title.id, "--vs")
        players = len(participants)
        given = f"--bot and --vs give {players}"
    if not title.min_players <= players <= title.max_players:
        raise UsageError(
            f"{title.name} needs {title.min_players} to {title.max_players} players; {given}"
        )
    options = parse_options(args.option)
    try:
        options = title.options(players, **options)
        limits = Limits.from_env()
        if args.decision_ms is not None:
            limits = limits.replace(decision_ms=args.decision_ms)
        if args.bank_ms is not None:
            limits = limits.replace(bank_ms=args.bank_ms)
        check_backend(sandbox)
    except (engine.ConfigError, ValueError, SandboxError) as err:
        raise UsageError(str(err)) from None
    out = Path(args.out) if args.out else None
    if out:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError(f"cannot create --out {str(out)!r}: {err.strerror}") from None
    return {
        "title": title.id,
        "participants": participants,
        "players": players,
        "round_robin": bool(args.round_robin),
        "games": args.games,
        "seed": args.seed,
        "options": options,
        "limits": limits,
        "sandbox": sandbox,
        "out": out,
        "progress": not args.no_progress and sys.stderr.isatty(),
    }


def _participants(names: str, title_id: str, flag: str) -> list[tuple[str, SeatSpec]]:
    """(label, seat) for each comma-separated name: a built-in bot, or a path labelled by its
    folder's name and position."""
    participants = []
    for position, name in enumerate(n.strip() for n in names.split(",")):
        if not name:
            raise UsageError(f"{flag} has an empty name")
        label = name if not _looks_like_path(name) else f"{Path(name).name}#{position + 1}"
        participants.append((label, _seat(name, title_id, label)))
    return participants


def _lineup(participants: list, players: int, game: int) -> list:
    """Who sits where in game ``game``: the groups of ``players`` in turn, each group's seats
    rotated by one every time its turn comes round (all of them with a plain --bot/--vs)."""
    groups = list(itertools.combinations(participants, players))
    group = list(groups[game % len(groups)])
    shift = (game // len(groups)) % players
    return group[-shift:] + group[:-shift] if shift else group


def _looks_like_path(name: str) -> bool:
    return "/" in name or name.endswith(".py") or os.path.exists(name)


def _seat(name: str, title_id: str, label: str, must_be_path=False) -> SeatSpec:
    if must_be_path or _looks_like_path(name):
        try:
            load_bot(name, title_id)
        except BotSpecError as err:
            raise UsageError(str(err)) from None
        return SeatSpec("process", label, name)
    if name not in engine.bots(title_id):
        raise UsageError(
            f"unknown built-in bot {name!r} for {title_id}; "
            f"built-in bots are {', '.join(engine.bots(title_id))} (or give a path)"
        )
    return SeatSpec("builtin", name)


def _unique(participants):
    seen = set()
    for label, spec in participants:
        if label not in seen:
            seen.add(label)
            yield label, spec


def _write_game(out: Path, number: int, seed: int, outcome: MatchResult) -> None:
    data = outcome.to_json()
    data["seed"] = seed
    (out / f"game-{number:04d}.json").write_text(json.dumps(data, ensure_ascii=False))
    for seat, spec in enumerate(outcome.seats):
        if spec.kind == "process":
            (out / f"game-{number:04d}-seat{seat}.stderr.txt").write_text(outcome.stderr[seat])
    if has_viewer(outcome.title):
        write_game_html(data, out / f"game-{number:04d}.html")


def _table(tallies: list[BotTally]) -> str:
    header = ("bot", "games", "wins", "win rate", "95% interval", "avg score", "avg rank", "faults", "timeouts", "ms/decision", "max ms")  # fmt: skip
    rows = [
        (
            t.label,
            str(t.games),
            f"{t.wins:g}",
            f"{100 * t.win_rate:.1f}%",
            t.interval(),
            f"{t.score / t.games:.2f}",
            f"{t.rank / t.games:.2f}",
            str(t.faults),
            str(t.timeouts),
            f"{t.total_ms / t.decisions:.2f}" if t.decisions else "-",
            f"{t.max_ms:.1f}",
        )
        for t in tallies
    ]
    return "\n".join(table(header, rows))


if __name__ == "__main__":
    sys.exit(main())
