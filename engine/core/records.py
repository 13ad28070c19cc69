"""Replay records that prove what they replay: the seal written with a record, and replay.

A record (``State.record()``) holds what rebuilds the game — title, rules version, players,
resolved options, chance outcomes, actions — and, under ``final``, a seal made when it was
written:

- ``over``: whether the game had ended, and ``actions``: how many actions it took;
- ``record_digest``: SHA-256 of the record's canonical JSON without ``final`` and ``seed``
  (the chance outcomes replace the seed on replay, so it proves nothing), so any later change
  to the options, chance outcomes, actions or versions is seen;
- ``result_digest``: SHA-256 of ``result()``'s canonical JSON once the game is over (else
  null), so a record that replays to another result than the stored one is seen.

The digests are computed from the record and from ``result()`` only, the same for every title.
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

RECORD_FORMAT = 2
# Format 1 records (before the seal) replay only through ``allow_version=True``, unproven.
LEGACY_FORMATS = frozenset({1})
UNSEALED = ("final", "seed")


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
        "actions": len(record["actions"]),
        "record_digest": _record_digest(record),
        "result_digest": None if result is None else digest(result),
    }


def _record_digest(record: dict[str, Any]) -> str:
    return digest({k: v for k, v in record.items() if k not in UNSEALED})


def replay(title, record: dict[str, Any], allow_version: bool = False):
    """Rebuild the final state of ``record`` with ``title``; see ``Title.replay``."""
    final = _check_header(title, record, allow_version)
    # A record cut short (its last actions dropped) is reported as incomplete, not as altered:
    # its digest cannot match, but the seal still says how long the game was.
    truncated = final is not None and final["over"] and len(record["actions"]) < final["actions"]
    if final is not None and not truncated and _record_digest(record) != final["record_digest"]:
        raise errors.RecordAltered(
            "the record was changed after it was written: its options, chance outcomes, "
            "actions or versions no longer match the digest written with it, so it is no "
            "evidence of the game that was played"
        )
    state = _play(title, record)
    if not state.is_over():
        _refuse_unfinished(state, record, final)
    elif final is not None and (truncated or not final["over"]):
        raise errors.ReplayDiverged(
            f"the game ends on replay after {len(record['actions'])} actions, but the record "
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
    if not isinstance(record.get("actions"), list) or not isinstance(record.get("chance"), list):
        raise errors.ReplayMismatch("malformed record: 'actions' and 'chance' must be lists")
    fmt = record.get("format")
    legacy = fmt in LEGACY_FORMATS
    if fmt != RECORD_FORMAT and not legacy:
        raise errors.RecordVersionMismatch(
            f"record format {fmt!r} is not one this engine reads (it writes format "
            f"{RECORD_FORMAT}; format 1 replays only with allow_version)"
        )
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


def _play(title, record):
    try:
        state = title._start(
            record["players"], record["options"], record["seed"], list(record["chance"])
        )
        for step, action in enumerate(record["actions"]):
            if state.is_over():
                raise errors.ReplayDiverged(
                    f"the game ends after action {step}, but the record has "
                    f"{len(record['actions']) - step} more: this engine ends it earlier than "
                    "the game that was recorded"
                )
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
    if state._chance._cursor != len(record["chance"]):
        raise errors.ReplayDiverged("the record has chance outcomes the game never drew")
    return state


def _refuse_unfinished(state, record, final) -> None:
    """An unfinished replay is fine only for a record sealed as unfinished."""
    if final is not None and not final["over"]:
        if final["actions"] != len(record["actions"]):
            raise errors.IncompleteRecord(
                f"the record is incomplete: it holds {len(record['actions'])} actions, but "
                f"{final['actions']} were written"
            )
        return
    held = len(record["actions"])
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
