"""The match runner with real bot processes: pausing, messages, backends, validation."""

import contextlib
import json
import os
import shutil
import time
from pathlib import Path

import jsonschema
import pytest

import engine
from engine.core.rng import derive_seed
from tests.support.registered import registered
from tests.support.toy_title import TOY
from workers.launch import start_bot
from workers.limits import Limits
from workers.manifest import load_bot
from workers.match import Match, SeatSpec, run_match, validate_bot
from workers.protocol import MESSAGE_TYPES, message_schema, title_schema
from workers.sandbox import NONE_WARNING, sandbox_uids

from .conftest import BOTS, LIMITS, NEIGHBOUR_LIMITS, bot_processes, players_for, real_titles

pytestmark = pytest.mark.sandbox
KIT = Path(__file__).resolve().parents[3] / "starter-kits"


def validator(schema):
    """A reusable validator (checking the schema itself once), or None without a schema."""
    if schema is None:
        return None
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def process_state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def settled_state(pid: int, wanted: str) -> str:
    """The process state once a signal just sent has been delivered (or after 10 s)."""
    deadline = time.monotonic() + 10
    while process_state(pid) != wanted and time.monotonic() < deadline:
        time.sleep(0.001)
    return process_state(pid)


def test_bots_not_to_move_are_stopped_and_the_mover_runs():
    seats = [SeatSpec("process", "a", str(BOTS / "polite.py"))] * 2 + [
        SeatSpec("builtin", "random")
    ]
    with Match(TOY, seats, seed=11, limits=NEIGHBOUR_LIMITS) as match:
        match.start()
        pids = [match.seats[i].process.bot_pid() for i in (0, 1)]
        assert [settled_state(p, "T") for p in pids] == ["T", "T"]  # both stopped after ready
        movers = set()
        while not match.over:
            step = match.play_one_decision()
            movers.add(step.seat)
            for seat in (0, 1):
                if seat == step.seat:
                    assert settled_state(pids[seat], "S") in ("S", "R")  # the mover runs
                elif seat in movers:
                    assert settled_state(pids[seat], "T") == "T"
        outcome = match.finish()
    assert outcome.seat_status == ["ok", "ok", "ok"]
    assert not set(pids) & set(bot_processes("/bot/polite.py"))


def test_every_message_of_a_game_follows_the_protocol_schemas():
    messages = []
    seats = [SeatSpec("process", "p", str(BOTS / "polite.py"))] * 3
    run_match(
        TOY,
        seats,
        seed=5,
        limits=NEIGHBOUR_LIMITS,
        on_message=lambda seat, direction, message: messages.append(message),
    )
    types = {m["type"] for m in messages}
    assert types == set(MESSAGE_TYPES)
    validators = {t: validator(message_schema(t)) for t in MESSAGE_TYPES}
    for message in messages:
        validators[message["type"]].validate(message)


@pytest.mark.parametrize("title_id", real_titles() or ["toy"])
def test_real_games_messages_follow_the_title_schemas(title_id, tmp_path):
    context = registered(TOY) if title_id == "toy" else contextlib.nullcontext()
    with context:
        decides = []
        seats = [SeatSpec("process", "p", str(BOTS / "polite.py"))] * players_for(title_id)
        outcome = run_match(
            title_id,
            seats,
            seed=3,
            limits=NEIGHBOUR_LIMITS.replace(decision_ms=1000),
            on_message=lambda s, d, m: decides.append(m) if m["type"] == "decide" else None,
        )
        assert outcome.seat_status == ["ok"] * len(seats)
        decide = validator(message_schema("decide"))
        observation = validator(title_schema(title_id, "observation"))
        option = validator(title_schema(title_id, "option"))
        kinds_seen, options_seen = set(), set()
        for number, message in enumerate(decides):
            decide.validate(message)
            for item in message["options"]:
                text = json.dumps(item, sort_keys=True)
                if option and text not in options_seen:  # each distinct option once
                    option.validate(item)
                options_seen.add(text)
            # Observations are large: every kind of decision once, then a sample.
            if observation and (message["kind"] not in kinds_seen or number % 25 == 0):
                observation.validate(message["observation"])
            kinds_seen.add(message["kind"])


@pytest.mark.skipif("citadels" not in real_titles(), reason="Citadels is not on this branch")
def test_a_bot_that_keeps_the_event_log_from_the_deltas_sees_the_whole_log():
    decides = {seat: [] for seat in range(4)}
    seats = [SeatSpec("process", "p", str(BOTS / "polite.py"))] * 3 + [
        SeatSpec("builtin", "random")
    ]

    def seen(seat, direction, message):
        if message["type"] == "decide":
            decides[seat].append(message)

    logs = {seat: [] for seat in range(3)}
    with Match("citadels", seats, seed=12, limits=NEIGHBOUR_LIMITS, on_message=seen) as match:
        match.start()
        while not match.over:
            decision = match.state.decision()
            whole = match.state.observation(decision.seat)["events"]
            match.play_one_decision()
            if decision.seat < 3:
                message = decides[decision.seat][-1]
                logs[decision.seat][message["events_from"] :] = message["observation"]["events"]
                assert logs[decision.seat] == whole
        outcome = match.finish()
    assert outcome.seat_status == ["ok"] * 4
    sent = sum(len(m["observation"]["events"]) for d in decides.values() for m in d)
    assert sent == sum(len(log) for log in logs.values())  # each event sent once per seat


def test_a_seat_with_its_own_limits_gets_its_own_clock_and_the_others_the_matchs():
    starts, decides = {}, {}

    def seen(seat, direction, message):
        if message["type"] == "start":
            starts[seat] = message
        elif message["type"] == "decide":
            decides.setdefault(seat, message)

    seats = [
        SeatSpec("process", "p", str(BOTS / "polite.py")),
        SeatSpec("process", "q", str(BOTS / "polite.py"), limits=NEIGHBOUR_LIMITS),
        SeatSpec("builtin", "random"),
    ]
    outcome = run_match(TOY, seats, seed=8, limits=LIMITS, on_message=seen)
    assert outcome.seat_status == ["ok", "ok", "ok"]
    assert starts[0]["time"]["bank_ms"] == LIMITS.bank_ms
    assert starts[1]["time"]["bank_ms"] == NEIGHBOUR_LIMITS.bank_ms
    assert starts[1]["time"]["startup_ms"] == NEIGHBOUR_LIMITS.startup_ms
    assert decides[1]["time_left_ms"] <= NEIGHBOUR_LIMITS.decision_ms + NEIGHBOUR_LIMITS.bank_ms
    assert decides[1]["time_left_ms"] > LIMITS.decision_ms + LIMITS.bank_ms
    assert outcome.limits == LIMITS.to_json()
    assert outcome.to_json()["seats"][1]["limits"] == NEIGHBOUR_LIMITS.to_json()


def test_the_none_backend_plays_the_same_game_and_says_so_loudly(capfd):
    seats = [SeatSpec("process", "p", str(BOTS / "polite.py")), SeatSpec("builtin", "random")]
    sandboxed = run_match(TOY, seats, seed=9, limits=NEIGHBOUR_LIMITS)
    trusted = run_match(TOY, seats, seed=9, limits=NEIGHBOUR_LIMITS, sandbox="none")
    assert trusted.record == sandboxed.record
    assert trusted.sandbox == "none" and trusted.warnings == [NONE_WARNING]
    assert sandboxed.warnings == []
    assert "WITHOUT isolation" in capfd.readouterr().err


def test_built_in_bots_alone_need_no_sandbox_and_match_the_engine():
    seats = [SeatSpec("builtin", "random")] * 3
    outcome = run_match(TOY, seats, seed=4)
    bots = [engine.RandomBot(derive_seed(4, "bot", seat)) for seat in range(3)]
    assert outcome.record == engine.play_out(TOY.new_game(3, seed=4), bots).record()
    assert outcome.timings[0]["startup_ms"] is None


def test_a_directory_bot_with_a_manifest_runs_at_bot(private_dir):
    bot = private_dir / "kit"
    bot.mkdir()
    shutil.copy(BOTS / "polite.py", bot / "main.py")
    (bot / "bot.json").write_text(json.dumps({"title": "toy", "entry": "main.py", "name": "K"}))
    with registered(TOY):
        outcome = run_match(
            "toy", [SeatSpec("process", "k", str(bot))] * 2, seed=1, limits=NEIGHBOUR_LIMITS
        )
    assert outcome.seat_status == ["ok", "ok"]
    assert outcome.names == ["polite", "polite"]


def test_validation_accepts_a_working_bot():
    with registered(TOY):
        report = validate_bot("toy", str(BOTS / "polite.py"), limits=NEIGHBOUR_LIMITS)
    assert report.ok and report.reason == ""


def test_validation_rejects_a_crashing_bot_with_a_reason_and_its_stderr():
    with registered(TOY):
        report = validate_bot("toy", str(BOTS / "crash_at_start.py"), limits=LIMITS)
    assert not report.ok
    assert report.reason.startswith("crash at start-up: ended before ready: exit status 1")
    assert "Last stderr line: RuntimeError: crash_at_start fails on purpose" in report.reason
    assert "Traceback" in report.stderr


def test_validation_rejects_a_bot_for_another_title_before_running_it(private_dir):
    (private_dir / "bot.py").write_text("")
    (private_dir / "bot.json").write_text(json.dumps({"title": "praga", "entry": "bot.py"}))
    with registered(TOY):
        report = validate_bot("toy", str(private_dir), limits=LIMITS)
    assert not report.ok
    assert report.reason == "bot.json: this bot is for 'praga', not for 'toy'"


@pytest.mark.parametrize("title_id", real_titles())
def test_the_starter_kit_plays_clean_games_in_the_sandbox(title_id):
    kit = KIT / f"{title_id}-python"
    seats = [SeatSpec("process", "kit", str(kit))] + [SeatSpec("builtin", "random")] * (
        players_for(title_id) - 1
    )
    limits = Limits(decision_ms=1000, bank_ms=5000, startup_ms=5000)
    for seed in (1, 2):
        outcome = run_match(title_id, seats, seed=seed, limits=limits)
        assert outcome.faults[0] == [], outcome.stderr[0]
    assert validate_bot(title_id, str(kit), limits=limits).ok


def test_a_bot_in_another_language_plays_through_the_executable_entry(private_dir):
    bot = private_dir / "shell"
    shutil.copytree(BOTS / "shell", bot)
    with registered(TOY):
        outcome = run_match(
            "toy", [SeatSpec("process", "sh", str(bot)), SeatSpec("builtin", "random")],
            seed=2, limits=NEIGHBOUR_LIMITS,
        )  # fmt: skip
    assert outcome.faults[0] == [], outcome.stderr[0]
    assert outcome.names[0] == "shell" and outcome.timings[0]["decisions"] > 0


def test_blank_lines_between_messages_are_not_faults():
    seats = [SeatSpec("process", "b", str(BOTS / "blank_lines.py")), SeatSpec("builtin", "random")]
    outcome = run_match(TOY, seats, seed=6, limits=NEIGHBOUR_LIMITS)
    assert outcome.faults[0] == [] and outcome.timings[0]["decisions"] > 0


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
def test_a_python_bot_runs_as_main_under_its_limits(sandbox):
    seats = [SeatSpec("process", "i", str(BOTS / "introspect.py")), SeatSpec("builtin", "random")]
    limits = NEIGHBOUR_LIMITS.replace(memory_mb=300, processes=12, open_files=40, file_size_mb=3)
    outcome = run_match(TOY, seats, seed=3, limits=limits, sandbox=sandbox)
    # its try at a new user namespace is refused (and reported) in the sandbox only
    calls = [fault.get("call") for fault in outcome.faults[0]]
    assert calls == (["unshare"] if sandbox == "bwrap" else []), outcome.stderr[0]
    seen = json.loads(outcome.stderr[0].split("SEEN ", 1)[1].splitlines()[0])
    assert seen["limits"] == {
        "as": [300 << 20, 300 << 20], "cpu": [300, 301], "nproc": [12, 12],
        "nofile": [40, 40], "fsize": [3 << 20, 3 << 20], "core": [0, 0],
    }  # fmt: skip
    entry = "/bot/introspect.py" if sandbox == "bwrap" else str(BOTS / "introspect.py")
    assert seen["argv"] == [entry] and seen["file"] == entry
    assert seen["path0"] == entry.rpartition("/")[0]
    assert seen["name"] == "__main__"


def status_ids(pid: int) -> dict[str, list[str]]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {
        key: value.split() for key, _, value in (line.partition(":\t") for line in lines)
        if key in ("Uid", "Gid", "Groups", "CapEff", "CapPrm")
    }  # fmt: skip


@pytest.mark.skipif(os.geteuid() != 0, reason="the switch to the sandbox user is root's")
def test_a_root_runner_starts_bubblewrap_as_the_sandbox_user_and_stays_root():
    before = (os.getresuid(), os.getresgid(), os.getgroups())
    process = start_bot(load_bot(BOTS / "polite.py"), NEIGHBOUR_LIMITS)
    try:
        assert (os.getresuid(), os.getresgid(), os.getgroups()) == before
        ids = status_ids(process.popen.pid)  # bubblewrap's outer process, on the host
        uid = process.uid_claim.uid  # one of the sandbox uids, this sandbox's alone
        assert uid in sandbox_uids()
        assert ids["Uid"] == [str(uid)] * 4 and ids["Gid"] == [str(uid)] * 4
        assert ids["Groups"] == [] and ids["CapEff"] == ids["CapPrm"] == ["0000000000000000"]
    finally:
        process.release()


@pytest.mark.skipif(os.geteuid() != 0, reason="the switch to the sandbox user is root's")
def test_the_switch_to_the_sandbox_user_is_the_spawning_threads_alone():
    import threading

    from workers.sandbox import spawning_as

    seen, asked, answered = {}, threading.Event(), threading.Event()

    def other_thread():  # a thread that exists already, a library's say
        asked.wait(10)
        seen["other"] = os.getresuid()
        answered.set()

    other = threading.Thread(target=other_thread)
    other.start()
    with spawning_as(65534):
        seen["spawning"] = os.getresuid()
        asked.set()
        answered.wait(10)
    other.join()
    assert seen == {"spawning": (65534, 65534, 0), "other": (0, 0, 0)}
    assert os.getresuid() == (0, 0, 0) and os.getresgid() == (0, 0, 0)
