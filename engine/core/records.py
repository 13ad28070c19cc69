"""Replay records that prove what they replay: the record's formats, its seal, and replay.

A record (``State.record()``, format 3) holds what rebuilds the game — title, rules and
engine versions, players, resolved options, seed, chance outcomes, actions — and, under
``final``, a seal made when it was written. The chance outcomes and the actions are packed
(``engine/core/digits.py``): ``{"count": n, "code": "<base64url>"}``, each action stored as
its option's index among the decision's options, each outcome in the bits its range needs
(a 4-player Citadels game: about 130 bytes for both, where the lists of format 2 took 4 KB).
The seal:

- ``over``: whether the game had ended, and ``actions``: how many actions it took;
- ``record_digest``: SHA-256 of the record's canonical JSON without ``final`` (and without
  a platform's ``signature`` and the bots' ``decision_logs`` it serves beside the game), so any later change to the seed, options, chance outcomes,
  actions or versions is seen;
- ``result_digest``: SHA-256 of ``result()``'s canonical JSON once the game is over (else
  null), so a record that replays to another result than the stored one is seen.

A digest shows a record was changed, not who wrote it: anyone can recompute one. A platform
that serves records signs them (``engine/core/signatures.py``).

Older formats keep replaying. Format 2 stores the actions as a list of option dicts and the
chance outcomes as a list, and its digest leaves the seed out (the outcomes replace the seed
on replay): :func:`convert` turns it into format 3 and back. Format 1 (before the seal)
replays only through ``allow_version=True``, unproven.

``replay`` refuses a record of another rules version unless ``allow_version=True`` is passed:
the documented compatibility path, which replays the actions under this engine's rules (each
must still be legal, and the record must be unaltered) but cannot promise the stored result,
so the result digest is not compared.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import errors
from .digits import Digits, Listed, pack

RECORD_FORMAT = 3
# Formats whose chance outcomes and actions are plain lists (outcomes, option dicts).
LIST_FORMATS = frozenset({1, 2})
# Format 1 records (before the seal) replay only through ``allow_version=True``, unproven.
LEGACY_FORMATS = frozenset({1})
FORMATS = LIST_FORMATS | {RECORD_FORMAT}
# What each format's record digest leaves out: the seal itself, a platform's signature and
# the bots' notes a platform serves beside the game (``decision_logs``: not the game, but
# signed with it); format 2 also the seed.
UNSEALED = {
    3: ("final", "signature", "decision_logs"),
    2: ("final", "seed", "signature", "decision_logs"),
}


def write(state, engine_version: str, fmt: int = RECORD_FORMAT) -> dict[str, Any]:
    """The record of ``state`` in format ``fmt`` (3, or 2 for a reader of the old lists),
    sealed (see the module doc)."""
    record = {
        "format": fmt,
        "title": state.title.id,
        "rules_version": state.title.rules_version,
        "engine_version": engine_version,
        "players": state.players,
        "options": state.options,
        "seed": state.seed,
    }
    chance = state._chance
    if fmt == RECORD_FORMAT:
        record["chance"] = {
            "count": len(chance.log),
            "code": pack(zip(chance.log, chance.bounds, strict=True)),
        }
        record["actions"] = {"count": len(state._picks), "code": pack(state._picks)}
    else:
        record["chance"] = list(chance.log)
        record["actions"] = list(state._actions)
    record["final"] = seal(record, state.result() if state.is_over() else None)
    return record


def digest(value: Any) -> str:
    """``sha256:<hex>`` of ``value``'s canonical JSON (sorted keys, no spaces, UTF-8).

    The same after a JSON round trip (tuples become lists), so a record read back from a file
    or a database digests as it did when written."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(record: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
    """The ``final`` entry of a record: end, length, and the two digests (see module doc)."""
    return {
        "over": result is not None,
        "actions": action_count(record),
        "record_digest": _record_digest(record),
        "result_digest": None if result is None else digest(result),
    }


def action_count(record: dict[str, Any]) -> int:
    """How many actions ``record`` holds, in any format."""
    actions = record["actions"]
    return len(actions) if isinstance(actions, list) else actions["count"]


def _record_digest(record: dict[str, Any]) -> str:
    left_out = UNSEALED.get(record.get("format"), UNSEALED[RECORD_FORMAT])
    return digest({k: v for k, v in record.items() if k not in left_out})


def convert(title, record: dict[str, Any], fmt: int) -> dict[str, Any]:
    """The same game's record in format ``fmt`` (2 or 3), with its versions as written.

    Replays ``record`` first, with every check of :func:`replay`: a record that does not
    replay as stored is refused (``ReplayMismatch``), never converted into one that would."""
    if fmt not in FORMATS - LEGACY_FORMATS:
        raise ValueError(f"records convert to format 2 or {RECORD_FORMAT}, not {fmt!r}")
    state = replay(title, record)
    return write(state, record["engine_version"], fmt)


def expand(title, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its chance outcomes and actions as plain lists (outcomes, option
    dicts), for people and programs that read them; it is checked by a replay first. The
    result is a format 2 record (sealed as format 2)."""
    return convert(title, record, 2)


def replay(title, record: dict[str, Any], allow_version: bool = False):
    """Rebuild the final state of ``record`` with ``title``; see ``Title.replay``."""
    final = _check_header(title, record, allow_version)
    # A record cut short (its last actions dropped) is reported as incomplete, not as altered:
    # its digest cannot match, but the seal still says how long the game was.
    truncated = (
        final is not None
        and record["format"] in LIST_FORMATS
        and final["over"]
        and action_count(record) < final["actions"]
    )
    if final is not None and not truncated and _record_digest(record) != final["record_digest"]:
        raise errors.RecordAltered(
            "the record was changed after it was written: its "
            + ("seed, " if record["format"] == RECORD_FORMAT else "")
            + "options, chance outcomes, actions or versions no longer match the digest "
            "written with it, so it is no evidence of the game that was played"
        )
    state = _play(title, record)
    if not state.is_over():
        _refuse_unfinished(state, record, final)
    elif final is not None and (truncated or not final["over"]):
        raise errors.ReplayDiverged(
            f"the game ends on replay after {action_count(record)} actions, but the record "
            f"was written for a game that {'took more' if truncated else 'had not ended'}: "
            "this engine does not play it as it was played"
        )
    if final is not None and final["over"] and not _other_version(title, record):
        stored, replayed = final["result_digest"], digest(state.result())
        if stored != replayed:
            raise errors.ReplayDiverged(
                "the record replays to another result than the one stored with it (result "
                f"digest {replayed[:19]}… instead of {str(stored)[:19]}…): this engine "
                f"({title.id} rules {title.rules_version}) no longer plays the game as it "
                f"was played by engine {record.get('engine_version')!r}"
            )
    return state


def _other_version(title, record) -> bool:
    return record.get("rules_version") != title.rules_version


def _check_header(title, record, allow_version) -> dict | None:
    """Title, format, rules version and seal; returns ``final`` (None for a legacy record)."""
    if not isinstance(record, dict):
        raise errors.ReplayMismatch(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("title") != title.id:
        raise errors.ReplayMismatch(f"the record is for {record.get('title')!r}, not {title.id!r}")
    fmt = record.get("format")
    legacy = fmt in LEGACY_FORMATS
    if fmt not in FORMATS:
        raise errors.RecordVersionMismatch(
            f"record format {fmt!r} is not one this engine reads (it writes format "
            f"{RECORD_FORMAT}, reads format 2, and format 1 only with allow_version)"
        )
    _check_runs(record, fmt)
    if (legacy or _other_version(title, record)) and not allow_version:
        what = (
            f"format {fmt} (written before records carried a digest)"
            if legacy
            else f"{title.id} rules version {record.get('rules_version')!r}"
        )
        raise errors.RecordVersionMismatch(
            f"the record is of {what}, but this engine plays {title.id} rules version "
            f"{title.rules_version!r}: replay it with the engine that wrote it, or allow the "
            "version (Title.replay(record, allow_version=True); CLI: --allow-version) to replay "
            "its actions under these rules without checking the stored result"
        )
    if legacy:
        return None
    final = record.get("final")
    if not isinstance(final, dict) or not {"over", "actions", "record_digest"} <= final.keys():
        raise errors.ReplayMismatch(
            "the record has no complete 'final' seal (over, actions, record_digest, "
            f"result_digest), which every format {RECORD_FORMAT} record carries"
        )
    if not isinstance(final["actions"], int):
        raise errors.ReplayMismatch("malformed record: 'final.actions' must be a whole number")
    return final


def _check_runs(record, fmt) -> None:
    """The chance outcomes and actions have their format's shape."""
    if fmt in LIST_FORMATS:
        if not isinstance(record.get("actions"), list) or not isinstance(
            record.get("chance"), list
        ):
            raise errors.ReplayMismatch("malformed record: 'actions' and 'chance' must be lists")
        return
    for run in ("chance", "actions"):
        packed = record.get(run)
        if not isinstance(packed, dict) or not isinstance(packed.get("count"), int):
            raise errors.ReplayMismatch(
                f"malformed record: '{run}' must be {{'count': n, 'code': '…'}} in format "
                f"{RECORD_FORMAT}"
            )


def _play(title, record):
    *_, (state, _) = steps(title, record)
    return state


def steps(title, record: dict[str, Any]):
    """Yield ``(state, option)`` before each recorded action is applied (the option about
    to be applied), then ``(final state, None)``: one state, advanced after each yield
    (``clone()`` it to keep a position). Rebuilt from the record's chance outcomes, in any
    format; the seal is not checked here (``replay`` checks it). Raises ReplayMismatch."""
    packed = record.get("format") == RECORD_FORMAT
    try:
        if packed:
            chance = Digits(record["chance"]["code"], record["chance"]["count"], "chance outcomes")
            actions = Digits(record["actions"]["code"], record["actions"]["count"], "actions")
        else:
            chance = Listed(list(record["chance"]), "chance outcomes")
            listed = list(record["actions"])
        total = action_count(record)
        state = title._start(record["players"], record["options"], record["seed"], chance)
        for step in range(total):
            if state.is_over():
                raise errors.ReplayDiverged(
                    f"the game ends after action {step}, but the record has "
                    f"{total - step} more: this engine ends it earlier than "
                    "the game that was recorded"
                )
            options = state.decision().options
            action = options[actions.take(len(options))] if packed else listed[step]
            yield state, action
            try:
                state.apply(action)
            except errors.IllegalAction as err:
                decision = state.decision()
                raise errors.ReplayDiverged(
                    f"action {step} (seat {decision.seat}, {decision.kind!r} decision) is not "
                    f"legal on replay: {err}"
                ) from err
    except (KeyError, TypeError) as err:
        raise errors.ReplayMismatch(f"malformed record: {err!r}") from err
    except errors.ConfigError as err:
        raise errors.ReplayMismatch(f"the record's configuration is refused: {err}") from err
    if chance.left():
        raise errors.ReplayDiverged("the record has chance outcomes the game never drew")
    if packed and actions.left():
        raise errors.ReplayDiverged("the record has actions after the end of the game")
    yield state, None


def _refuse_unfinished(state, record, final) -> None:
    """An unfinished replay is fine only for a record sealed as unfinished."""
    if final is not None and not final["over"]:
        if final["actions"] != action_count(record):
            raise errors.IncompleteRecord(
                f"the record is incomplete: it holds {action_count(record)} actions, but "
                f"{final['actions']} were written"
            )
        return
    held = action_count(record)
    decision = state.decision()
    waiting = f"seat {decision.seat} still has a {decision.kind!r} decision to make"
    if final is not None:
        missing = final["actions"] - held
        raise errors.IncompleteRecord(
            f"the record is incomplete: it holds {held} actions, but the game it recorded "
            f"ended after {final['actions']}"
            + (f" ({missing} missing at the end)" if missing > 0 else "")
            + f"; on replay {waiting}"
        )
    raise errors.IncompleteRecord(
        f"the record is incomplete: it stops after {held} actions, before the end of the "
        f"game ({waiting})"
    )
