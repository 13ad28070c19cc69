"""Observations and options of random games validate against the published JSON Schemas."""

import json
import xml.dom.minidom
from pathlib import Path

import jsonschema

from engine import make_bot
from engine.praga.render import action_board_svg, city_svg, text

from .helpers import PRAGA, VARIANTS

SCHEMAS = Path(__file__).resolve().parents[3] / "workers" / "schemas" / "praga"


def load(name):
    schema = json.loads((SCHEMAS / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_observations_and_options_of_random_games_match_the_schemas():
    observation, option = load("observation.schema.json"), load("option.schema.json")
    seen = {}
    for n, players in enumerate((1, 2, 3, 4)):
        state = PRAGA.new_game(players, VARIANTS[n % len(VARIANTS)], 40 + n)
        bots = [make_bot("praga", "random", i) for i in range(players)]
        step = 0
        while not state.is_over():
            d = state.decision()
            if step % 15 == 0:
                observation.validate(json.loads(json.dumps(state.observation(d.seat))))
            for o in d.options:
                seen.setdefault(json.dumps(o, sort_keys=True), o)
            state.apply(bots[d.seat].choose(None, d.kind, d.options))
            step += 1
    for o in seen.values():
        option.validate(o)
    kinds = {o["kind"] for o in seen.values()}
    assert {"take_tile", "action", "end_turn", "pick", "orient", "space", "mine"} <= kinds


def test_a_malformed_option_is_rejected_by_the_schema():
    option = load("option.schema.json")
    assert not option.is_valid({"kind": "take_tile", "tile": 9})
    assert not option.is_valid({"kind": "fly"})


def test_text_and_svg_pictures_show_the_position():
    state = PRAGA.new_game(3, None, 7)
    bots = [make_bot("praga", "random", i) for i in range(3)]
    for _ in range(250):
        d = state.decision()
        state.apply(bots[d.seat].choose(None, d.kind, d.options))
    picture = text(state)
    assert "seat 2:" in picture and "crane" in picture and "~~" in picture
    for svg in (city_svg(state), action_board_svg(state, 0)):
        assert xml.dom.minidom.parseString(svg).documentElement.tagName == "svg"
