"""How a game's statistics read on its page: characters and cards by their names (English
and the seeds' Chinese, from the title's ``display_names``), a round-by-seat table where the
title reports who held what, the characters targeted, and every other figure on a line."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.core import records, view
from engine.core.errors import ConfigError

from .signing import signed

# Statistics shown in their own section rather than as a line of figures.
TABLED = frozenset({"characters_by_round", "targets"})


@dataclass(frozen=True)
class GameStatistics:
    """A finished game's statistics, ready for the template."""

    rounds: list[tuple[int, list[str]]] = field(default_factory=list)  # what each seat held
    targets: list[str] = field(default_factory=list)  # "Round 1: killed Architect 建築師"
    figures: list[tuple[str, str]] = field(default_factory=list)  # (label, value)


def game_statistics(title: str, stats: dict[str, Any] | None) -> GameStatistics:
    """The page's view of ``stats`` (a stored game's per-title statistics)."""
    stats = stats or {}
    names = _display_names(title)

    def named(value: Any) -> str:
        return names.get(value, str(value)) if isinstance(value, str) else str(value)

    rounds = []
    by_round = stats.get("characters_by_round")
    if isinstance(by_round, list):
        for number, seats in enumerate(by_round, start=1):
            held = [" + ".join(named(c) for c in _as_list(cell)) for cell in seats or []]
            rounds.append((number, held))
    targets = [
        f"Round {t.get('round')}: {t.get('power')} {named(t.get('character'))}"
        for t in stats.get("targets") or []
        if isinstance(t, dict)
    ]
    figures = [
        (key.replace("_", " ").capitalize(), _figure(value, named))
        for key, value in sorted(stats.items())
        if key not in TABLED
    ]
    return GameStatistics(rounds, targets, figures)


def _display_names(title: str) -> dict[str, str]:
    try:
        return engine.title(title).display_names()
    except ConfigError:  # a title this server no longer has: ids as they are
        return {}


def _as_list(value: Any) -> list:
    return [v for v in value if v] if isinstance(value, list) else ([value] if value else [])


def _figure(value: Any, named) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float):
        return named(value)
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(named(v) for v in value) or "none"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# -- the game viewer -------------------------------------------------------------------------


def viewer_frames(game, perspective) -> dict[str, Any]:
    """The delta-encoded frames of a game's record from ``perspective`` (engine.core.view),
    kept in the cache: a stored record never changes, and replaying one costs a few tenths
    of a second."""
    from django.core.cache import cache

    stored = int(game.finished_at.timestamp() * 1e6) if game.finished_at else 0
    key = f"viewer:{game.pk}:{perspective}:{engine.ENGINE_VERSION}:{stored}"
    encoded = cache.get(key)
    if encoded is None:
        encoded = view.encode(view.frames(game.record, perspective))
        cache.set(key, encoded, 3600)
    return encoded


def viewer_page_data(game, seats, *, owned: set[int], user) -> dict[str, Any]:
    """What the game page's viewer starts from: the public frames, the title's legend, each
    seat's bot by name, the timeline marks (fault details only for the seats in ``owned``),
    each owned seat's stderr log address and the decision notes ``user`` reads."""
    from django.urls import reverse

    record = game.record
    title = engine.title(record["title"])
    public = viewer_frames(game, view.PUBLIC)
    return {
        "title": title.id,
        "title_name": title.name,
        "players": record["players"],
        "seats": [view.seat_label(s.seat, s.bot_version.label) for s in seats],
        "legend": view.view_module(title).legend(title),
        "marks": viewer_marks(game, seats, owned),
        "perspectives": {view.PUBLIC: public},
        "logs": {
            str(s.seat): reverse("seat-stderr", args=[game.pk, s.seat])
            for s in seats
            if s.seat in owned and game.status == "finished"
        },
        # the whole position before a decision, hidden information included: once finished
        "position_url": reverse("game-position", args=[game.pk])
        if game.status == "finished"
        else None,
        # log lines by decision id (act's "log") of the seats whose notes the person reads
        "decision_logs": decision_logs_shown(game, seats, user),
        "own_seats": sorted(owned),
    }


def decision_logs_shown(game, seats, user) -> dict[str, dict[str, str]]:
    """The per-decision log lines ``user`` reads, by seat and decision id (text keys): each
    seat's bot's owner its own; everyone those of a bot whose owner shares them, once the
    game is over and its deal played out (``Bot.shows_decision_logs``)."""
    over = game.status == "finished" and game.seed_is_public()
    return {
        str(s.seat): s.decision_logs or {}
        for s in seats
        if s.bot_version.bot.shows_decision_logs(user, game_over=over)
    }


def served_record(game, seats, user) -> dict[str, Any]:
    """The replay record as served to ``user`` (web download, API), signed: with the
    ``decision_logs`` ``user`` reads beside the game (left out of the record's seal, covered
    by the signature), when there are any."""
    logs = {seat: lines for seat, lines in decision_logs_shown(game, seats, user).items() if lines}
    return signed({**game.record, "decision_logs": logs} if logs else game.record)


def viewer_marks(game, seats, owned: set[int]) -> list[dict]:
    """Faults, disqualifications and the end on the timeline of ``game``."""
    return view.timeline_marks(
        records.action_count(game.record),
        [s.faults for s in seats],
        [s.status for s in seats],
        details_for=owned,
    )
