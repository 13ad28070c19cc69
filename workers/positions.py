"""``python -m workers.play --position POSITION --bot DIR``: ask a bot again at one decision.

The position (``python -m engine position``, docs/positions.md) is loaded by its title; the bot
is started in the sandbox at the seat to move, as in a game, and sent the observation that seat
had at that decision (the whole event log, ``events_from`` 0). Its answer is printed beside the
option the game took there. With ``--continue`` the game plays on from there to its end, the
other seats played by built-in bots (``--vs``, default ``random``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import engine

from .limits import Limits
from .match import Match, SeatSpec


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
