"""``python -m workers.play --position POSITION --bot DIR``: ask a bot again at one decision.

The position (``python -m engine position``, docs/positions.md) is loaded by its title; the bot
is started in the sandbox at the seat to move, as in a game, and sent the observation that seat
had at that decision (the whole event log, ``events_from`` 0). Its answer is printed beside the
option the game took there. With ``--continue`` the game plays on from there to its end, the
other seats played by built-in bots (``--vs``, default ``random``). A seat's view (what the site
offers a seat's owner while the game runs) is asked the same way, at that seat's own decision:
its observation and options are in it; it cannot be played on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import engine
from engine.core.positions import read_seat_view

from .limits import Limits
from .match import Match, SeatSpec
from .protocol import fallback_index


class PositionUnusable(Exception):
    """A position file that cannot be played: the message says why."""


@dataclass
class Asked:
    """What the bot answered at the position, and what followed with ``--continue``."""

    decision: int
    seat: int
    kind: str
    answer: dict
    played: dict | None
    fault: dict | None
    stderr: str = ""
    result: dict | None = None
    warnings: list = field(default_factory=list)

    def report(self) -> str:
        """Lines a person reads: the bot's answer beside the original choice (and the result)."""
        same = "the same" if self.answer == self.played else "different"
        lines = [
            f"decision {self.decision}, seat {self.seat} to move ({self.kind})",
            f"  your bot:  {json.dumps(self.answer, ensure_ascii=False)}",
            f"  the game:  {json.dumps(self.played, ensure_ascii=False)}"
            + (f"   ({same})" if self.played is not None else "   (not recorded)"),
        ]
        if self.fault:
            lines.append(f"  fault: {self.fault['kind']}: {self.fault['message']}")
        if self.result is not None:
            lines.append(f"played on: scores {self.result['scores']}, ranks {self.result['ranks']}")
        return "\n".join(lines)


def read_position(path: str) -> tuple[engine.Title, dict]:
    """The title and the position document of the file ``path``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise PositionUnusable(f"cannot read --position {path}: {err.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise PositionUnusable(f"--position {path} is not JSON") from None
    title_id = data.get("title") if isinstance(data, dict) else None
    if title_id not in engine.titles():
        raise PositionUnusable(f"--position {path}: {title_id!r} is not a title of this engine")
    return engine.title(title_id), data


def ask_bot(
    title: engine.Title,
    data: dict,
    bot: str,
    *,
    vs: list[str],
    limits: Limits,
    sandbox: str,
    play_on: bool = False,
) -> Asked:
    """Start ``bot`` at the position's seat to move and ask it that decision (then, with
    ``play_on``, play the game to its end). Raises ``PositionRefused`` for a position of
    another title or version."""
    if isinstance(data, dict) and data.get("view") is not None:
        if play_on:
            raise PositionUnusable(
                "--continue needs the whole position; a seat's view holds nothing hidden from "
                "that seat, so no game can go on from it (the site offers the whole position "
                "once the game is over)"
            )
        return _ask_at_view(title, data, bot, limits=limits, sandbox=sandbox)
    state = title.load_position(data)
    decision = state.decision()
    others = iter(vs * state.players)
    seats = [
        SeatSpec("process", "you", bot) if i == decision.seat else SeatSpec("builtin", next(others))
        for i in range(state.players)
    ]
    with Match(title, seats, seed=state.seed, options=state.options, limits=limits,
               sandbox=sandbox) as match:  # fmt: skip
        match.state = state  # the game goes on from the position, not from its start
        match.start()
        step = match.play_one_decision()
        asked = Asked(
            decision=data["decision"],
            seat=decision.seat,
            kind=decision.kind,
            answer=decision.options[step.applied],
            played=data.get("played"),
            fault=step.fault,
            warnings=list(match.warnings),
        )
        if play_on:
            while not match.over:
                match.play_one_decision()
            outcome = match.finish()
            asked.result, asked.stderr = outcome.result, outcome.stderr[decision.seat]
        else:
            match.close()
            asked.stderr = match.seats[decision.seat].stderr.text()
    return asked


def _ask_at_view(title: engine.Title, data: dict, bot: str, *, limits: Limits, sandbox: str):
    """Ask ``bot`` the decision of a seat's view: started at that seat, as in a game, and sent
    the view's observation and options (the other seats are never asked)."""
    view = read_seat_view(title, data)
    seat, to_move, options = view["view"], view["to_move"], view["to_move"]["options"]
    seats = [
        SeatSpec("process", "you", bot) if i == seat else SeatSpec("builtin", "random")
        for i in range(view["players"])
    ]
    with Match(title, seats, seed=0, options=view["options"], limits=limits,
               sandbox=sandbox) as match:  # fmt: skip
        match.start()
        asked = match.seats[seat]
        index, fault = None, (asked.faults[-1] if asked.faults else None)
        if asked.active:
            index, fault = asked.choose(
                view["decision"], to_move["kind"], view["observation"], options
            )
        match.close()
        stderr = asked.stderr.text()
    chosen = options[index if index is not None else fallback_index(options)]
    return Asked(
        decision=view["decision"],
        seat=seat,
        kind=to_move["kind"],
        answer=chosen,
        played=None,
        fault=fault,
        stderr=stderr,
        warnings=list(match.warnings),
    )
