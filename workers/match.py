"""Play one game of any title between built-in bots and sandboxed bot processes.

:func:`run_match` is what the servers (Celery tasks), the local runner (``workers.play``) and
upload validation (:func:`validate_bot`) call. The game always finishes: a bot that times
out, crashes, breaks the protocol or makes an illegal choice gets the title's deterministic
fallback option for that decision and a recorded fault; after a crash, a broken stream or
``max_faults`` faults the seat is disqualified (its process is killed) and plays the fallback
to the end. No process of a bot outlives the game.
"""

from __future__ import annotations

import contextlib
import logging
import select
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import engine
from engine import Title
from engine.core.analytics import fact_rows
from engine.core.rng import derive_seed

from . import watchdog
from .launch import begin_bot
from .limits import Limits
from .manifest import BotSpecError, load_bot
from .protocol import (
    BotGone,
    Channel,
    EventsDelta,
    IllegalChoice,
    ProtocolError,
    ReplyTimeout,
    StderrLog,
    act_log,
    decide_message,
    end_message,
    fallback_index,
    parse_act,
    parse_line,
    parse_ready,
    resolve_choice,
    start_message,
)
from .sandbox import NONE_WARNING, check_backend

SEAT_KINDS = ("builtin", "process")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatSpec:
    """Who sits at a seat: a built-in bot by name, or a bot process from a path."""

    kind: str  # "builtin" (engine.make_bot name) or "process" (bot directory or .py file)
    name: str  # built-in bot name, or a label for a process bot
    path: str | None = None  # for "process": directory containing bot.json, or a .py file
    #: This seat's limits instead of the match's, for tests and local debugging (e.g. a
    #: neighbour bot that must not time out on a loaded machine); games between competitors
    #: give every seat the match's limits.
    limits: Limits | None = None


@dataclass
class MatchResult:
    """A finished game: the engine's record and result plus what each seat did."""

    title: str
    seats: list[SeatSpec]
    record: dict
    result: dict
    faults: list[list[dict]]  # per seat: {"kind", "decision", "message", "applied"}
    seat_status: list[str]  # per seat: "ok" | "faulted" | "disqualified"
    timings: list[dict]  # per seat: decisions, total_ms, max_ms, startup_ms, start
    stderr: list[str]  # per seat, capped (head and tail kept)
    names: list[str]  # per seat: the name a bot process gave in "ready", else the spec's
    sandbox: str
    limits: dict
    warnings: list[str] = field(default_factory=list)
    #: Wall time of the whole match, from starting the bots to their exit.
    match_ms: int | None = None
    analytics: list[list] = field(default_factory=list)  # the title's facts, as rows
    # per seat: decision id (as text, JSON's keys) -> the log line the bot sent with its answer
    decision_logs: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Everything as JSON-able data (the form stored and written by the local runner).

        The record, result and per-seat lists are shared, not copied: they are JSON data
        already, and a deep copy of a game's record cost more than storing it."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["seats"] = [
            {k: v for k, v in asdict(s).items() if k != "limits" or v is not None}
            for s in self.seats
        ]  # a seat's own limits appear only where it has them
        return data


@dataclass
class ValidationReport:
    """Outcome of a smoke game for an uploaded bot."""

    ok: bool
    reason: str  # what a person should do; empty when ok
    stderr: str = ""
    faults: list[dict] = field(default_factory=list)
    #: System calls the sandbox refused the bot: it may still play, but operators review it.
    refused: list[str] = field(default_factory=list)


@dataclass
class Step:
    """What one decision did (see :meth:`Match.play_one_decision`)."""

    seat: int
    decision: int
    applied: int
    fault: dict | None


class _Seat:
    """Bookkeeping of one seat, whatever plays it."""

    def __init__(self, index: int, spec: SeatSpec, limits: Limits):
        self.index = index
        self.spec = spec
        self.limits = limits
        self.name = spec.name
        self.faults: list[dict] = []
        self.notices: list[dict] = []  # faults the bot has not been told about yet
        self.disqualified = False
        self.decisions = 0
        self.total_ms = 0.0
        self.max_ms = 0.0
        self.startup_ms: float | None = None
        self.stderr = StderrLog(limits.stderr_bytes)
        self.logs: dict[int, str] = {}  # decision id -> the bot's log line with its answer

    @property
    def active(self) -> bool:
        return not self.disqualified

    @property
    def status(self) -> str:
        if self.disqualified:
            return "disqualified"
        return "faulted" if self.faults else "ok"

    def timing(self) -> dict:
        return {
            "decisions": self.decisions,
            "total_ms": round(self.total_ms, 3),
            "max_ms": round(self.max_ms, 3),
            "startup_ms": None if self.startup_ms is None else round(self.startup_ms, 3),
            # How the bot process started: "warm" (forked into its sandbox from the zygote),
            # "cold" (its own interpreter), None for a built-in bot.
            "start": self._start_kind(),
        }

    def _start_kind(self) -> str | None:
        process = getattr(self, "process", None)
        return None if process is None else ("warm" if process.warm else "cold")

    def pause(self) -> None:
        """Process seats stop between their decisions; built-in bots have nothing to stop."""

    def resume(self) -> None:
        """See :meth:`pause`."""

    def stop(self) -> None:
        """Release what the seat holds (a process seat kills its process)."""


class _BuiltinSeat(_Seat):
    def __init__(self, index, spec, limits, title: Title, seed: int):
        super().__init__(index, spec, limits)
        self.bot = _make_builtin(title, spec.name, derive_seed(seed, "bot", index))

    def choose(self, decision_id, kind, observation, options) -> tuple[int | None, dict | None]:
        try:
            return resolve_choice(self.bot.choose(observation, kind, options), options), None
        except IllegalChoice as err:
            return None, _fault("illegal", decision_id, str(err))
        except Exception as err:  # a bug in a built-in bot must not stop the game
            return None, _fault("crash", decision_id, f"built-in bot raised {err!r}", fatal=True)


class _ProcessSeat(_Seat):
    def __init__(self, index, spec, limits, title: Title, on_message):
        super().__init__(index, spec, limits)
        self.bot = load_bot(spec.path, title.id)
        self.on_message = on_message
        self.starting = None  # a start begun, not finished (launch.Starting)
        self.process = None
        self.channel: Channel | None = None
        self.bank_ms = float(limits.bank_ms)
        self.stale: set[int] = set()  # decisions already settled by a fallback
        self.events = EventsDelta()
        self.running = True
        self.released = False

    def begin(self, backend: str, label: str = "") -> None:
        """Begin the bot's start (its sandbox is built meanwhile: see :meth:`launch`);
        ``label`` names the game for the watchdog's journal ("game-12")."""
        token = watchdog.sandbox_label.set(f"{label}/{self.index}" if label else "")
        try:
            self.starting = begin_bot(self.bot, self.limits, backend)
        finally:
            watchdog.sandbox_label.reset(token)

    def launch(self, start: dict) -> None:
        """Finish the bot's start and send it ``start``."""
        starting, self.starting = self.starting, None
        self.process = starting.finish()
        self.channel = Channel(self.process, self.limits.line_bytes, self.stderr)
        self._send(start)

    def _send(self, message: dict) -> None:
        if self.on_message:
            self.on_message(self.index, "to_bot", message)
        self.channel.send(message)

    def _received(self, line: bytes) -> dict:
        message = parse_line(line)
        if self.on_message:
            self.on_message(self.index, "from_bot", message)
        return message

    def take_ready(self) -> dict | None:
        """Handle a ``ready`` line if one arrived: None while waiting, else a fault or {}."""
        try:
            line = self.channel.take_line()
            while line is not None and not line.strip():  # blank lines are harmless
                line = self.channel.take_line()
            if line is None:
                if not self.channel.stdout_open:
                    raise BotGone()
                return None
            self.name = parse_ready(self._received(line)) or self.name
        except BotGone:
            return _fault("crash", None, f"ended before ready: {self._exit()}", fatal=True)
        except ProtocolError as err:
            return _fault("protocol", None, f"instead of ready: {err}", fatal=True)
        self.startup_ms = (time.monotonic() - self.process.started) * 1000
        self.pause()
        return {}

    def choose(self, decision_id, kind, observation, options) -> tuple[int | None, dict | None]:
        allowed_ms = self.limits.decision_ms + self.bank_ms
        notices, self.notices = self.notices, []
        observation, events_from = self.events.apply(observation)
        self._send(
            decide_message(
                decision_id,
                kind,
                observation,
                options,
                int(allowed_ms),
                int(self.bank_ms),
                notices,
                events_from,
            )
        )
        began = time.monotonic()
        deadline = began + allowed_ms / 1000
        # Queue the question before letting a paused bot run, so it wakes up once, to read.
        self.channel.write_now()
        self.resume()
        try:
            choice, note = self._read_act(decision_id, deadline)
            if note is not None:
                self.logs[decision_id] = note
            index = resolve_choice(choice, options)
        except ReplyTimeout:
            self.bank_ms = 0.0
            self.stale.add(decision_id)
            return None, _fault("timeout", decision_id, f"no answer within {int(allowed_ms)} ms")
        except BotGone:
            return None, _fault("crash", decision_id, f"bot ended: {self._exit()}", fatal=True)
        except ProtocolError as err:
            self.stale.add(decision_id)
            return None, _fault("protocol", decision_id, str(err), fatal=err.fatal)
        except IllegalChoice as err:
            return None, _fault("illegal", decision_id, str(err))
        finally:
            self._charge(time.monotonic() - began)
        return index, None

    def _read_act(self, decision_id: int, deadline: float):
        while True:
            line = self.channel.read_line(deadline)
            if not line.strip():
                continue  # a blank line (an extra newline) is harmless
            message = self._received(line)
            if message.get("type") == "act" and message.get("id") in self.stale:
                continue  # a late answer to a decision already settled: dropped
            return parse_act(message, decision_id), act_log(message)

    def _charge(self, elapsed_s: float) -> None:
        elapsed_ms = elapsed_s * 1000
        self.decisions += 1
        self.total_ms += elapsed_ms
        self.max_ms = max(self.max_ms, elapsed_ms)
        self.bank_ms = max(0.0, self.bank_ms - max(0.0, elapsed_ms - self.limits.decision_ms))

    def _exit(self) -> str:
        deadline = time.monotonic() + 0.2
        while self.process.alive() and time.monotonic() < deadline:
            time.sleep(0.002)
        if self.process.oom_kills():
            return f"{self.process.exit_description()}, {self._out_of_memory()}"
        return self.process.exit_description()

    def _out_of_memory(self) -> str:
        return (
            f"out of memory: the sandbox's processes, shared memory, memfds and /tmp "
            f"together exceeded memory_mb ({self.limits.memory_mb} MB)"
        )

    def pause(self) -> None:
        if self.process is not None and self.running:
            self.process.pause()
            self.running = False

    def resume(self) -> None:
        if self.process is not None and not self.running:
            self.process.resume()
            self.running = True

    def say_goodbye(self, seat: int, result: dict, deadline: float) -> None:
        """Send ``end`` and close stdin; the bot may then exit on its own until the deadline."""
        if self.process is None or self.process.killed:
            return
        self.resume()
        self._send(end_message(seat, result, self.status))
        self.channel.flush(deadline)
        self.process.close_stdin()

    def stop(self) -> None:
        if self.starting is not None:
            self.starting.abandon()
            self.starting = None
        if self.process is not None and not self.released:
            self.process.kill()
            # what the bot wrote before it died is still in the pipes' buffers
            with contextlib.suppress(OSError, ValueError):
                self.channel.drain(time.monotonic() + 0.1)
            self._record_refused_calls()
            kills = self.process.oom_kills()
            if kills:
                message = f"{self._out_of_memory()}; the kernel killed {kills} process(es)"
                self.faults.append(
                    {"kind": "memory", "decision": None, "message": message, "applied": None}
                )
                log.warning("match.out_of_memory", extra={"seat": self.index, "kills": kills})
            self.process.release()
            self.released = True

    def _record_refused_calls(self) -> None:
        """A fault per system call the sandbox refused the bot (an attack, or a library the
        sandbox does not support): recorded, never disqualifying by itself."""
        for name in self.process.refused_calls():
            message = f"system call {name} refused by the sandbox (answered EPERM)"
            self.faults.append(
                {
                    "kind": "refused",
                    "decision": None,
                    "message": message,
                    "applied": None,
                    "call": name,
                }
            )
            log.warning("match.refused_call", extra={"seat": self.index, "call": name})


class Match:
    """One game in progress; :meth:`play_one_decision` advances it by one decision.

    Use as a context manager: leaving it kills every bot process, whatever happened.
    """

    def __init__(
        self,
        title: str | Title,
        seats: list[SeatSpec],
        *,
        seed: int,
        options: dict | None = None,
        limits: Limits | None = None,
        sandbox: str = "bwrap",
        on_message=None,
        label: str = "",
    ):
        self.title = engine.title(title) if isinstance(title, str) else title
        self.limits = limits or Limits()
        self.sandbox = sandbox
        self.label = label  # what the game is to the watchdog's journal ("game-12")
        self.warnings: list[str] = []
        self.specs = list(seats)
        for spec in self.specs:
            _check_spec(spec)
        if any(s.kind == "process" for s in self.specs):
            check_backend(sandbox)
            if sandbox == "none":
                self.warnings.append(NONE_WARNING)
                print(f"workers.match: {NONE_WARNING}", file=sys.stderr)
        self.state = self.title.new_game(len(self.specs), options, seed)
        self.seats: list[_Seat] = [
            _BuiltinSeat(i, s, s.limits or self.limits, self.title, seed)
            if s.kind == "builtin"
            else _ProcessSeat(i, s, s.limits or self.limits, self.title, on_message)
            for i, s in enumerate(self.specs)
        ]
        self._next_decision = 1
        self._running: int | None = None

    def __enter__(self) -> Match:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Kill every bot process (idempotent); all are signalled before any is waited for."""
        for seat in self.seats:
            if isinstance(seat, _ProcessSeat) and seat.process is not None:
                seat.process.send_kill()
        for seat in self.seats:
            seat.stop()

    # -- start ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start every bot process and wait (concurrently) for each one's ``ready``."""
        processes = [s for s in self.seats if isinstance(s, _ProcessSeat)]
        for seat in processes:  # every sandbox is built at once...
            seat.begin(self.sandbox, self.label)
        for seat in processes:  # ...then each bot starts in its own
            seat.launch(
                start_message(
                    self.title,
                    seat.index,
                    self.state.players,
                    self.state.options,
                    seat.limits,
                )
            )
        began = time.monotonic()
        deadlines = {seat.index: began + seat.limits.startup_ms / 1000 for seat in processes}
        waiting = list(processes)
        while waiting:
            for seat in list(waiting):
                fault = seat.take_ready()
                if fault is not None:
                    waiting.remove(seat)
                    if fault:
                        self._record(seat, fault, applied=None)
            if not waiting:
                break
            now = time.monotonic()
            for seat in [s for s in waiting if now >= deadlines[s.index]]:
                waiting.remove(seat)
                message = f"no ready within the start-up budget of {seat.limits.startup_ms} ms"
                self._record(seat, _fault("timeout", None, message, fatal=True), applied=None)
            if waiting:
                deadline = min(deadlines[s.index] for s in waiting)
                _poll_channels([s.channel for s in waiting], deadline)

    # -- play ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.is_over()

    def play_one_decision(self) -> Step:
        """Ask the deciding seat (or apply its fallback) and apply the option; returns the step."""
        decision = self.state.decision()
        seat = self.seats[decision.seat]
        decision_id = self._next_decision
        self._next_decision += 1
        index, fault = None, None
        if seat.active:
            self._switch_to(seat)
            observation = self.state.observation(decision.seat)
            if isinstance(seat, _BuiltinSeat):
                began = time.monotonic()
                index, fault = seat.choose(
                    decision_id, decision.kind, observation, decision.options
                )
                elapsed_ms = (time.monotonic() - began) * 1000
                seat.decisions += 1
                seat.total_ms += elapsed_ms
                seat.max_ms = max(seat.max_ms, elapsed_ms)
            else:
                index, fault = seat.choose(
                    decision_id, decision.kind, observation, decision.options
                )
        if index is None:
            index = fallback_index(decision.options)
        if fault:
            self._record(seat, fault, applied=decision.options[index])
        self.state.apply(index)
        return Step(decision.seat, decision_id, index, fault)

    def _switch_to(self, seat: _Seat) -> None:
        """Pause the seat that moved last if another one moves now (it resumes in ``choose``)."""
        if self._running is not None and self._running != seat.index:
            self.seats[self._running].pause()
        self._running = seat.index

    def _record(self, seat: _Seat, fault: dict, applied: dict | None) -> None:
        fatal = fault.pop("fatal", False)
        fault["applied"] = applied
        seat.faults.append(fault)
        seat.notices.append(dict(fault))
        log.info(
            "match.fault",
            extra={"seat": seat.index, "kind": fault["kind"], "decision": fault["decision"]},
        )
        if fatal or len(seat.faults) >= seat.limits.max_faults:
            seat.disqualified = True
            seat.stop()
            log.info("match.seat_disqualified", extra={"seat": seat.index})

    # -- finish --------------------------------------------------------------------------

    def finish(self) -> MatchResult:
        """Send ``end`` to the bots, let them exit, kill what remains; the game's outcome."""
        result = self.state.result()
        deadline = time.monotonic() + self.limits.shutdown_ms / 1000
        processes = [s for s in self.seats if isinstance(s, _ProcessSeat) and s.active]
        for seat in processes:
            seat.say_goodbye(seat.index, result, deadline)
        channels = [s.channel for s in processes if s.channel is not None]
        while any(c.stdout_open for c in channels) and time.monotonic() < deadline:
            _poll_channels(channels, deadline)
        self.close()
        return MatchResult(
            title=self.title.id,
            seats=self.specs,
            record=self.state.record(),
            result=result,
            faults=[s.faults for s in self.seats],
            seat_status=[s.status for s in self.seats],
            timings=[s.timing() for s in self.seats],
            stderr=[s.stderr.text() for s in self.seats],
            names=[s.name for s in self.seats],
            sandbox=self.sandbox,
            limits=self.limits.to_json(),
            warnings=self.warnings,
            analytics=fact_rows(self.title, self.state),
            decision_logs=[{str(k): v for k, v in s.logs.items()} for s in self.seats],
        )


def run_match(
    title_id: str | Title,
    seats: list[SeatSpec],
    *,
    seed: int,
    options: dict | None = None,
    limits: Limits | None = None,
    sandbox: str = "bwrap",
    on_message=None,
    on_progress=None,
    label: str = "",
) -> MatchResult:
    """Play one whole game; see the module docstring for the fault policy.

    ``title_id`` is a registered title id (or a Title object). ``on_message(seat, direction,
    message)``, if given, sees every protocol message ("to_bot" / "from_bot").
    ``on_progress(state)``, if given, is called with the live game once the bots are started
    and after every decision (a worker's lease heartbeat, which keeps the game's record so
    far; it must not change the state); an exception it raises stops the game, and every bot
    process with it, and propagates. Raises
    ``engine.ConfigError`` or ``BotSpecError`` for a game that cannot be set up and
    ``SandboxError`` when the sandbox cannot run here; a misbehaving bot never raises.
    ``label`` ("game-12") names the game's sandboxes to the watchdog, which journals those
    it kills should this runner die (:func:`workers.watchdog.collect_kills`).

    Call it from a thread that lives until it returns (a Celery prefork task is fine):
    bubblewrap's ``--die-with-parent`` follows the *thread* that started the bots.
    """
    started = time.perf_counter()
    with Match(
        title_id,
        seats,
        seed=seed,
        options=options,
        limits=limits,
        sandbox=sandbox,
        on_message=on_message,
        label=label,
    ) as match:
        match.start()
        if on_progress is not None:
            on_progress(match.state)
        while not match.over:
            match.play_one_decision()
            if on_progress is not None:
                on_progress(match.state)
        result = match.finish()
    result.match_ms = round(1000 * (time.perf_counter() - started))
    return result


def validate_bot(
    title_id: str,
    path: str,
    *,
    limits: Limits | None = None,
    sandbox: str = "bwrap",
    seed: int = 1,
) -> ValidationReport:
    """Smoke-test an uploaded bot: one game in the sandbox against built-in random bots.

    ``ok`` only if the bot started, answered every decision legally and in time, and did not
    crash. ``reason`` says what to fix; ``stderr`` is the bot's captured log; ``refused``
    names the system calls the sandbox refused it (the platform flags such a version).
    """
    try:
        load_bot(path, title_id)
    except BotSpecError as err:
        return ValidationReport(False, str(err))
    title = engine.title(title_id)
    players = max(title.min_players, min(4, title.max_players))
    seats = [SeatSpec("process", "candidate", str(path))]
    seats += [SeatSpec("builtin", "random")] * (players - 1)
    outcome = run_match(title, seats, seed=seed, limits=limits, sandbox=sandbox)
    refused = [f["call"] for f in outcome.faults[0] if f["kind"] == "refused"]
    faults = [f for f in outcome.faults[0] if f["kind"] != "refused"]
    if not faults:
        return ValidationReport(True, "", outcome.stderr[0], [], refused)
    return ValidationReport(
        False, _explain(faults[0], outcome.stderr[0]), outcome.stderr[0], faults, refused
    )


def _explain(fault: dict, stderr: str) -> str:
    where = "at start-up" if fault["decision"] is None else f"at decision {fault['decision']}"
    advice = {
        "timeout": "answer faster (or check that it flushes stdout after each line)",
        "crash": "see its stderr below for the error",
        "protocol": "check the message format in docs/bot-protocol.md",
        "illegal": "choose an index of the options list or one of the option objects",
    }[fault["kind"]]
    last = [line for line in stderr.strip().splitlines() if line.strip()]
    tail = f" Last stderr line: {last[-1][:200]}" if last else ""
    return f"{fault['kind']} {where}: {fault['message']}; {advice}.{tail}"


def _fault(kind: str, decision: int | None, message: str, fatal: bool = False) -> dict:
    return {"kind": kind, "decision": decision, "message": message, "fatal": fatal}


def _check_spec(spec: SeatSpec) -> None:
    if spec.kind not in SEAT_KINDS:
        raise engine.ConfigError(f"seat kind {spec.kind!r} is not one of {', '.join(SEAT_KINDS)}")
    if spec.kind == "process" and not spec.path:
        raise BotSpecError(f"process seat {spec.name!r} needs a path to the bot")


def _make_builtin(title: Title, name: str, seed: int):
    if title.id in engine.titles() and engine.title(title.id) is title:
        return engine.make_bot(title.id, name, seed)
    if name == "random":
        return engine.RandomBot(seed)
    raise engine.ConfigError(f"title {title.id!r} is not registered; only 'random' is built in")


def _poll_channels(channels: list[Channel], deadline: float) -> None:
    """Wait until one of the channels has something to do (or the deadline), then do it."""
    poller = select.poll()
    owners = {}
    for channel in channels:
        for fd in channel.register(poller):
            owners[fd] = channel
    if not owners:
        time.sleep(max(0.0, min(0.01, deadline - time.monotonic())))
        return
    timeout_ms = max(0, int((deadline - time.monotonic()) * 1000) + 1)
    for fd, events in poller.poll(timeout_ms):
        owners[fd].handle(fd, events)
