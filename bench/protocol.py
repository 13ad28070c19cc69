"""Bot protocol costs, measured in one run (figures only, never asserted).

    python bench/protocol.py [--title citadels] [--games 20] [--runners 4]

1. Decision round trip of a sandboxed bot process through the runner's channel, against the
   floor: the same child program, the same messages, over a raw pipe with plain
   ``json.dumps``/``readline``/``json.loads`` and no sandbox. Also with a pause/resume
   (SIGSTOP/SIGCONT) around every decision, as when seats alternate.
2. Start-up to ``ready`` of the starter-kit bot: sandboxed with a warm start (forked from the
   runner's zygote into a sandbox bubblewrap built) and a cold one (bubblewrap runs prlimit
   and a new interpreter), with the ``none`` backend, and the bare interpreter; and the CPU
   time of a bot's whole life without decisions, every process counted (bubblewrap, prlimit,
   the interpreter; for a warm start the zygote's fork, the keeper and the bot), for the
   starter kit and for a bot that imports nothing (a cold interpreter's floor).
3. Full games between sandboxed starter-kit bots, one after another on all cores and on one
   core: games per second of wall time, the CPU time per game of the runner and of the bot
   processes, and the share of the runner's own work (engine, observations, encoding)
   measured by replaying the same games without bot processes. 3b: the same games played by
   several runner processes at once (``--runners``), all pinned to one core, as a worker with
   that concurrency would. Last, the games/s these CPU figures allow on one core: wall time
   can overlap waiting, never CPU time.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).absolute().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.core.records import action_count  # noqa: E402
from workers.launch import start_bot  # noqa: E402
from workers.limits import Limits  # noqa: E402
from workers.manifest import load_bot  # noqa: E402
from workers.match import SeatSpec, run_match  # noqa: E402
from workers.protocol import (  # noqa: E402
    Channel,
    EventsDelta,
    StderrLog,
    decide_message,
    encode,
    parse_line,
)
from workers.sandbox import bot_python  # noqa: E402
from workers.warm_start import zygote_cpu_seconds, zygote_pid  # noqa: E402
from workers.watchdog import watchdog_pid  # noqa: E402

# The least a Python bot can cost: the interpreter, no import, ready, exit at end of input.
FLOOR_BOT = """\
import sys
sys.stdin.readline()
sys.stdout.write('{"type": "ready"}\\n'); sys.stdout.flush()
for line in sys.stdin:
    pass
"""

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
    """Real ``decide`` messages of the title, as the runner sends them (event log as a delta),
    from games between built-in random bots."""
    messages, seed = [], 0
    while len(messages) < count:
        state = engine.title(title_id).new_game(4 if title_id != "toy" else 3, seed=seed)
        bots = [engine.make_bot(title_id, "random", i) for i in range(state.players)]
        deltas = [EventsDelta() for _ in range(state.players)]
        while not state.is_over() and len(messages) < count:
            d = state.decision()
            obs = state.observation(d.seat)
            sent, events_from = deltas[d.seat].apply(obs)
            messages.append(
                decide_message(
                    len(messages) + 1, d.kind, sent, d.options, 1000, 10000, [], events_from
                )
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


def startups(bot_dir: Path, runs: int) -> dict[str, list[tuple[float, float]]]:
    """(start-up to ready, CPU of the whole life) per run, the ways interleaved run by run."""
    startup(bot_dir, "bwrap", warm=True)  # the zygote starts once per runner, not per bot
    times = {"warm": [], "cold": [], "none": [], "bare": []}
    for _ in range(runs):
        times["warm"].append(startup(bot_dir, "bwrap", warm=True))
        times["cold"].append(startup(bot_dir, "bwrap", warm=False))
        times["none"].append(startup(bot_dir, "none"))
        times["bare"].append(bare_startup(bot_dir))
    return times


def children_cpu() -> float:
    """CPU seconds of every descendant waited for so far (their own waited children too),
    and of the zygote's warm bots (children of the zygote, not ours)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    time.sleep(0.02)  # a keeper that just reported its bot's end is reaped by the zygote
    return usage.ru_utime + usage.ru_stime + zygote_cpu_seconds()


def pin(cpus: list[int]) -> None:
    """Run this process, the bots it starts and its zygote's forks on ``cpus``."""
    os.sched_setaffinity(0, cpus)
    if zygote_pid() is not None:
        os.sched_setaffinity(zygote_pid(), cpus)


def adopt_orphans() -> None:
    """Become the reaper of our orphaned descendants (PR_SET_CHILD_SUBREAPER).

    bubblewrap's outer process exits as soon as the sandbox's PID 1 reports the bot's exit,
    without waiting for it; the sandbox's processes are then re-parented to us and their CPU
    time reaches ``children_cpu`` once :func:`reap_orphans` waits for them.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def reap_orphans(timeout: float = 2.0) -> None:
    """Wait for every child left but the zygote and the watchdog (call only when no Popen
    still owns one)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if set(_children()) <= {zygote_pid(), watchdog_pid()}:
                return
            time.sleep(0.001)


def _children() -> list[int]:
    pids = []
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as children:
            pids.extend(int(pid) for pid in children.read().split())
    return pids


def startup(bot_dir: Path, backend: str, warm: bool = False) -> tuple[float, float]:
    """Seconds to ``ready``, and CPU seconds of the bot's whole life (no decision).

    After ``ready`` stdin is closed and the bot exits on its own, so that bubblewrap's
    processes reap it and every process's CPU time reaches ``children_cpu`` (a killed
    sandbox loses its children's).
    """
    bot, limits = load_bot(bot_dir), Limits()
    cpu = children_cpu()
    began = time.perf_counter()
    process = start_bot(bot, limits, backend, warm=warm)
    assert process.warm == warm, "the warm start fell back to a cold one"
    channel = Channel(process, limits.line_bytes, StderrLog(limits.stderr_bytes))
    channel.send({"type": "start", "seat": 0, "players": 4})
    channel.read_line(time.monotonic() + 10)
    elapsed = time.perf_counter() - began
    process.close_stdin()
    try:
        deadline = time.monotonic() + 5
        while process.alive() and time.monotonic() < deadline:
            time.sleep(0.001)
    finally:
        process.release()
    reap_orphans()
    return elapsed, children_cpu() - cpu


def bare_startup(bot_dir: Path) -> tuple[float, float]:
    entry = bot_dir / load_bot(bot_dir).entry
    cpu = children_cpu()
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
    child.stdin.close()
    child.wait()
    return elapsed, children_cpu() - cpu


def play_games(title_id: str, kit: Path, seeds: list[int]) -> dict:
    """Play one game per seed between four sandboxed copies of ``kit``, one after another."""
    seats = [SeatSpec("process", "kit", str(kit))] * 4
    records, startup_s = [], 0.0
    bots0 = children_cpu()
    cpu0, wall0 = os.times(), time.perf_counter()
    for seed in seeds:
        outcome = run_match(title_id, seats, seed=seed)
        reap_orphans()  # every Popen of the game has been waited for: the rest are orphans
        records.append(outcome.record)
        startup_s += max(t["startup_ms"] for t in outcome.timings) / 1000
        assert all(status == "ok" for status in outcome.seat_status), outcome.faults
    wall, cpu1 = time.perf_counter() - wall0, os.times()  # before children_cpu's settling
    return {
        "games": len(seeds),
        "wall": wall,
        "runner_cpu": cpu1.user - cpu0.user + cpu1.system - cpu0.system,
        "bots_cpu": children_cpu() - bots0,
        "startup": startup_s,
        "decisions": sum(action_count(r) for r in records),
        "records": records,
    }


def host_share(title_id: str, records: list[dict]) -> float:
    """Seconds the runner's own work takes for these games without any bot process.

    Each recorded game is played again in-process: the decision, the observation and the
    encoded ``decide`` (event log as a delta, as sent), then the recorded action.
    """
    title = engine.title(title_id)
    played = [(record, title.replay(record).actions()) for record in records]
    began = time.perf_counter()
    for record, actions in played:
        state = title.new_game(record["players"], record["options"], record["seed"])
        deltas = [EventsDelta() for _ in range(record["players"])]
        for action in actions:
            d = state.decision()
            sent, events_from = deltas[d.seat].apply(state.observation(d.seat))
            encode(decide_message(1, d.kind, sent, d.options, 1, 1, [], events_from))
            state.apply(action)
    return time.perf_counter() - began


def _play_share(job: tuple[str, Path, list[int]]) -> dict:
    adopt_orphans()
    outcome = play_games(*job)
    del outcome["records"]
    return outcome


def concurrent_games(title_id: str, kit: Path, games: int, runners: int) -> dict:
    """``runners`` runner processes at once (as a worker with that concurrency), seeds split."""
    jobs = [(title_id, kit, list(range(i, games, runners))) for i in range(runners)]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(runners) as pool:
        shares = pool.map(_play_share, jobs)
    return {"games": games, "wall": time.perf_counter() - began, "shares": shares}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="citadels")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--startups", type=int, default=20)
    parser.add_argument(
        "--runners", type=int, default=4, help="runner processes sharing one core in part 3b"
    )
    args = parser.parse_args()
    adopt_orphans()
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
    warm_start, cold_start, none_start, bare_start = (
        statistics.median(t for t, _ in starts[k]) for k in ("warm", "cold", "none", "bare")
    )
    print(f"   sandboxed, warm (bwrap + zygote fork)   {ms(warm_start)}")
    print(f"   sandboxed, cold (bwrap + prlimit + py)  {ms(cold_start)}")
    print(f"   none backend (prlimit + python)         {ms(none_start)}")
    print(f"   bare interpreter                        {ms(bare_start)}")
    print(f"   bubblewrap's share of a cold start      {ms(cold_start - none_start)}")
    print("   target: < 150 ms")
    kit_cpu, cold_cpu, none_cpu, bare_cpu = (
        statistics.median(c for _, c in starts[k]) for k in ("warm", "cold", "none", "bare")
    )
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o755)
        script = Path(tmp) / "floor_bot.py"
        script.write_text(FLOOR_BOT)
        script.chmod(0o644)
        floor_cpu = statistics.median(
            startup(script, "bwrap", warm=False)[1] for _ in range(args.startups)
        )
    print("   CPU of a bot's whole life without decisions (start, ready, exit), every process:")
    print(f"   sandboxed starter kit, warm             {ms(kit_cpu)}")
    print(f"   sandboxed starter kit, cold             {ms(cold_cpu)}")
    print(f"   none backend starter kit                {ms(none_cpu)}")
    print(f"   bare interpreter starter kit            {ms(bare_cpu)}")
    print(f"   sandboxed bot importing nothing, cold   {ms(floor_cpu)}")

    if title_id in engine.titles() and kit.exists():
        cpus = sorted(os.sched_getaffinity(0))
        n = args.games
        for label, pinned in (("all cores", cpus), (f"one core (cpu {cpus[0]})", cpus[:1])):
            pin(pinned)  # bot processes inherit it
            games = play_games(title_id, kit, list(range(n)))
            host = host_share(title_id, games["records"])
            print(
                f"\n3. {n} full 4-player {title_id} games one after another, four sandboxed "
                f"starter-kit bots, {label}"
            )
            print(f"   games/s (wall)                          {n / games['wall']:.2f}")
            print(f"   per game                                {ms(games['wall'] / n)}")
            print(f"   of which start-up to last ready         {ms(games['startup'] / n)}")
            print(f"   decisions per game                      {games['decisions'] / n:.0f}")
            print(f"   runner CPU per game (user + sys)        {ms(games['runner_cpu'] / n)}")
            print(f"   bot processes' CPU per game (all four)  {ms(games['bots_cpu'] / n)}")
            print(
                f"   engine + observations + encoding alone  {ms(host / n)} "
                f"({100 * host / games['wall']:.0f}% of wall)"
            )
        if args.runners > 1:
            together = concurrent_games(title_id, kit, n, args.runners)
            print(
                f"\n3b. the same {n} games played by {args.runners} runner processes at once, "
                f"everything pinned to cpu {cpus[0]}"
            )
            print(f"   games/s (wall, all runners together)    {n / together['wall']:.2f}")
            cpu = sum(share["runner_cpu"] for share in together["shares"])
            bots = sum(share["bots_cpu"] for share in together["shares"])
            print(f"   runner CPU per game (user + sys)        {ms(cpu / n)}")
            print(f"   bot processes' CPU per game (all four)  {ms(bots / n)}")
        pin(cpus)
        print("   target: >= 10 games/s on one core")
        runner = games["runner_cpu"] / n  # the one-core run of part 3
        total = runner + games["bots_cpu"] / n
        print(
            f"   CPU per game measured, runner + bots:   {ms(total)}, so at most "
            f"{1 / total:.1f} games/s on one core whatever runs concurrently"
        )
        for label, bot_cpu in (
            ("starter-kit bots, warm", kit_cpu),
            ("starter-kit bots, cold", cold_cpu),
            ("bots importing nothing, cold", floor_cpu),
        ):
            floor = runner + 4 * bot_cpu
            print(
                f"   CPU floor per game, {label}: runner {ms(runner)} + 4 x {ms(bot_cpu)} = "
                f"{ms(floor)}, so at most {1 / floor:.1f} games/s on one core"
            )
        print(
            f"   load average while measuring: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
            f"on {os.cpu_count()} cores (other work on the machine shares the core)"
        )


if __name__ == "__main__":
    main()
