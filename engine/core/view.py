"""The game viewer's engine side: what each perspective may see, frame by frame.

One interface for every title. A title's package has a ``view`` module with
``view(state, perspective, chosen=None) -> dict`` (a drawable description of the state, built
only from the State's public contract and its observations), ``legend(title) -> dict`` (static
names, colours and geometry the drawing needs once) and ``RENDERER`` (the path of its
JavaScript drawing code). This module finds that module from the title object, replays
records into frames, delta-encodes them and writes the self-contained offline HTML file.

Perspectives: ``"public"`` (what every spectator may know), a seat number (exactly that
seat's observation, plus the options when it is that seat's decision) and ``"all"`` (every
hand), which is refused until the game is over.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from . import records
from .contract import State, Title
from .errors import ConfigError, EngineError, ReplayMismatch
from .registry import title as title_by_id

PUBLIC = "public"
ALL = "all"
ASSETS = Path(__file__).with_name("viewer")


class PerspectiveRefused(EngineError):
    """A perspective that may not be shown (every hand before the end of the game)."""


Perspective = str | int


def parse_perspective(value: Any, players: int) -> Perspective:
    """``"public"``, ``"all"`` or a seat number (also from text such as ``"2"``)."""
    if value in (PUBLIC, ALL):
        return value
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"perspective is 'public', 'all' or a seat number, not {value!r}"
        ) from None
    if not 0 <= seat < players:
        raise ConfigError(f"seat {seat} is not at this table of {players}")
    return seat


def view_module(title: Title) -> ModuleType:
    """The ``view`` module of the title's package (found by where the title class lives)."""
    package = sys.modules[type(title).__module__].__package__
    try:
        return importlib.import_module(f"{package}.view")
    except ModuleNotFoundError as err:
        if err.name != f"{package}.view":
            raise
        raise ConfigError(f"{title.name} has no viewer") from None


def has_viewer(title_id: str) -> bool:
    """Whether the title ships a ``view`` module (a test title may not)."""
    title = title_by_id(title_id)
    package = sys.modules[type(title).__module__].__package__
    return importlib.util.find_spec(f"{package}.view") is not None


def view(state: State, perspective: Perspective) -> dict[str, Any]:
    """A drawable description of ``state`` from ``perspective``; ``"all"`` only once over."""
    perspective = parse_perspective(perspective, state.players)
    if perspective == ALL and not state.is_over():
        raise PerspectiveRefused("every hand is shown only once the game is over")
    return view_module(state.title).view(state, perspective)


def decision_frame(decision, label: str, sees_options: bool, describe, chosen, hide=None) -> dict:
    """The decision part of a frame: who decides what; the options as ``describe`` reads
    them if the perspective ``sees_options``; the ``chosen`` option (the record's next) as an
    index into them, or else only as a label of ``hide(chosen)`` (what others learn of it)."""
    out = {
        "seat": decision.seat,
        "kind": decision.kind,
        "label": label,
        "options": [describe(o) for o in decision.options] if sees_options else None,
        "chosen": None,
        "chosen_label": None,
    }
    if chosen is not None:
        if sees_options:
            if chosen not in decision.options:
                raise ReplayMismatch(f"the recorded option {chosen} is not offered here")
            out["chosen"] = decision.options.index(chosen)
        out["chosen_label"] = describe(chosen if sees_options or hide is None else hide(chosen))
    return out


# -- stepping through a record --------------------------------------------------------------


def states(record: dict[str, Any]):
    """Yield ``(state, action)`` at each recorded decision, then ``(final state, None)``:
    one state, advanced after each yield (``clone()`` it to keep a position).

    The game is rebuilt from the record's chance outcomes with its recorded actions applied
    one by one, in any record format (``engine.core.records.steps``); a record that does not
    rebuild a game is refused rather than shown wrong. Raises ReplayMismatch.
    """
    yield from records.steps(_title_of(record), record)


def frames(record: dict[str, Any], perspective: Perspective) -> list[dict[str, Any]]:
    """One frame per decision of the record (its option about to be applied marked, where the
    perspective may see it), then the final position. ``"all"`` needs a finished game."""
    return next(iter(frames_by(record, [perspective]).values()))


def frames_by(record: dict[str, Any], perspectives: list[Perspective]) -> dict[str, list[dict]]:
    """``frames`` of several perspectives from one replay, by the perspective's name."""
    module = view_module(_title_of(record))
    wanted = [parse_perspective(p, _players(record)) for p in perspectives]
    out: dict[str, list[dict]] = {str(p): [] for p in wanted}
    final = None
    for state, action in states(record):  # each view is taken before the next apply
        for p in wanted:
            out[str(p)].append(module.view(state, p, chosen=action))
        final = state
    if ALL in wanted and not final.is_over():
        raise PerspectiveRefused("every hand is shown only once the game is over")
    return out


def _players(record: Any) -> int:
    return record.get("players", 0) if isinstance(record, dict) else 0


def _title_of(record: Any) -> Title:
    if not isinstance(record, dict):
        raise ReplayMismatch("a record is a JSON object")
    try:
        return title_by_id(record.get("title"))
    except ConfigError as err:
        raise ReplayMismatch(str(err)) from None


# -- delta encoding -------------------------------------------------------------------------


def delta(old: Any, new: Any, path: tuple = ()) -> list[list]:
    """Patches that turn ``old`` into ``new``: ``[path, value]`` sets, ``[path]`` deletes and
    ``[path, items, 1]`` appends to a list that only grew. ``patch`` applies them."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[list] = [[[*path, k]] for k in old if k not in new]
        for k, v in new.items():
            if k in old:
                out += delta(old[k], v, (*path, k))
            else:
                out.append([[*path, k], v])
        return out
    if isinstance(old, list) and isinstance(new, list) and old and len(new) >= len(old):
        if new[: len(old)] == old:
            return [[list(path), new[len(old) :], 1]]
        if len(new) == len(old):
            out = []
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                out += delta(a, b, (*path, i))
            if len(json.dumps(out)) < len(json.dumps(new)):
                return out
    return [[list(path), new]]


def patch(value: Any, patches: list[list]) -> Any:
    """Apply ``delta`` patches to a copy of ``value`` (the viewer's JavaScript does the same)."""
    value = json.loads(json.dumps(value))
    for p in patches:
        path = p[0]
        if not path:
            value = value + p[1] if len(p) == 3 else json.loads(json.dumps(p[1]))
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        if len(p) == 1:
            del parent[path[-1]]
        elif len(p) == 3:
            parent[path[-1]].extend(p[1])
        else:
            parent[path[-1]] = p[1]
    return value


def _pack(all_frames: list[dict], labels: list[str], number: dict[str, int]) -> list[dict]:
    """The frames with their options' labels replaced by numbers into ``labels`` (extended)."""
    packed = []
    for frame in all_frames:
        decision = frame.get("decision")
        if decision and decision.get("options") is not None:
            options = []
            for text in decision["options"]:
                if text not in number:
                    number[text] = len(labels)
                    labels.append(text)
                options.append(number[text])
            frame = {**frame, "decision": {**decision, "options": options}}
        packed.append(frame)
    return packed


def _sequence(packed: list[dict]) -> dict[str, Any]:
    # The last frame also whole: the offline file opens there without decoding the rest.
    return {
        "first": packed[0],
        "deltas": [delta(a, b) for a, b in zip(packed, packed[1:], strict=False)],
        "last": packed[-1],
    }


def encode(all_frames: list[dict]) -> dict[str, Any]:
    """The first frame whole, each next one as patches against the one before, and the last
    whole again. The decisions' option labels are numbers into one ``labels`` list (menus
    repeat a lot)."""
    labels: list[str] = []
    return {"labels": labels, **_sequence(_pack(all_frames, labels, {}))}


def decode(encoded: dict[str, Any]) -> list[dict]:
    """Every frame back from ``encode``'s output (for tests and tools)."""
    out = [encoded["first"]]
    for patches in encoded["deltas"]:
        out.append(patch(out[-1], patches))
    return [_with_labels(f, encoded["labels"]) for f in out]


def decode_perspective(data: dict[str, Any], name: str) -> list[dict]:
    """Every frame of one perspective of ``viewer_data`` (for tests and tools)."""
    return [_with_labels(f, data["labels"]) for f in _frames_with_numbers(data, name)]


def _with_labels(frame: dict, labels: list[str]) -> dict:
    decision = frame.get("decision")
    if decision and decision.get("options") is not None:
        options = [labels[i] for i in decision["options"]]
        frame = {**frame, "decision": {**decision, "options": options}}
    return frame


def _frames_with_numbers(data, name) -> list[dict]:
    encoded = data["perspectives"][name]
    if "base" in encoded:
        base = _frames_with_numbers(data, encoded["base"])
        return [patch(a, p) for a, p in zip(base, encoded["beside"], strict=True)]
    out = [encoded["first"]]
    for patches in encoded["deltas"]:
        out.append(patch(out[-1], patches))
    return out


# -- what the viewer page is given ------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """Something to flag on the timeline: a fault, a disqualification, the end of the game."""

    frame: int
    kind: str
    seat: int | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"frame": self.frame, "kind": self.kind, "seat": self.seat, "text": self.text}


def timeline_marks(
    decisions: int,
    faults: list[list[dict]] | None = None,
    seat_status: list[str] | None = None,
    *,
    details_for: set[int] = frozenset(),
) -> list[dict[str, Any]]:
    """Marks for ``decisions`` decisions: every seat's faults (their kind for everyone; the
    message and the option played instead only for the seats in ``details_for``), the fault
    that disqualified a seat, and the end. Fault ``decision`` ids count from 1, like frames
    shown to people (``#d1`` is frame 0)."""
    marks = []
    for seat, seat_faults in enumerate(faults or []):
        disqualified = bool(seat_status) and seat_status[seat] == "disqualified"
        for n, fault in enumerate(seat_faults or []):
            number = fault.get("decision") or 1
            kind = "disqualified" if disqualified and n == len(seat_faults) - 1 else "fault"
            text = f"{seat_label(seat)}: {fault.get('kind')}"
            if kind == "disqualified":
                text += " (disqualified: fallback to the end)"
            if seat in details_for:
                text += f" — {fault.get('message', '')}"
                if fault.get("applied") is not None:
                    text += f"; played instead: {json.dumps(fault['applied'])}"
            marks.append(Mark(min(number - 1, decisions), kind, seat, text))
    marks.append(Mark(decisions, "end", None, "End of the game"))
    return [m.to_json() for m in sorted(marks, key=lambda m: m.frame)]


def viewer_data(
    record: dict[str, Any],
    perspectives: list[Perspective],
    *,
    seat_names: list[str] | None = None,
    marks: list[dict] | None = None,
) -> dict[str, Any]:
    """Everything the viewer's JavaScript draws from: the title's legend, the seats' names,
    the timeline marks and the delta-encoded frames of each perspective asked for."""
    title = _title_of(record)
    players = record.get("players", 0)
    labels: list[str] = []
    numbers: dict[str, int] = {}
    packed_by: dict[str, list[dict]] = {}
    encoded: dict[str, Any] = {}
    for perspective, own in frames_by(record, perspectives).items():
        packed = _pack(own, labels, numbers)
        best = _sequence(packed)
        # A perspective close to one before it (Praga's full view differs from its public
        # one at a few private choices) is sent as patches against that one, frame by frame.
        for name, other in packed_by.items():
            beside = {
                "base": name,
                "beside": [delta(a, b) for a, b in zip(other, packed, strict=True)],
            }
            if len(json.dumps(beside)) < len(json.dumps(best)):
                best = beside
        packed_by[perspective] = packed
        encoded[perspective] = best
    decisions = len(packed) - 1
    return {
        "title": title.id,
        "title_name": title.name,
        "players": players,
        "seats": seat_names or [seat_label(i) for i in range(players)],
        "legend": view_module(title).legend(title),
        "marks": marks if marks is not None else timeline_marks(decisions),
        "labels": labels,
        "perspectives": encoded,
        # the bots' notes a platform served with the record (act's "log"), shown at their
        # decisions
        "decision_logs": record.get("decision_logs") or {},
    }


# -- the drawing code and the offline file -------------------------------------------------


def renderer_source(title_id: str) -> str:
    """The title's JavaScript drawing code (served by the platform, inlined offline)."""
    return Path(view_module(title_by_id(title_id)).RENDERER).read_text(encoding="utf-8")


def viewer_asset(name: str) -> str:
    """The title-neutral viewer's ``viewer.js`` or ``viewer.css``."""
    if name not in ("viewer.js", "viewer.css"):
        raise ConfigError(f"no viewer asset {name!r}")
    return (ASSETS / name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    # Inside <script>, "</" would end the element; JSON allows "<\/" for it.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def offline_html(data: dict[str, Any], heading: str = "") -> str:
    """A self-contained HTML page (no network) that shows ``viewer_data`` at its last frame."""
    heading = heading or f"{data['title_name']}: a game of {data['players']} players"
    safe = heading.replace("&", "&amp;").replace("<", "&lt;")
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{safe}</title><style>{viewer_asset('viewer.css')}</style></head>"
        f"<body><h1 class='viewer-heading'>{safe}</h1>"
        "<div id='viewer' data-start='end'></div>"
        f"<script type='application/json' id='viewer-data'>{_script_json(data)}</script>"
        f"<script>{viewer_asset('viewer.js')}</script>"
        f"<script>{renderer_source(data['title'])}</script>"
        "<script>MeepleViewer.boot(document.getElementById('viewer'),"
        " JSON.parse(document.getElementById('viewer-data').textContent));</script>"
        "</body></html>"
    )


def write_game_html(game: dict[str, Any], path: str | Path) -> Path:
    """Write the offline viewer of a game to ``path``: a bare record, or the local runner's
    game file (record plus faults, seat status and bot names). Public and full views (the
    game is over); every fault is shown with its details, since a local game's bots are the
    author's own."""
    record = game.get("record", game) if isinstance(game, dict) else game
    data = viewer_data(
        record,
        [PUBLIC, ALL],
        seat_names=_seat_names(game, record),
        marks=timeline_marks(
            records.action_count(record),
            game.get("faults"),
            game.get("seat_status"),
            details_for=set(range(record.get("players", 0))),
        ),
    )
    path = Path(path)
    path.write_text(offline_html(data), encoding="utf-8")
    return path


def seat_label(seat: int, name: str | None = None) -> str:
    """A seat as a person reads it: numbered from 1 ("Seat 1 · alice/bot v2"). Records,
    observations, the bot protocol and the API count seats from 0."""
    return f"Seat {seat + 1}" + (f" · {name}" if name else "")


def _seat_names(game: dict, record: dict) -> list[str]:
    """The seats labelled with the bots' names wherever the file has them: ``names`` (the
    local runner's game file) or ``bots`` (a line of ``simulate --out``)."""
    players = record.get("players", 0)
    names = next(
        (
            found
            for found in (game.get(key) for key in ("names", "bots") if isinstance(game, dict))
            if isinstance(found, list) and all(isinstance(n, str) for n in found)
        ),
        None,
    )
    if names is not None and len(names) == players:
        return [seat_label(i, n) for i, n in enumerate(names)]
    return [seat_label(i) for i in range(players)]
