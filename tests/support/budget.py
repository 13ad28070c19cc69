"""How many random cases the randomized tests try: the property tests and the API fuzzing.

Each such test names its full count (hypothesis examples, games of a sweep, generated
requests); a run tries ``ARENA_FUZZ_PERCENT`` percent of it, at least one: 20 by default
(``make test``, a bare ``pytest``), 5 in ``make check``, 100 in ``make fuzz``, and more for a
soak (``make fuzz ARENA_FUZZ_PERCENT=500``). A sweep's seeds come from the game's number,
so a smaller sweep plays the first games of a larger one.
"""

from __future__ import annotations

import math
import os

PERCENT = float(os.environ.get("ARENA_FUZZ_PERCENT", "20"))
FULL = PERCENT >= 100  # the full run: the extras that no count scales run too


def cases(full: int) -> int:
    """The number of cases this run tries of a test whose full count is ``full``."""
    return max(1, math.ceil(full * PERCENT / 100))


def every(full_every: int) -> int:
    """How many steps apart a test that checks one step in ``full_every`` in the full run
    checks them in this run (40 for 8 at the default 20 %): fewer checks, same steps."""
    return max(1, round(full_every * 100 / PERCENT))
