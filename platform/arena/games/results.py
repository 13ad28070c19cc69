"""A finished game's result as its record replays to it: the per-title statistics
(``Game.stats``) and each seat's score details (``GameSeat.details``), which the store no
longer keeps beside the record (about 1.6 KB a 4-player Citadels game, docs/scaling.md).

A replay checks the record's seal, the result's digest included (engine/core/records.py),
so what it gives is what the match runner's result was. Games stored before, or whose record
another engine no longer replays to the same result, keep the columns as they were stored
(migration 0018): a stored, non-empty value is read first.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction

import engine


def replayed_result(record: dict | None) -> dict[str, Any] | None:
    """The engine's ``result()`` of a recorded, finished game, or None when there is no
    record or it does not replay."""
    if not record:
        return None
    try:
        title = engine.title(record.get("title", ""))
        state = title.replay(record, allow_version=True)
        result = state.result() if state.is_over() else None
    except engine.EngineError:
        return None
    # As the store wrote it: JSON (tuples are lists, keys text).
    return json.loads(json.dumps(result)) if result is not None else None


def game_stats(game) -> dict[str, Any]:
    """The game's statistics: as stored, else from its record."""
    if game.stats:
        return game.stats
    result = _result(game)
    return (result or {}).get("stats") or {}


def seat_details(game, seats) -> list[dict[str, Any]]:
    """Each of ``seats``' score details (in their order): as stored, else from the record."""
    if all(s.details for s in seats):
        return [s.details for s in seats]
    result = _result(game) or {}
    replayed = result.get("details") or []
    return [s.details or (replayed[s.seat] if s.seat < len(replayed) else {}) or {} for s in seats]


def _result(game) -> dict[str, Any] | None:
    """The replayed result, kept on the game object for its other reads."""
    cached = getattr(game, "_replayed_result", False)
    if cached is False:
        cached = replayed_result(game.record if game.status == "finished" else None)
        game._replayed_result = cached
    return cached


# -- migration 0018: the stored copies emptied, and written again going back ---------------

BATCH = 500


def drop_replayable(game_model, seat_model, *, using: str = "default") -> tuple[int, int]:
    """Empty ``Game.stats`` and ``GameSeat.details`` of every finished game whose record
    replays to exactly those values (the rest keep theirs), ``BATCH`` games per
    transaction; (games emptied, games kept as they were)."""
    return _each_finished(game_model, seat_model, using, drop=True)


def store_replayed(game_model, seat_model, *, using: str = "default") -> tuple[int, int]:
    """Going back: write ``Game.stats`` and ``GameSeat.details`` from the record wherever
    they are empty; (games written, games whose record does not replay)."""
    return _each_finished(game_model, seat_model, using, drop=False)


def _each_finished(game_model, seat_model, using, *, drop: bool) -> tuple[int, int]:
    games = game_model.objects.using(using).filter(status="finished", record__isnull=False)
    changed = left = last = 0
    while batch := list(
        games.filter(pk__gt=last).order_by("pk").only("pk", "record", "stats")[:BATCH]
    ):
        last = batch[-1].pk
        seats: dict[int, list] = {}
        for seat in seat_model.objects.using(using).filter(game_id__in=[g.pk for g in batch]):
            seats.setdefault(seat.game_id, []).append(seat)
        games_done, seats_done = [], []
        for game in batch:
            own = sorted(seats.get(game.pk, []), key=lambda s: s.seat)
            if drop and not game.stats and not any(s.details for s in own):
                continue
            if not drop and game.stats and all(s.details for s in own):
                continue
            result = replayed_result(game.record)
            if result is None:
                left += 1
                continue
            details = result.get("details") or []
            stats = result.get("stats") or {}
            if drop:
                same = (not game.stats or game.stats == stats) and all(
                    not s.details or (s.seat < len(details) and s.details == details[s.seat])
                    for s in own
                )
                if not same:
                    left += 1
                    continue
                game.stats = {}
                for s in own:
                    s.details = {}
            else:
                game.stats = game.stats or stats
                for s in own:
                    s.details = s.details or (details[s.seat] if s.seat < len(details) else {})
            games_done.append(game)
            seats_done.extend(own)
        with transaction.atomic(using=using):
            game_model.objects.using(using).bulk_update(games_done, ["stats"])
            seat_model.objects.using(using).bulk_update(seats_done, ["details"])
        changed += len(games_done)
    return changed, left
