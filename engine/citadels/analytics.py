"""Citadels' facts for the dashboards (shape: engine.core.analytics), from the public contract.

The game is stepped again from its seed and recorded actions (the engine's own PRNG makes
that the same game) to see each draft decision as the seat saw it: who chose, in which
position, from which characters. Everything else comes from the public event log of the
final observation and from ``result()``. Nothing here reads the state's private fields, so
the rules modules can change shape freely.

Kinds (per seat and round unless said otherwise; docs/analytics.md defines each figure):
``held`` (subject: character; value: district points the seat built in that character's
turn), ``pick`` (value: pick position, 1 = chose first), ``offered`` (one per character it
could choose; value 1 if it took it: how many it could choose from is the number of these), ``killed`` / ``robbed`` / ``bewitched`` / ``taxed`` (subject: the character
that suffered it), ``built`` / ``destroyed`` (subject: district; value: its points),
``gold`` and ``points`` (subject ``round``; value: the seat's net change over the round),
``face_up`` (per round, no seat: a character discarded face up), ``score`` (per seat, per
source of the final score), ``last_seen`` (per round and character offered: value, the latest
pick position at which it was still offered; seat, the seat offered it then).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from engine.core.analytics import Fact, score_sources

DRAFT_KINDS = frozenset({"draft_pick", "draft_discard"})
# The result()["details"] entries that add up to the final score (seed 001 遊戲結束).
SCORE_SOURCES = ("districts", "five_colours", "complete_city", "purple_bonus")
# seed 001 FAQ ☆軍械庫: the Armory is destroyed to destroy another player's district.
ARMORY = "armory"
# Events that make the named character suffer a power (seed 001 §角色介紹 1, 2; 擴展角色 1).
SUFFERED = {"killed": "killed", "robbed": "robbed", "bewitched": "bewitched"}


@cache
def _district_points() -> dict[str, int]:
    """End-game points of each district id (data/districts.json: ``points`` else ``cost``)."""
    data = json.loads(Path(__file__).with_name("data").joinpath("districts.json").read_text())
    return {d["id"]: d.get("points", d["cost"]) for d in data["districts"]}


def facts(state) -> list[Fact]:
    """Every fact of a finished Citadels game (see the module docstring for the kinds)."""
    draft, starts = _step_through(state)
    holders = {(f.step, f.subject): f.seat for f in draft if f.kind == "pick"}
    observation = state.observation(0)
    events = observation["events"]
    found = draft + _event_facts(events, holders)
    found += _round_changes(events, starts, observation["gold"])
    found += score_sources(state.result()["details"], SCORE_SOURCES)
    return found


def _step_through(state) -> tuple[list[Fact], dict[int, list[int]]]:
    """``pick`` and ``offered`` facts, and each seat's gold at the start of
    each round (by round), by stepping the game again from its record."""
    replay = state.title.new_game(state.players, state.options, state.seed)
    found: list[Fact] = []
    starts: dict[int, list[int]] = {}
    rnd, position, in_draft = 0, 0, False
    seen: dict[str, tuple[int, int]] = {}  # this round: character -> (position, seat) last offered
    for action in state.actions():
        decision = replay.decision()
        if decision.kind in DRAFT_KINDS:
            if not in_draft:
                found += _last_seen(seen, rnd)
                rnd, position, in_draft = rnd + 1, 0, True
                starts[rnd] = replay.observation(decision.seat)["gold"]
            if decision.kind == "draft_pick":
                position += 1
                found += _pick(decision.seat, rnd, position, decision.options, action)
                seen.update((o["character"], (position, decision.seat)) for o in decision.options)
        else:
            in_draft = False
        replay.apply(action)
    return found + _last_seen(seen, rnd), starts


def _last_seen(seen: dict[str, tuple[int, int]], rnd: int) -> list[Fact]:
    """A round's ``last_seen`` facts (value: the latest pick position at which the character
    was still offered; seat: the seat offered it then), emptying ``seen`` for the next."""
    facts = [Fact("last_seen", c, pos, seat=seat, step=rnd) for c, (pos, seat) in seen.items()]
    seen.clear()
    return facts


def _pick(seat: int, rnd: int, position: int, options: list[dict], taken: dict) -> list[Fact]:
    offered = [o["character"] for o in options]
    chosen = taken["character"]
    return [
        Fact("pick", chosen, position, seat=seat, step=rnd),
        *(Fact("offered", c, int(c == chosen), seat=seat, step=rnd) for c in offered),
    ]


def _event_facts(events: list[dict], holders: dict[tuple[int, str], int]) -> list[Fact]:
    """Facts read from the public event log: who held what in whose turn, what happened to
    characters, districts built and destroyed, face-up discards."""
    points = _district_points()
    found: list[Fact] = []
    rnd, calling, turn_points = 0, None, 0
    for event in events:
        kind = event["event"]
        if kind in ("round", "reveal", "reveal_killed", "game_over") and calling:
            found.append(Fact("held", calling[1], turn_points, seat=calling[0], step=rnd))
            calling = None
        if kind == "round":
            rnd = event["round"]
            found += [Fact("face_up", c, step=rnd) for c in event["face_up"]]
        elif kind == "reveal":
            calling, turn_points = (event["seat"], event["character"]), 0
        elif kind == "reveal_killed":
            found.append(Fact("held", event["character"], 0, seat=event["seat"], step=rnd))
        elif kind in SUFFERED and (rnd, event["character"]) in holders:
            seat = holders[(rnd, event["character"])]
            found.append(Fact(SUFFERED[kind], event["character"], seat=seat, step=rnd))
        elif kind == "tax" and calling:
            found.append(Fact("taxed", calling[1], seat=event["from"], step=rnd))
        elif kind == "built":
            value = points.get(event["district"], 0)
            found.append(Fact("built", event["district"], value, seat=event["seat"], step=rnd))
            if calling and calling[0] == event["seat"]:
                turn_points += value
        elif kind == "destroyed":
            value = points.get(event["district"], 0)
            found.append(
                Fact("destroyed", event["district"], value, seat=event["victim"], step=rnd)
            )
            if event.get("by") == ARMORY:  # the Armory leaves its owner's city too
                value = points.get(ARMORY, 0)
                found.append(Fact("destroyed", ARMORY, value, seat=event["seat"], step=rnd))
    if calling:
        found.append(Fact("held", calling[1], turn_points, seat=calling[0], step=rnd))
    return found


def _round_changes(events: list[dict], starts: dict[int, list[int]], final_gold) -> list[Fact]:
    """Per seat and round: the net change of gold (from the gold at each round's start) and
    of city points (built, beautified, exchanged and destroyed districts)."""
    points = _district_points()
    change: dict[tuple[int, int], int] = {}
    rnd = 0
    for event in events:
        kind = event["event"]
        if kind == "round":
            rnd = event["round"]
        elif kind == "built":
            _add(change, event["seat"], rnd, points.get(event["district"], 0))
        elif kind == "beautified":
            _add(change, event["seat"], rnd, 1)  # seed 001 §擴展角色介紹 9 美術家: +1 point
        elif kind == "destroyed":
            _add(change, event["victim"], rnd, -points.get(event["district"], 0))
            if event.get("by") == ARMORY:
                _add(change, event["seat"], rnd, -points.get(ARMORY, 0))
        elif kind == "exchanged":
            swing = points.get(event["took"], 0) - points.get(event["gave"], 0)
            _add(change, event["seat"], rnd, swing)
            _add(change, event["victim"], rnd, -swing)
    rounds = sorted(starts)
    found: list[Fact] = []
    for i, r in enumerate(rounds):
        end = starts[rounds[i + 1]] if i + 1 < len(rounds) else final_gold
        for seat in range(len(final_gold)):
            found.append(Fact("gold", "round", end[seat] - starts[r][seat], seat=seat, step=r))
            found.append(Fact("points", "round", change.get((seat, r), 0), seat=seat, step=r))
    return found


def _add(change: dict, seat: int, rnd: int, value: int) -> None:
    change[(seat, rnd)] = change.get((seat, rnd), 0) + value
