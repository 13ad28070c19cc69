"""Stored records from one record format to another (``engine/core/records.py``), a batch at
a time: what migration 0013_records_packed runs, both ways.

Each record is replayed before it is rewritten (``records.convert``), so only a record that
replays as stored is converted, and it keeps the versions it was written with. A record that
does not (format 1, another rules version, altered) is left as it is: it was no evidence of
its game before and is none after, and ``manage.py verify_records`` still reports it.
"""

from __future__ import annotations

from django.db import transaction

import engine
from engine.core import records

BATCH = 500


def convert_stored(game_model, to_format: int, *, using: str = "default") -> tuple[int, int]:
    """Rewrite every stored record of the other readable format into ``to_format`` (2 or 3),
    in batches of ``BATCH`` games, each its own transaction; returns (converted, left as
    they were)."""
    from_format = 2 if to_format == records.RECORD_FORMAT else records.RECORD_FORMAT
    games = game_model.objects.using(using).filter(record__format=from_format).order_by("pk")
    converted = left = 0
    last = 0
    while True:
        batch = list(games.filter(pk__gt=last).only("pk", "record")[:BATCH])
        if not batch:
            return converted, left
        changed = []
        for game in batch:
            try:
                title = engine.title(game.record.get("title", ""))
                game.record = records.convert(title, game.record, to_format)
            except engine.EngineError:
                left += 1
                continue
            changed.append(game)
        with transaction.atomic(using=using):
            game_model.objects.using(using).bulk_update(changed, ["record"])
        converted += len(changed)
        last = batch[-1].pk
