"""Seeded games play exactly as they did when ``golden_digests.json`` was captured.

The digests were taken before the rules class was split into modules (issue 14 §2): any change
of an option list, a result, a record or an observation in these games fails here. A deliberate
rules change bumps ``rules_version`` and rewrites the file (``python -m
tests.unit.praga.golden --write``).
"""

import json

from engine import title

from .golden import GOLDEN, VARIANTS, digests
from .helpers import roundtrip


def test_seeded_games_match_their_golden_digests():
    assert digests() == json.loads(GOLDEN.read_text())


def test_a_seeded_game_replays_from_its_record_to_the_same_result():
    praga = title("praga")
    state = praga.new_game(3, VARIANTS[2], 11)
    while not state.is_over():
        state.apply(len(state.decision().options) // 2)
    replayed = praga.replay(roundtrip(state.record()))
    assert replayed.result() == state.result()
