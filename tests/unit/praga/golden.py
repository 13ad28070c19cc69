"""Golden digests of seeded Praga games: a fixed set of games played by the built-in bots and
random choices, reduced to one SHA-256 over results, records and sampled observations.

``python -m tests.unit.praga.golden`` prints the digests; the test compares them with
``golden_digests.json``, captured before a refactor, so a change of behaviour shows at once.
A deliberate rules change (a new ``rules_version``) rewrites the file with ``--write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from engine import make_bot, title

GOLDEN = Path(__file__).with_name("golden_digests.json")
VARIANTS = [
    {},
    {"crane_side": "B", "crane_order": "random"},
    {"kings_road_tiles": ["I", "IIa", "III"], "hunger_wall_board": "A", "cathedral_board": "B"},
    {"kings_road_tiles": ["IIb"], "hunger_wall_board": "B", "cathedral_board": "A"},
]
BOTS = ("random", "climber", "builder")


def play(players: int, seed: int) -> str:
    """One game's digest: every option list, the result, and the observation every 25 moves."""
    praga = title("praga")
    options = VARIANTS[seed % len(VARIANTS)]
    state = praga.new_game(players, options, seed)
    bots = [make_bot("praga", BOTS[(seed + i) % len(BOTS)], seed * 7 + i) for i in range(players)]
    digest = hashlib.sha256()
    moves = 0
    while not state.is_over():
        decision = state.decision()
        if moves % 25 == 0:
            digest.update(json.dumps(state.observation(decision.seat), sort_keys=True).encode())
        digest.update(json.dumps([decision.seat, decision.kind, decision.options]).encode())
        bot = bots[decision.seat]
        state.apply(bot.choose(state.observation(decision.seat), decision.kind, decision.options))
        moves += 1
    digest.update(json.dumps(state.result(), sort_keys=True).encode())
    digest.update(json.dumps(state.actions(), sort_keys=True).encode())
    return digest.hexdigest()


def games() -> list[tuple[int, int]]:
    return [(1 + seed % 4, seed) for seed in range(16)]


def digests() -> dict[str, str]:
    return {f"{players}p-seed{seed}": play(players, seed) for players, seed in games()}


if __name__ == "__main__":
    found = digests()
    if "--write" in sys.argv:
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(json.dumps(found, indent=1, sort_keys=True))
