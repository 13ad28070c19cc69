"""What the two local command lines share (``python -m engine`` and ``python -m workers.play``):
one-line usage errors, rule options given as NAME=VALUE, a progress bar on stderr, win
tallies per participant, and aligned text tables."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import wilson_interval


class UsageError(Exception):
    """A bad command line: printed as one line a person can act on, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are a :class:`UsageError`, not a usage dump."""

    def error(self, message):
        raise UsageError(message)


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``--option NAME=VALUE`` arguments as a dict (the title resolves and checks them)."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


class Progress:
    """Games done, as a bar on stderr: redrawn in place on a terminal, elsewhere a line every
    5 % (and at the end); nothing at all when ``quiet``."""

    WIDTH = 30

    def __init__(self, total: int, *, quiet: bool = False, stream=None):
        self.total = total
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.step = max(1, total // 20)

    def __call__(self, done: int) -> None:
        if self.quiet or (not self.tty and done % self.step and done != self.total):
            return
        filled = self.WIDTH * done // self.total
        line = f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{self.total} games"
        end = "" if self.tty and done < self.total else "\n"
        print(f"\r{line}" if self.tty else line, end=end, file=self.stream, flush=True)


@dataclass
class Tally:
    """One participant's (or one seat's) games: wins, where a shared win counts 1/k, and
    the score."""

    label: str
    games: int = 0
    wins: float = 0.0
    score: float = 0.0

    def add(self, result: dict, seat: int) -> None:
        """Count a game from the engine's result (``winners``, ``scores``) for ``seat``."""
        self.games += 1
        if seat in result["winners"]:
            self.wins += 1 / len(result["winners"])
        self.score += result["scores"][seat]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> str:
        """The win rate's Wilson 95 % interval, in percent."""
        low, high = wilson_interval(self.wins, self.games)
        return f"{100 * low:.1f}–{100 * high:.1f}%"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Lines of an aligned table: the first column to the left, the others to the right,
    a rule under the header."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([cells[0].ljust(widths[0]), *rest])

    return [line(header), "  ".join("-" * w for w in widths), *(line(row) for row in rows)]
