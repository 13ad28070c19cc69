"""The title-neutral shape of the facts a finished game reports for the dashboards.

A title's ``Title.analytics(state)`` returns a list of :class:`Fact`: one countable thing that
happened, such as "seat 2 held the King in round 3 and gained 4 points with it" or "the game
was played with crane configuration A:…". :func:`fact_rows` folds a game's facts into one
row per seat, kind, subject and detail, with how many facts it holds and the sum of their
values (``seat, kind, subject, detail, facts, value``): the platform stores each row as it
is and the dashboards aggregate them in SQL by ``kind`` and ``subject``; neither ever asks
which title a fact came from. The step is not stored: no figure counts by round or turn,
and folding it away writes a third of the rows (a 4-player Citadels game: about 130 instead
of 400; see docs/performance.md).

Conventions every title follows (docs/analytics.md lists each title's kinds):

- ``seat`` is the seat the fact is about, or None for a fact about the whole game;
- ``step`` is the round or turn it happened in, from 1, or None when it spans the game;
- ``kind`` says what was observed (``held``, ``offered``, ``score``, ``configuration`` …);
- ``subject`` which thing (a character id, a crane zone, a score source, a label);
- ``value`` an integer measure (points, a position, a count; 1 when it only happened);
- ``detail`` a secondary category (the crane zone a tile was taken from), or "".

Facts are computed from a title's public contract only (decisions, observations, the record
and the result), after the game, where the match runner still holds the final state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .contract import State, Title

# The order of a folded row's fields (what a worker sends and the columns stored).
ROW_FIELDS = ("seat", "kind", "subject", "detail", "facts", "value")
KIND_LENGTH = 32
SUBJECT_LENGTH = 120
DETAIL_LENGTH = 64


@dataclass(frozen=True, slots=True)
class Fact:
    """One countable fact of a finished game (see the module docstring for each field)."""

    kind: str
    subject: str
    value: int = 1
    seat: int | None = None
    step: int | None = None
    detail: str = ""

    def key(self) -> tuple:
        """What its folded row is keyed by (ROW_FIELDS' first four), cut to the stored
        lengths."""
        return (
            self.seat,
            self.kind[:KIND_LENGTH],
            self.subject[:SUBJECT_LENGTH],
            self.detail[:DETAIL_LENGTH],
        )


def fold_facts(facts: list[Fact]) -> list[list]:
    """The facts as JSON-able rows in ROW_FIELDS order: one per seat, kind, subject and
    detail, with how many facts it folds and the sum of their values (first seen first)."""
    rows: dict[tuple, list] = {}
    for fact in facts:
        key = fact.key()
        row = rows.get(key)
        if row is None:
            rows[key] = [*key, 1, int(fact.value)]
        else:
            row[4] += 1
            row[5] += int(fact.value)
    return list(rows.values())


def score_sources(details: list[dict], sources: tuple[str, ...]) -> list[Fact]:
    """``score`` facts: per seat, one for each of ``sources``, the entries of its
    ``result()["details"]`` that add up to its final score (a missing entry counts 0)."""
    return [
        Fact("score", source, int(entries.get(source) or 0), seat=seat)
        for seat, entries in enumerate(details)
        for source in sources
    ]


def fact_rows(title: Title, state: State) -> list[list]:
    """The title's facts of a finished game, folded into rows (:func:`fold_facts`); never raises.
    A title whose analytics fails costs the game its facts, not the game: the rows are then
    a single ``analytics_error`` fact naming the exception, so the dashboards can count such
    games."""
    try:
        return fold_facts(title.analytics(state))
    except Exception as error:  # noqa: BLE001 - see the docstring: the game must be stored
        return fold_facts([Fact("analytics_error", type(error).__name__)])
