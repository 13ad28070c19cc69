"""Positions: a game's whole state at one decision, as versioned JSON (docs/positions.md).

A position holds everything the rules read next, hidden information included (face-down
stacks, hands, the generator's state), the seat to move with its options, and the game so far
(actions and chance outcomes), so that a loaded position offers the same options and, under the
same choices, plays on to the same end as the game it was taken from. It is written by
:func:`position_of` and read by ``title.load_position`` (:func:`load_position`); titles need no
code of their own: a state's ``__slots__`` are its fields, encoded by type.

    python -m engine position RECORD --at N [-o FILE]
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .chance import Chance
from .errors import ConfigError
from .version import ENGINE_VERSION

if TYPE_CHECKING:  # for annotations only: the contract calls this module
    from .contract import State, Title

POSITION_FORMAT = "meeple-arena-position"
POSITION_VERSION = 1
# Fields of State itself, written as top-level fields of the position rather than under "state".
_BASE = ("title", "players", "options", "seed", "_chance", "_actions", "_decision")
_TAG = "__"  # an object with this key is a tagged value (tuple, set, map), never a plain dict


class PositionRefused(ConfigError):
    """A position this engine cannot load; the message says why and what to do."""


def position_of(state: State, played: dict | None = None) -> dict[str, Any]:
    """The position before ``state``'s pending decision (``played``: the option the game
    took there, when known). Raises ValueError for a finished game."""
    if state.is_over():
        raise ValueError("the game is over: there is no decision to take a position at")
    decision = state.decision()
    fields, refs = {}, {}
    for name in _slots(type(state)):
        if name in _BASE or name in state.CACHES or not hasattr(state, name):
            continue
        value = getattr(state, name)
        ref = _reference(state.title, value)
        if ref:
            refs[name] = ref
        else:
            fields[name] = _encode(value)
    return {
        **_header(state),
        "seed": state.seed,
        "decision": len(state._actions) + 1,
        "to_move": {"seat": decision.seat, "kind": decision.kind, "options": decision.options},
        "played": played,
        "actions": list(state._actions),
        "chance": state._chance.snapshot(),
        "references": refs,
        "state": fields,
    }


def load_position(title: Title, data: Any) -> State:
    """The state a position describes, ready to decide. Raises :class:`PositionRefused` for
    a document that is not a position of this title and rules version."""
    _check(title, data)
    state = title.state_class.__new__(title.state_class)
    chance = Chance.restore(data["seed"], data["chance"])
    state._init_base(title, data["players"], data["options"], data["seed"], chance)
    state._actions = list(data["actions"])
    targets = {"title": title, "components": getattr(title, "components", None)}
    for name, ref in data["references"].items():
        setattr(state, name, targets[ref])
    for name, empty in state.CACHES.items():
        setattr(state, name, empty())
    for name, value in data["state"].items():
        if name not in _slots(type(state)):
            raise PositionRefused(f"the position has a field {name!r} that {title.name} has not")
        setattr(state, name, _decode(value))
    state.decision()  # from the fields: an edited position (a test's scenario) decides anew
    return state


def edited(state: State, edit) -> State:
    """A new state: ``state``'s position with ``edit(fields)`` applied to its ``state`` fields,
    loaded back. How tests outside the engine set up a rule scenario without touching a
    state's internals (the edit must leave a position the rules can play)."""
    position = json.loads(json.dumps(state.position()))
    edit(position["state"])
    return state.title.load_position(position)


def reload(state: State, edit=None) -> None:
    """Load ``state``'s own position back into it, after ``edit(fields)`` when given: the
    decision comes anew from the fields. How a test outside the engine sets up a scenario in
    a state its caller holds: it edits the position's fields, or changes the state's public
    fields and reloads, never touching a state's internals (the result must be a position
    the rules can play). The actions taken so far stay the record's."""
    loaded = edited(state, edit or (lambda fields: None))
    for name in _slots(type(state)):
        if name != "_picks" and hasattr(loaded, name):
            setattr(state, name, getattr(loaded, name))


def seat_view_of(state: State, seat: int) -> dict[str, Any]:
    """One seat's view of the position before ``state``'s pending decision: what that seat's
    bot knows there, and nothing it does not (no seed, generator, actions or hidden fields):
    its observation, and the options when the decision is its own (what its bot was sent).
    A seat's view cannot be loaded to play on; the whole position can, once the game is
    over. Raises ValueError for a finished game or a seat not at the table."""
    if state.is_over():
        raise ValueError("the game is over: there is no decision to take a position at")
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} is not at this table (seats 0 to {state.players - 1})")
    decision = state.decision()
    return {
        **_header(state),
        "view": seat,
        "decision": len(state._actions) + 1,
        "to_move": {
            "seat": decision.seat,
            "kind": decision.kind,
            "options": decision.options if decision.seat == seat else None,
        },
        "observation": state.observation(seat),
    }


def position_in_record(title: Title, record: dict, at: int) -> dict[str, Any]:
    """The position before decision ``at`` (1 = the first) of a recorded game, with the option
    the game took there. The record is replayed first (``title.replay``: it must prove what it
    holds); the game is then played again from its seed to that decision, so the position
    carries the generator's state and plays on as the game did."""
    live, played = _before(title, record, at)
    return position_of(live, played)


def seat_view_in_record(title: Title, record: dict, seat: int, at: int | None = None) -> dict:
    """Seat ``seat``'s view (:func:`seat_view_of`) before decision ``at`` of a recorded game,
    which may still be going on (a running game's record so far); ``at`` None: the latest."""
    return seat_view_of(_before(title, record, at)[0], seat)


def _before(title: Title, record: dict, at: int | None) -> tuple[State, dict | None]:
    """The game of ``record`` played again from its seed to just before decision ``at`` (None:
    the decision pending at the record's end), and the option the game took there."""
    replayed = title.replay(record)
    actions = replayed._actions
    last = len(actions) + (0 if replayed.is_over() else 1)
    at = last if at is None else at
    if not 1 <= at <= last:
        raise ConfigError(f"--at {at}: the game has decisions 1 to {last}")
    live = title.new_game(replayed.players, replayed.options, replayed.seed)
    for action in actions[: at - 1]:
        live.apply(action)
    if live._chance.log != replayed._chance.log[: len(live._chance.log)]:
        raise ConfigError(
            "the record's seed does not give its chance outcomes, so its hidden state before "
            "that decision cannot be rebuilt"
        )
    return live, actions[at - 1] if at <= len(actions) else None


def _header(state: State) -> dict[str, Any]:
    """What every position and seat's view starts with: the format, who wrote it, the set-up."""
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "title": state.title.id,
        "rules_version": state.title.rules_version,
        "engine_version": ENGINE_VERSION,
        "players": state.players,
        "options": state.options,
    }


def read_seat_view(title: Title, data: Any) -> dict[str, Any]:
    """``data`` checked to be a seat's view (:func:`seat_view_of`) of ``title`` at one of that
    seat's own decisions, the only ones its bot was asked; raises :class:`PositionRefused`
    saying why not."""
    _check(title, data, view=True)
    to_move, seat = data.get("to_move"), data.get("view")
    if not isinstance(to_move, dict) or not isinstance(data.get("observation"), dict):
        raise PositionRefused("a seat's view needs its to_move and observation objects")
    if to_move.get("seat") != seat or not isinstance(to_move.get("options"), list):
        raise PositionRefused(
            f"at decision {data.get('decision')} seat {to_move.get('seat')} is to move, not seat "
            f"{seat}: its bot was asked nothing there; take the view at one of its own decisions"
        )
    return data


def _check(title: Title, data: Any, *, view: bool = False) -> None:
    if not isinstance(data, dict) or data.get("format") != POSITION_FORMAT:
        raise PositionRefused(
            "not a position: expected a JSON object with "
            f'"format": "{POSITION_FORMAT}" (python -m engine position writes one)'
        )
    if view and data.get("view") is None:
        raise PositionRefused("this is a whole position, not a seat's view")
    if not view and data.get("view") is not None:
        raise PositionRefused(
            f"this is seat {data.get('view')}'s view of the game (what its bot was sent, no "
            "hidden information), which cannot be played on: its observation and options are "
            "in the file; the whole position is offered once the game is over"
        )
    if data.get("version") != POSITION_VERSION:
        raise PositionRefused(
            f"position format version {data.get('version')!r}; this engine ({ENGINE_VERSION}) "
            f"reads version {POSITION_VERSION}: write the position again with this engine"
        )
    if data.get("title") != title.id:
        raise PositionRefused(
            f"the position is of {data.get('title')!r}, not {title.id!r}: load it with its title"
        )
    if data.get("rules_version") != title.rules_version:
        raise PositionRefused(
            f"the position was taken under {title.id} rules {data.get('rules_version')!r}; "
            f"this engine plays rules {title.rules_version!r}: take it again from the record"
        )


def _slots(cls) -> list[str]:
    return [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())]


def _reference(title: Title, value) -> str | None:
    """The name of a shared object a state field points at (never copied into a position)."""
    if value is title:
        return "title"
    if value is not None and value is getattr(title, "components", None):
        return "components"
    return None


def _encode(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {_TAG: "tuple", "items": [_encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        items = sorted((_encode(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return {_TAG: type(value).__name__, "items": items}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and _TAG not in value:
            return {k: _encode(v) for k, v in value.items()}
        return {_TAG: "map", "items": [[_encode(k), _encode(v)] for k, v in value.items()]}
    raise TypeError(f"a position cannot hold a {type(value).__name__}")


_DECODERS = {
    "tuple": lambda items: tuple(_decode(v) for v in items),
    "set": lambda items: {_decode(v) for v in items},
    "frozenset": lambda items: frozenset(_decode(v) for v in items),
    "map": lambda items: {_decode(k): _decode(v) for k, v in items},
}


def _decode(value):
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if _TAG in value:
            return _DECODERS[value[_TAG]](value["items"])
        return {k: _decode(v) for k, v in value.items()}
    return value
