"""Observations and options of random games validate against workers/schemas/citadels."""

import json
from pathlib import Path

import jsonschema

from engine.citadels.components import DARK_CITY_CHARACTERS, DARK_CITY_DISTRICTS
from engine.citadels.title import CITADELS
from engine.core.rng import Rng

SCHEMAS = Path(__file__).resolve().parents[3] / "workers" / "schemas" / "citadels"
DECISION_KINDS = {
    "draft_pick",
    "draft_discard",
    "action",
    "keep",
    "turn",
    "magician_discard",
    "wizard_take",
    "wizard_place",
    "tribute",
    "graveyard",
    "exchange_give",
    "lighthouse",
    "ball_room",
}


def load(name):
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_observations_and_options_of_random_games_match_the_schemas():
    observation, option = load("observation.schema.json"), load("option.schema.json")
    options_seen, kinds_seen = {}, set()
    for game in range(14):
        players = 2 + game % 7
        options = {
            "dark_city_characters": list(DARK_CITY_CHARACTERS[: game % 9]),
            "dark_city_districts": list(DARK_CITY_DISTRICTS),
            "rank9": ("queen", "artist")[game % 2] if players == 8 or game % 3 else "none",
        }
        state = CITADELS.new_game(players, options, 700 + game)
        chooser = Rng(game, stream=4)
        step = 0
        while not state.is_over():
            decision = state.decision()
            kinds_seen.add(decision.kind)
            if step % 60 == 0:
                observation.validate(json.loads(json.dumps(state.observation(decision.seat))))
            for o in decision.options:
                same_kind = options_seen.setdefault(o["kind"], [])
                if len(same_kind) < 12 and o not in same_kind:
                    same_kind.append(o)
            state.apply(chooser.below(len(decision.options)))
            step += 1
        observation.validate(state.observation(0))
    for same_kind in options_seen.values():
        for o in same_kind:
            option.validate(o)
    assert kinds_seen <= DECISION_KINDS
    assert {"draft_pick", "action", "turn", "keep"} <= kinds_seen


def test_a_malformed_option_is_rejected_by_the_schema():
    option = load("option.schema.json")
    assert not option.is_valid({"kind": "build", "district": "moon_base"})
    assert not option.is_valid({"kind": "kill"})
    assert not option.is_valid({"kind": "fly"})
