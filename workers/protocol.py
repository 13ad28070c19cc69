"""The bot protocol, host side: messages, and line exchange with deadlines and caps.

Newline-delimited JSON (UTF-8) on the bot's stdin/stdout; stderr is the bot's log. One
persistent process per bot per game::

    host -> bot  start    bot -> host  ready
    host -> bot  decide   bot -> host  act      (once per decision of the bot's seat)
    host -> bot  end      then stdin closes

An observation's ``events`` list (a title's public event log, append-only through a game) is
sent as a delta: each ``decide`` carries only the events the bot has not been sent yet, and
``events_from``, the index in the whole log of the first of them (see :class:`EventsDelta`).

docs/bot-protocol.md is the reference for bot authors; workers/schemas/ holds a JSON Schema
per message.
"""

from __future__ import annotations

import json
import os
import select
import time
from typing import Any

PROTOCOL_VERSION = 1
FALLBACK_KINDS = ("end_turn", "pass")


class BotGone(Exception):
    """The bot's process ended (or closed its stdout)."""


class ReplyTimeout(Exception):
    """No complete line before the deadline."""


class ProtocolError(Exception):
    """A line that is not a valid message of the protocol."""

    def __init__(self, message: str, fatal: bool = False):
        super().__init__(message)
        self.fatal = fatal  # the stream cannot be trusted any more (e.g. an oversize line)


class IllegalChoice(Exception):
    """A well-formed ``act`` whose choice is not one of the options."""


# -- messages -----------------------------------------------------------------------------


def start_message(title, seat: int, players: int, options: dict, limits) -> dict[str, Any]:
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "title": title.id,
        "rules_version": title.rules_version,
        "seat": seat,
        "players": players,
        "options": options,
        "time": {
            "decision_ms": limits.decision_ms,
            "bank_ms": limits.bank_ms,
            "startup_ms": limits.startup_ms,
        },
        "limits": {
            "memory_mb": limits.memory_mb,
            "processes": limits.processes,
            "tmp_mb": limits.tmp_mb,
            "line_bytes": limits.line_bytes,
            "max_faults": limits.max_faults,
        },
    }


def decide_message(
    decision_id: int,
    kind: str,
    observation: dict,
    options: list[dict],
    time_left_ms: int,
    bank_ms: int,
    notices: list[dict],
    events_from: int | None = None,
) -> dict[str, Any]:
    """A ``decide``; ``events_from`` is set when ``observation["events"]`` is a delta."""
    message = {
        "type": "decide",
        "id": decision_id,
        "kind": kind,
        "observation": observation,
        "options": options,
        "time_left_ms": time_left_ms,
        "bank_ms": bank_ms,
    }
    if events_from is not None:
        message["events_from"] = events_from
    if notices:
        message["faults"] = notices
    return message


class EventsDelta:
    """What one bot was sent of the observation's append-only ``events`` log.

    Resending the whole log at every decision made a game's traffic quadratic (in Citadels the
    log is most of each observation by mid-game); the bot keeps the log instead, as
    ``log[events_from:] = observation["events"]``. Should a title's log ever not just grow
    (shorter than what was sent, or a different last event), the whole log is sent again from
    index 0, which the same assignment handles.
    """

    __slots__ = ("sent", "last")

    def __init__(self):
        self.sent = 0
        self.last: Any = None

    def apply(self, observation: dict) -> tuple[dict, int | None]:
        """The observation to send (events cut to the new ones) and ``events_from``.

        An observation without an ``events`` list is returned as it is, with None.
        """
        events = observation.get("events")
        if not isinstance(events, list):
            return observation, None
        start = self.sent
        if start > len(events) or (start and events[start - 1] != self.last):
            start = 0
        self.sent = len(events)
        last = events[-1] if events else None
        # a copy, so that an event changed in place after it was sent is noticed too
        self.last = dict(last) if isinstance(last, dict) else last
        delta = dict(observation)  # shallow: the engine's observation is left as it was
        delta["events"] = events[start:]
        return delta, start


def end_message(seat: int, result: dict, status: str) -> dict[str, Any]:
    return {"type": "end", "seat": seat, "status": status, "result": result}


def encode(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def parse_line(line: bytes) -> dict:
    """A bot's line as a JSON object with a ``type``; ProtocolError otherwise."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"not JSON: {_preview(line)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f'not a message object with a "type": {_preview(line)}')
    return message


def parse_ready(message: dict) -> str:
    """The bot's name from its ``ready`` message."""
    if message["type"] != "ready":
        raise ProtocolError(f'expected "ready", got "{message["type"]}"')
    name = message.get("name", "")
    if not isinstance(name, str):
        raise ProtocolError('"name" in "ready" must be text')
    return name[:100]


def parse_act(message: dict, decision_id: int) -> int | dict:
    """The choice in an ``act`` for ``decision_id``; ProtocolError if it is not one."""
    if message["type"] != "act":
        raise ProtocolError(f'expected "act", got "{message["type"]}"')
    if message.get("id") != decision_id:
        raise ProtocolError(f"act for decision {message.get('id')!r}, expected {decision_id}")
    if "choice" not in message:
        raise ProtocolError('"act" without a "choice"')
    return message["choice"]


# A bot's line of reasoning with one answer (``act``'s ``log``): kept to this many characters.
LOG_CHARS = 500


def act_log(message: dict) -> str | None:
    """The ``log`` line of an ``act`` (its reasoning, for its owner), cut to LOG_CHARS
    characters; None without one. ProtocolError if it is not text."""
    text = message.get("log")
    if text is None:
        return None
    if not isinstance(text, str):
        raise ProtocolError('"log" in "act" must be text (one line of your reasoning)')
    return text if len(text) <= LOG_CHARS else text[: LOG_CHARS - 1] + "…"


def resolve_choice(choice: Any, options: list[dict]) -> int:
    """Index of the option chosen by index or by an equal dict; IllegalChoice otherwise."""
    if isinstance(choice, int) and not isinstance(choice, bool):
        if 0 <= choice < len(options):
            return choice
        raise IllegalChoice(f"choice {choice} is out of range: {len(options)} options")
    if isinstance(choice, dict):
        for index, option in enumerate(options):
            if option == choice:
                return index
        raise IllegalChoice(f"{_preview(json.dumps(choice).encode())} is not one of the options")
    raise IllegalChoice(f"a choice is an option index or an option object, not {choice!r:.80}")


def fallback_index(options: list[dict]) -> int:
    """The deterministic option applied for a faulted seat.

    The first option of kind ``end_turn`` or ``pass`` if there is one (do nothing more this
    turn), otherwise the first option in the title's canonical order.
    """
    for index, option in enumerate(options):
        if option.get("kind") in FALLBACK_KINDS:
            return index
    return 0


def _preview(raw: bytes, size: int = 80) -> str:
    text = raw[:size].decode("utf-8", "replace")
    return repr(text) + ("..." if len(raw) > size else "")


# -- the byte stream ----------------------------------------------------------------------


class StderrLog:
    """A bot's stderr, capped: the first and the last ``cap // 2`` bytes are kept."""

    def __init__(self, cap: int):
        self.cap = cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes) -> None:
        self.total += len(data)
        room = self.cap // 2 - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            excess = len(self.tail) - (self.cap - self.cap // 2)
            if excess > 0:
                del self.tail[:excess]

    def text(self) -> str:
        dropped = self.total - len(self.head) - len(self.tail)
        middle = f"\n[... {dropped} bytes of stderr dropped ...]\n".encode() if dropped else b""
        return bytes(self.head + middle + self.tail).decode("utf-8", "replace")


class Channel:
    """Line-based exchange with one bot process, never blocking past a deadline.

    Writes, stdout and stderr are pumped together with ``poll`` so that neither side can
    deadlock the other on a full pipe; stdout lines longer than ``line_bytes`` are refused.
    """

    def __init__(self, process, line_bytes: int, stderr: StderrLog):
        self.process = process
        self.line_bytes = line_bytes
        self.stderr = stderr
        self._out = bytearray()
        self._in = bytearray()
        self._scan_from = 0
        self._stdin_open = True
        self._stdout_open = True
        self._stderr_open = True

    def send(self, message: dict) -> None:
        """Queue a message; it is written while waiting for replies."""
        if self._stdin_open:
            self._out += encode(message)

    def flush(self, deadline: float) -> None:
        """Write what is queued, until ``deadline`` (a late reader is not waited for)."""
        while self._out and self._stdin_open and time.monotonic() < deadline:
            self._pump(deadline)

    def write_now(self) -> None:
        """Write as much of the queue as the pipe takes at once, without waiting."""
        if self._out and self._stdin_open:
            self._write(0)

    def read_line(self, deadline: float) -> bytes:
        """The next stdout line (without newline), writing queued messages meanwhile."""
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if not self._stdout_open:
                raise BotGone()
            if time.monotonic() >= deadline:
                raise ReplyTimeout()
            self._pump(deadline)

    def drain(self, deadline: float) -> None:
        """Read stdout and stderr until the bot closes them or the deadline passes."""
        while (self._stdout_open or self._stderr_open) and time.monotonic() < deadline:
            self._pump(deadline)
            self._in.clear()
            self._scan_from = 0

    def _take_line(self) -> bytes | None:
        newline = self._in.find(b"\n", self._scan_from)
        if newline < 0:
            self._scan_from = len(self._in)
            if len(self._in) > self.line_bytes:
                raise ProtocolError(
                    f"a line longer than {self.line_bytes} bytes on stdout", fatal=True
                )
            return None
        if newline > self.line_bytes:
            raise ProtocolError(f"a line longer than {self.line_bytes} bytes on stdout", fatal=True)
        line = bytes(self._in[:newline])
        del self._in[: newline + 1]
        self._scan_from = 0
        return line

    def _pump(self, deadline: float) -> None:
        poller = select.poll()
        if not self.register(poller):
            time.sleep(max(0.0, min(0.01, deadline - time.monotonic())))
            return
        timeout_ms = max(0, int((deadline - time.monotonic()) * 1000) + 1)
        for fd, events in poller.poll(timeout_ms):
            self.handle(fd, events)

    def register(self, poller) -> list[int]:
        """Register this channel's open pipes with ``poller``; returns their fds."""
        fds = []
        if self._out and self._stdin_open:
            poller.register(self.process.stdin, select.POLLOUT)
            fds.append(self.process.stdin)
        if self._stdout_open:
            poller.register(self.process.stdout, select.POLLIN)
            fds.append(self.process.stdout)
        if self._stderr_open:
            poller.register(self.process.stderr, select.POLLIN)
            fds.append(self.process.stderr)
        return fds

    def handle(self, fd: int, events: int) -> None:
        """Act on one ``poll`` event of one of this channel's pipes."""
        if fd == self.process.stdin:
            self._write(events)
        elif fd == self.process.stdout:
            self._read(fd, "out")
        elif fd == self.process.stderr:
            self._read(fd, "err")

    def take_line(self) -> bytes | None:
        """A complete stdout line already received, if any (ProtocolError if oversize)."""
        return self._take_line()

    @property
    def stdout_open(self) -> bool:
        return self._stdout_open

    def _write(self, events: int) -> None:
        if events & (select.POLLERR | select.POLLHUP):
            self._close_stdin()
            return
        try:
            written = os.write(self.process.stdin, self._out)
        except BlockingIOError:
            return
        except OSError:  # EPIPE: the bot closed its stdin or died
            self._close_stdin()
            return
        del self._out[:written]

    def _read(self, fd: int, which: str) -> None:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if which == "out":
            if chunk:
                self._in += chunk
            else:
                self._stdout_open = False
        elif chunk:
            self.stderr.add(chunk)
        else:
            self._stderr_open = False

    def _close_stdin(self) -> None:
        self._stdin_open = False
        self._out.clear()
        self.process.close_stdin()


# -- schemas ------------------------------------------------------------------------------

SCHEMA_DIR = os.path.join(os.path.dirname(__file__), "schemas")
MESSAGE_TYPES = ("start", "ready", "decide", "act", "end")


def message_schema(message_type: str) -> dict:
    """The JSON Schema of one protocol message (``start``, ``ready``, ``decide``, ...)."""
    with open(os.path.join(SCHEMA_DIR, f"{message_type}.schema.json"), encoding="utf-8") as f:
        return json.load(f)


def title_schema(title_id: str, which: str) -> dict | None:
    """A title's ``observation`` or ``option`` schema, or None if the title has none yet."""
    path = os.path.join(SCHEMA_DIR, title_id, f"{which}.schema.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)
