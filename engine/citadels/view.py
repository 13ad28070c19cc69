"""What the game viewer draws of a Citadels position, per perspective (docs/viewer.md).

Built only from the State's public contract: ``observation(seat)``, ``decision()``,
``is_over()`` and ``result()``. The public view is an observation with the observing seat's
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


# How a person reads each kind of option (``n(key)`` names the option's card or character).
OPTION_LABELS = {
    "pick": lambda o, n, seat: f"Pick {n('character')}",
    "discard": lambda o, n, seat: (
        f"Discard {n('character' if 'character' in o else 'district')}"
    ),
    "take_gold": lambda o, n, seat: "Take 2 gold",
    "draw_cards": lambda o, n, seat: "Draw cards",
    "keep": lambda o, n, seat: f"Keep {n('district')}",
    "build": lambda o, n, seat: f"Build {n('district')}",
    "collect_income": lambda o, n, seat: "Collect income",
    "end_turn": lambda o, n, seat: "End the turn",
    "kill": lambda o, n, seat: f"Kill {n('character')}",
    "bewitch": lambda o, n, seat: f"Bewitch {n('character')}",
    "rob": lambda o, n, seat: f"Rob {n('character')}",
    "swap_hands": lambda o, n, seat: f"Swap hands with {seat}",
    "discard_draw": lambda o, n, seat: "Discard cards and draw as many",
    "done": lambda o, n, seat: "Done",
    "wizard": lambda o, n, seat: f"Look at {seat}'s hand",
    "take": lambda o, n, seat: f"Take {n('district')}",
    "build_now": lambda o, n, seat: "Build it now",
    "to_hand": lambda o, n, seat: "Put it in hand",
    "give_crown": lambda o, n, seat: f"Give the crown to {seat}",
    "tribute_card": lambda o, n, seat: f"Pay {n('district')} as tribute",
    "tribute_gold": lambda o, n, seat: "Pay 1 gold as tribute",
    "abbot_tax": lambda o, n, seat: "Take 1 gold from the richest player",
    "navigate": lambda o, n, seat: f"Navigate: take 4 {o.get('take')}",
    "destroy": lambda o, n, seat: f"Destroy {seat}'s {n('district')}",
    "recover": lambda o, n, seat: f"Recover {n('district')} for 1 gold",
    "decline": lambda o, n, seat: "Decline",
    "exchange": lambda o, n, seat: f"Exchange with {seat}: take {n('district')}",
    "give": lambda o, n, seat: f"Give {n('district')}",
    "queen_gold": lambda o, n, seat: "Take 3 gold (Queen)",
    "beautify": lambda o, n, seat: f"Beautify {n('district')}",
    "laboratory": lambda o, n, seat: f"Laboratory: discard {n('district')} for 1 gold",
    "smithy": lambda o, n, seat: "Smithy: pay 2 gold, draw 3",
    "museum": lambda o, n, seat: f"Museum: put {n('district')} under it",
    "armory": lambda o, n, seat: f"Armory: destroy {seat}'s {n('district')}",
    "search": lambda o, n, seat: f"Lighthouse: take {n('district')}",
    "thank": lambda o, n, seat: "Thank the crown holder",
    "keep_silent": lambda o, n, seat: "Keep silent (lose the turn)",
}


def option_label(option: dict, names: dict[str, str]) -> str:
    """How a person reads an option: ``Build Palace 宮殿``, ``Kill Thief 盜賊``."""

    def n(key: str) -> str:
        value = option.get(key)
        return "(hidden)" if value is None else names.get(value, str(value))

    label = OPTION_LABELS.get(option.get("kind"))
    return (
        label(option, n, f"seat {option.get('seat')}")
        if label
        else json.dumps(option, ensure_ascii=False)
    )


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
