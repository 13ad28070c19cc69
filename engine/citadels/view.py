"""What the game viewer draws of a Citadels position, per perspective (docs/viewer.md).

Built from the State's public contract: ``observation(seat)``, ``decision()``,
``is_over()`` and ``result()``, and each seat's running score by the scoring rule
(``scoring.score_seat``, every part of which is public). The public view is an observation with the observing seat's
private parts removed (``PRIVATE_KEYS``: its hand, its Museum cards, its characters, the
characters it was shown in the draft, its pending sub-decision); a seat's view is exactly
that seat's observation; the full view adds every seat's private parts.

A decision's options are listed only for the deciding seat's own view and the full view: the
options of most Citadels decisions show a hand, drawn cards or the characters left in the
draft. Other perspectives see who decides what, and the option chosen with its hidden fields
removed (``Pick (hidden)``; ``Build Palace 宮殿`` is public, the city shows it).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.view import decision_frame

from .scoring import score_seat

RENDERER = Path(__file__).with_name("view.js")
DATA = Path(__file__).with_name("data")

PRIVATE_KEYS = ("hand", "my_museum", "my_characters", "draft_seen", "pending")
# Option fields another seat never learns: the character picked or put aside, a card kept,
# taken by the Wizard, discarded, put under the Museum, paid as tribute, found by the
# Lighthouse (seed 001: these happen face down; the public event log names none of them).
HIDDEN_FIELDS = {
    "pick": ("character",),
    "discard": ("character", "district"),
    "keep": ("district",),
    "take": ("district",),
    "laboratory": ("district",),
    "museum": ("district",),
    "search": ("district",),
    "tribute_card": ("district",),
}
DECISION_LABELS = {
    "draft_pick": "picks a character",
    "draft_discard": "puts a character aside",
    "action": "takes an action",
    "keep": "keeps a drawn card",
    "turn": "plays the turn",
    "magician_discard": "discards (Magician)",
    "wizard_take": "takes a card (Wizard)",
    "wizard_place": "places the card (Wizard)",
    "tribute": "pays tribute (Emperor)",
    "graveyard": "answers the Graveyard",
    "exchange_give": "gives a district (Diplomat)",
    "lighthouse": "searches the deck (Lighthouse)",
    "ball_room": "answers the Ball Room",
}


def view(state, perspective, chosen: dict | None = None) -> dict[str, Any]:
    """The frame of ``state`` for ``perspective`` ("public", a seat, or "all");
    ``chosen`` is the option the record applies next, marked where the perspective sees it."""
    seat = perspective if isinstance(perspective, int) else None
    observation = state.observation(seat if seat is not None else 0)
    table = {k: v for k, v in observation.items() if k not in PRIVATE_KEYS and k != "seat"}
    private = {}
    if seat is not None:
        private[str(seat)] = {k: observation[k] for k in PRIVATE_KEYS}
    elif perspective == "all":
        for s in range(state.players):
            seen = state.observation(s)
            private[str(s)] = {k: seen[k] for k in PRIVATE_KEYS}
    frame = {
        "table": table,
        "private": private,
        "revealed": _revealed(observation["events"], state.players),
        "decision": None,
        "result": None,
        # each seat's score were the game to end now: every part of it is public
        "scores": [score_seat(state, s)["score"] for s in range(state.players)],
    }
    if state.is_over():
        result = state.result()
        frame["result"] = {k: result[k] for k in ("scores", "ranks", "winners", "details")}
    else:
        frame["decision"] = _decision(state, perspective, chosen, state.title)
    return frame


def _revealed(events: list[dict], players: int) -> list[list[str]]:
    """The characters each seat has shown this round (public: the log since its last round)."""
    shown: list[list[str]] = [[] for _ in range(players)]
    for event in events:
        if event.get("event") == "round":
            shown = [[] for _ in range(players)]
        elif event.get("event") == "reveal" and 0 <= event.get("seat", -1) < players:
            shown[event["seat"]].append(event["character"])
    return shown


def _decision(state, perspective, chosen, title) -> dict[str, Any]:
    decision = state.decision()
    names = _names(title)
    return decision_frame(
        decision,
        DECISION_LABELS.get(decision.kind, decision.kind.replace("_", " ")),
        perspective == "all" or perspective == decision.seat,
        lambda option: option_label(option, names),
        chosen,
        hide=public_option,
    )


def public_option(option: dict) -> dict:
    """The option as seats other than the chooser know it (hidden fields removed)."""
    hidden = HIDDEN_FIELDS.get(option.get("kind"), ())
    return {k: v for k, v in option.items() if k not in hidden}


# How a person reads each kind of option: ``{character}`` and ``{district}`` are named
# (``(hidden)`` where the field was removed), ``{card}`` is whichever of the two it has.
OPTION_LABELS = {
    "pick": "Pick {character}",
    "discard": "Discard {card}",
    "take_gold": "Take 2 gold",
    "draw_cards": "Draw cards",
    "keep": "Keep {district}",
    "build": "Build {district}",
    "collect_income": "Collect income",
    "end_turn": "End the turn",
    "kill": "Kill {character}",
    "bewitch": "Bewitch {character}",
    "rob": "Rob {character}",
    "swap_hands": "Swap hands with {seat}",
    "discard_draw": "Discard cards and draw as many",
    "done": "Done",
    "wizard": "Look at {seat}'s hand",
    "take": "Take {district}",
    "build_now": "Build it now",
    "to_hand": "Put it in hand",
    "give_crown": "Give the crown to {seat}",
    "tribute_card": "Pay {district} as tribute",
    "tribute_gold": "Pay 1 gold as tribute",
    "abbot_tax": "Take 1 gold from the richest player",
    "navigate": "Navigate: take 4 {take}",
    "destroy": "Destroy {seat}'s {district}",
    "recover": "Recover {district} for 1 gold",
    "decline": "Decline",
    "exchange": "Exchange with {seat}: take {district}",
    "give": "Give {district}",
    "queen_gold": "Take 3 gold (Queen)",
    "beautify": "Beautify {district}",
    "laboratory": "Laboratory: discard {district} for 1 gold",
    "smithy": "Smithy: pay 2 gold, draw 3",
    "museum": "Museum: put {district} under it",
    "armory": "Armory: destroy {seat}'s {district}",
    "search": "Lighthouse: take {district}",
    "thank": "Thank the crown holder",
    "keep_silent": "Keep silent (lose the turn)",
}


class _OptionFields(dict):
    """The fields of an option as its label template reads them."""

    def __init__(self, option: dict, names: dict[str, str]):
        super().__init__()
        self.option, self.names = option, names

    def __missing__(self, key: str) -> str:
        option = self.option
        if key == "seat":
            seat = option.get("seat")
            return f"seat {seat + 1}" if isinstance(seat, int) else "a seat"  # people count from 1
        if key == "card":
            key = "character" if "character" in option else "district"
        value = option.get(key)
        if key in ("character", "district"):
            return "(hidden)" if value is None else self.names.get(value, str(value))
        return str(value)


def option_label(option: dict, names: dict[str, str]) -> str:
    """How a person reads an option: ``Build Palace 宮殿``, ``Kill Thief 盜賊``."""
    template = OPTION_LABELS.get(option.get("kind"))
    if template is None:
        return json.dumps(option, ensure_ascii=False)
    return template.format_map(_OptionFields(option, names))


@cache
def _names(title) -> dict[str, str]:
    return title.display_names()


@cache
def _data(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def legend(title) -> dict[str, Any]:
    """Static facts the drawing needs once: each district's English and Chinese name, colour
    and cost, each character's names and rank (from data/*.json, as the engine has them)."""
    districts = {
        d["id"]: {"name": d["name"], "zh": d["zh"], "colour": d["colour"], "cost": d["cost"]}
        for d in _data("districts.json")["districts"]
    }
    characters = {
        c["id"]: {"name": c["name"], "zh": c["zh"], "rank": c["rank"]}
        for c in _data("characters.json")["characters"]
    }
    return {"districts": districts, "characters": characters}
