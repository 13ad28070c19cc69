"""Each stored record's facts derived once while a stored history is in use.

A rebuild of the totals (``arena.games.totals.rebuild``, ``unfold_all``) derives every
stored game's facts again from its record (``arena.games.analytics.derive_missing_facts``:
a replay and the title's analytics, some 25 ms a game). The histories' tests rebuild after
editing rows a dozen times over the same few hundred records (and the long history's 3,000
games are copies of a few played ones), so that replaying was most of their CPU. Inside
:func:`replays_once`, the first rebuild that meets a record derives its facts for real and
later ones reuse those rows (by the record's whole content: a record edited by a test is
derived again); the rebuilds' SQL, deletes, inserts and folds all run as they do without it.
"""

from __future__ import annotations

import contextlib
import json

import pytest


@contextlib.contextmanager
def replays_once():
    from arena.games import analytics

    derive = analytics._facts_of
    derived: dict[str, list[list] | None] = {}

    def facts_of(record: dict) -> list[list] | None:
        key = json.dumps(record, sort_keys=True)
        if key not in derived:
            derived[key] = derive(record)
        rows = derived[key]
        return None if rows is None else [list(row) for row in rows]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(analytics, "_facts_of", facts_of)
        yield
