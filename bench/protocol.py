"""Bot protocol costs, measured in one run (figures only, never asserted).

    python bench/protocol.py [--title citadels] [--games 20]

1. Decision round trip of a sandboxed bot process through the runner's channel, against the
   floor: the same child program, the same messages, over a raw pipe with plain
   ``json.dumps``/``readline``/``json.loads`` and no sandbox. Also with a pause/resume
   (SIGSTOP/SIGCONT) around every decision, as when seats alternate.
2. Start-up to ``ready`` of the starter-kit bot: sandboxed, with the ``none`` backend, and the
   bare interpreter.
3. Full games between sandboxed starter-kit bots: games per second of wall time, CPU time per
   game (runner plus every bot process), and the engine's own share.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).absolute().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from workers.limits import Limits  # noqa: E402
from workers.manifest import load_bot  # noqa: E402
from workers.match import SeatSpec, run_match  # noqa: E402
from workers.protocol import Channel, StderrLog, decide_message, parse_line  # noqa: E402
from workers.sandbox import bot_python, start_bot  # noqa: E402

ECHO_BOT = """\
import json, sys
json.loads(sys.stdin.readline())
sys.stdout.write('{"type": "ready"}\\n'); sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] != "decide":
        break
    sys.stdout.write(json.dumps({"type": "act", "id": m["id"], "choice": 0}) + "\\n")
    sys.stdout.flush()
"""


def decide_messages(title_id: str, count: int) -> list[dict]:
    """Real ``decide`` messages of the title, from games between built-in random bots."""
    messages, seed = [], 0
    while len(messages) < count:
        state = engine.title(title_id).new_game(4 if title_id != "toy" else 3, seed=seed)
        bots = [engine.make_bot(title_id, "random", i) for i in range(state.players)]
        while not state.is_over() and len(messages) < count:
            d = state.decision()
            obs = state.observation(d.seat)
            messages.append(
                decide_message(len(messages) + 1, d.kind, obs, d.options, 1000, 10000, [])
            )
            state.apply(bots[d.seat].choose(obs, d.kind, d.options))
        seed += 1
    return messages


class RawChild:
    """The floor: the child over plain pipes, ``json.dumps``/``readline``/``json.loads``."""

    def __init__(self, script: Path):
        self.child = subprocess.Popen(
            [bot_python(), "-E", "-s", "-S", "-B", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.child.stdin.write(b'{"type": "start"}\n')
        self.child.stdin.flush()
        self.child.stdout.readline()

    def round_trip(self, message: dict) -> float:
        began = time.perf_counter()
        self.child.stdin.write(json.dumps(message).encode() + b"\n")
        self.child.stdin.flush()
        json.loads(self.child.stdout.readline())
        return time.perf_counter() - began

    def close(self) -> None:
        self.child.stdin.close()
        self.child.wait()


class SandboxedChild:
    """The same child in the sandbox, through the runner's channel (optionally paused)."""

    def __init__(self, script: Path, pause: bool):
        self.limits = Limits()
        self.pause = pause
        self.process = start_bot(load_bot(script), self.limits)
        self.channel = Channel(self.process, self.limits.line_bytes, StderrLog(1 << 16))
        self.channel.send({"type": "start"})
        self.channel.read_line(time.monotonic() + 10)

    def round_trip(self, message: dict) -> float:
        if self.pause:
            self.process.pause()
        began = time.perf_counter()
        self.channel.send(message)
        self.channel.write_now()  # as the runner does: question first, then wake the bot
        if self.pause:
            self.process.resume()
        parse_line(self.channel.read_line(time.monotonic() + 10))
        return time.perf_counter() - began

    def close(self) -> None:
        self.process.kill()
        self.process.release()


def round_trips(script: Path, messages: list[dict]) -> dict[str, list[float]]:
    """Each message goes to all three children in turn, so machine load hits them alike."""
    children = {
        "raw": RawChild(script),
        "sandboxed": SandboxedChild(script, pause=False),
        "paused": SandboxedChild(script, pause=True),
    }
    times = {name: [] for name in children}
    try:
        for index, message in enumerate(messages):
            names = list(children)
            names = names[index % 3 :] + names[: index % 3]
            for name in names:
                times[name].append(children[name].round_trip(message))
    finally:
        for child in children.values():
            child.close()
    return times


def startups(bot_dir: Path, runs: int) -> dict[str, list[float]]:
    """Start-up to ready, the three ways interleaved run by run."""
    times = {"bwrap": [], "none": [], "bare": []}
    for _ in range(runs):
        times["bwrap"].append(startup(bot_dir, "bwrap"))
        times["none"].append(startup(bot_dir, "none"))
        times["bare"].append(bare_startup(bot_dir))
    return times


def startup(bot_dir: Path, backend: str) -> float:
    bot, limits = load_bot(bot_dir), Limits()
    began = time.perf_counter()
    process = start_bot(bot, limits, backend)
    channel = Channel(process, limits.line_bytes, StderrLog(limits.stderr_bytes))
    channel.send({"type": "start", "seat": 0, "players": 4})
    channel.read_line(time.monotonic() + 10)
    elapsed = time.perf_counter() - began
    process.kill()
    process.release()
    return elapsed


def bare_startup(bot_dir: Path) -> float:
    entry = bot_dir / load_bot(bot_dir).entry
    began = time.perf_counter()
    child = subprocess.Popen(
        [bot_python(), "-E", "-s", "-S", "-B", str(entry)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    child.stdin.write(b'{"type": "start", "seat": 0, "players": 4}\n')
    child.stdin.flush()
    child.stdout.readline()
    elapsed = time.perf_counter() - began
    child.kill()
    child.wait()
    return elapsed


def full_games(title_id: str, kit: Path, games: int) -> dict:
    seats = [SeatSpec("process", "kit", str(kit))] * 4
    decisions, startup_ms, wall0 = 0, 0.0, time.perf_counter()
    for seed in range(games):
        outcome = run_match(title_id, seats, seed=seed)
        decisions += len(outcome.record["actions"])
        startup_ms += max(t["startup_ms"] for t in outcome.timings)
        assert all(status == "ok" for status in outcome.seat_status), outcome.faults
    wall = time.perf_counter() - wall0
    # The engine's share: the same number of games with in-process bots, observations encoded.
    began = time.perf_counter()
    for seed in range(games):
        state = engine.title(title_id).new_game(4, seed=seed)
        bots = [engine.make_bot(title_id, "random", i) for i in range(4)]
        while not state.is_over():
            d = state.decision()
            obs = state.observation(d.seat)
            json.dumps(decide_message(1, d.kind, obs, d.options, 1, 1, []))
            state.apply(bots[d.seat].choose(obs, d.kind, d.options))
    engine_s = time.perf_counter() - began
    return {"wall": wall, "decisions": decisions, "engine": engine_s, "startup": startup_ms / 1000}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="citadels")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--startups", type=int, default=20)
    args = parser.parse_args()
    title_id = args.title
    if title_id not in engine.titles():
        from tests.support.toy_title import TOY

        print(f"{title_id} is not on this branch yet: the toy title stands in (parts 1 and 2)")
        engine.register(TOY, {})
        title_id = "toy"
    kit = ROOT / "starter-kits" / f"{title_id}-python"
    if not kit.exists():
        kit = ROOT / "tests" / "fixtures" / "bots" / "polite.py"
    print(f"title {title_id}; bots run with {bot_python()}; host Python {sys.version.split()[0]}")

    messages = decide_messages(title_id, args.messages)
    sizes = [len(json.dumps(m)) for m in messages]
    print(
        f"\n1. decision round trip, {len(messages)} real decide messages "
        f"(median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "echo_bot.py"
        script.write_text(ECHO_BOT)
        Path(tmp).chmod(0o755)
        script.chmod(0o644)
        times = round_trips(script, messages)
        floor, boxed, paused = (statistics.median(times[k]) for k in ("raw", "sandboxed", "paused"))
    print(f"   raw pipe + json floor (no sandbox)      {ms(floor)}")
    print(f"   sandboxed, runner channel               {ms(boxed)}   ratio {boxed / floor:.2f}x")
    print(f"   sandboxed + SIGSTOP/SIGCONT each time   {ms(paused)}   ratio {paused / floor:.2f}x")
    print("   target: sandboxed decision cost <= 1.5x the floor")

    print(f"\n2. start-up to ready, starter kit, median of {args.startups}")
    starts = startups(kit, args.startups)
    boxed_start, none_start, bare_start = (
        statistics.median(starts[k]) for k in ("bwrap", "none", "bare")
    )
    print(f"   sandboxed (bwrap + prlimit + python)    {ms(boxed_start)}")
    print(f"   none backend (prlimit + python)         {ms(none_start)}")
    print(f"   bare interpreter                        {ms(bare_start)}")
    print(f"   bubblewrap's share                      {ms(boxed_start - none_start)}")
    print("   target: < 150 ms")

    if title_id in engine.titles() and kit.exists():
        cpus = sorted(os.sched_getaffinity(0))
        n = args.games
        for label, pinned in (("all cores", cpus), ("one core", cpus[:1])):
            os.sched_setaffinity(0, pinned)  # bot processes inherit it
            games = full_games(title_id, kit, n)
            print(
                f"\n3. {n} full 4-player {title_id} games, four sandboxed starter-kit bots, {label}"
            )
            print(f"   games/s (wall)                          {n / games['wall']:.2f}")
            print(f"   per game                                {ms(games['wall'] / n)}")
            print(f"   of which start-up to last ready         {ms(games['startup'] / n)}")
            print(f"   decisions per game                      {games['decisions'] / n:.0f}")
            print(
                f"   engine + encoding alone per game        {ms(games['engine'] / n)} "
                f"({100 * games['engine'] / games['wall']:.0f}% of wall)"
            )
        os.sched_setaffinity(0, cpus)
        print("   target: >= 10 games/s on one core")


if __name__ == "__main__":
    main()
