"""Engine speed, single core: games/s and decisions/s with random bots, clone() and
observation() cost. Prints figures measured in this run and their ratio to the targets.
Time is the process's CPU time, so other work on a shared machine weighs less on the figures.

    .venv/bin/python bench/engine.py [--seconds 5] [--only praga:4]
        [--baseline PATH [--repeat N]] [--peer PATH]

Targets (issues 2 and 3): Citadels >= 120 four-player games/s with all Dark City options on,
clone() < 20 us; Praga >= 30 four-player games/s, clone() < 50 us.

Comparisons are printed only when both sides are measured in this run, on this machine:
``--baseline PATH`` times another checkout of this project (e.g. ``git worktree add
/tmp/before <commit>``) configuration by configuration, alternating with this checkout, each
in a fresh process; ``--peer PATH`` times a checkout of the public Python engine
vic-trouble/citadels-ai (base game, four random bots) and prints our four-player Citadels
games/s as a multiple of it. Without them, no ratio to another engine is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
# A child process measures the checkout named by --child-root (this one by default).
_ROOT = Path(os.environ.get("ARENA_BENCH_ENGINE_ROOT", HERE))
sys.path.insert(0, str(_ROOT))

import engine  # noqa: E402
from engine.core.rng import Rng  # noqa: E402

TARGETS = {  # title: [(players, games/s target or None, clone() target in us)]
    "citadels": [(4, 120, 20), (7, None, 20)],
    "praga": [(4, 30, 50)],
}

# Run inside the peer's checkout: four random bots, base game, as its arena.py sets them up.
PEER_SCRIPT = """
import json, random, sys, time
from ai.random_bot import RandomBotController
from citadels.cards import Deck, simple_districts, standard_chars
from citadels.game import Game
from citadels.gameplay import GameController
random.seed(0)
seconds = float(sys.argv[1])
games = 0
start = time.process_time()
while time.process_time() - start < seconds:
    game = Game(Deck(standard_chars()), Deck(simple_districts()))
    controller = GameController(game)
    for i in range(4):
        controller.set_player_controller(game.add_player(f"Bot{i + 1}"), RandomBotController())
    while not controller.game_over:
        controller.play()
    games += 1
print(json.dumps({"games_per_s": games / (time.process_time() - start), "games": games}))
"""


def full_options(title_id: str, players: int) -> dict:
    """The richest configuration: every list option with all its elements (e.g. Dark City)."""
    title = engine.title(title_id)
    overrides = {}
    for spec in title.option_specs:
        if spec.is_list:
            overrides[spec.name] = list(spec.allowed_for(players))
    try:
        return title.options(players, **overrides)
    except engine.ConfigError:
        return title.options(players)


def play_random(title, players, options, seed):
    state = title.new_game(players, options, seed)
    chooser = Rng(seed, stream=9)
    decisions = 0
    while not state.is_over():
        state.apply(chooser.below(len(state.decision().options)))
        decisions += 1
    return state, decisions


def measure(title_id: str, players: int, seconds: float) -> dict:
    title = engine.title(title_id)
    options = full_options(title_id, players)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, d = play_random(title, players, options, seed=games)
        games += 1
        decisions += d
    elapsed = time.process_time() - start

    # clone() and observation() on mid-game states of a few games
    mids = []
    for seed in range(5):
        state = title.new_game(players, options, seed)
        chooser = Rng(seed, stream=9)
        for _ in range(decisions // games // 2):
            if state.is_over():
                break
            state.apply(chooser.below(len(state.decision().options)))
        mids.append(state)
    reps = 2000
    t0 = time.process_time()
    for _ in range(reps // len(mids)):
        for state in mids:
            state.clone()
    clone_us = (time.process_time() - t0) / reps * 1e6
    t0 = time.process_time()
    for _ in range(reps // len(mids)):
        for state in mids:
            state.observation(0)
    obs_us = (time.process_time() - t0) / reps * 1e6
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
        "clone_us": clone_us,
        "observation_us": obs_us,
        "games": games,
    }


def _run_json(what: str, command: list[str], **kwargs) -> dict:
    """Run ``command`` and read the one JSON line it prints; a failure names ``what``."""
    out = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)
    if out.returncode:
        raise SystemExit(f"{what} failed:\n{out.stderr.strip()}")
    return json.loads(out.stdout)


def measure_in_child(root: Path, title_id: str, players: int, seconds: float) -> dict:
    """``measure`` in a fresh interpreter whose ``engine`` is the checkout at ``root``."""
    return _run_json(
        f"measuring {root}",
        [sys.executable, __file__, "--child", f"{title_id}:{players}", "--seconds", str(seconds)],
        env=dict(os.environ, ARENA_BENCH_ENGINE_ROOT=str(root)),
    )


def measure_peer(path: Path, seconds: float) -> dict:
    """Four-player games/s of vic-trouble/citadels-ai (random bots) in the checkout ``path``."""
    if not (path / "citadels" / "gameplay.py").is_file():
        raise SystemExit(f"--peer {path}: not a checkout of vic-trouble/citadels-ai")
    return _run_json(
        f"--peer {path}: the peer's games",
        [sys.executable, "-c", PEER_SCRIPT, str(seconds)],
        cwd=path,
        env=dict(os.environ, PYTHONPATH=str(path)),
    )


def configurations(only: str | None) -> list[tuple[str, int, int | None, int | None]]:
    found = []
    for title_id in engine.titles():
        for players, games_target, clone_target in TARGETS.get(title_id, [(4, None, None)]):
            if only is None or only == f"{title_id}:{players}":
                found.append((title_id, players, games_target, clone_target))
    if not found:
        raise SystemExit(f"--only {only}: no such configuration")
    return found


def _median_run(runs: list[tuple[dict, dict]]) -> tuple[dict, dict]:
    """The (baseline, ours) pair whose games/s ratio is the median of the alternated runs."""
    runs = sorted(runs, key=lambda pair: pair[1]["games_per_s"] / pair[0]["games_per_s"])
    return runs[len(runs) // 2]


def _row(label: str, m: dict, notes: list[str]) -> str:
    return (
        f"{label:<18}{m['games_per_s']:>10.1f}{m['decisions_per_s']:>13.0f}"
        f"{m['decisions_per_game']:>10.0f}{m['clone_us']:>10.1f}{m['observation_us']:>8.1f}"
        f"   {'; '.join(notes)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    parser.add_argument("--only", help="one configuration, e.g. praga:4")
    parser.add_argument("--baseline", type=Path, help="another checkout, timed in this run")
    parser.add_argument("--peer", type=Path, help="a vic-trouble/citadels-ai checkout")
    parser.add_argument(
        "--repeat", type=int, default=1, help="with --baseline: alternate runs, median ratio"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        title_id, players = args.child.split(":")
        print(json.dumps(measure(title_id, int(players), args.seconds)))
        return 0
    print(
        f"{'title':<12}{'seats':>6}{'games/s':>10}{'decisions/s':>13}{'dec/game':>10}"
        f"{'clone us':>10}{'obs us':>8}   vs target"
    )
    ours = {}
    for title_id, players, games_target, clone_target in configurations(args.only):
        if args.baseline:
            runs = [
                (
                    measure_in_child(args.baseline.resolve(), title_id, players, args.seconds),
                    measure_in_child(HERE, title_id, players, args.seconds),
                )
                for _ in range(args.repeat)
            ]
            base, m = _median_run(runs)
        else:
            m = measure(title_id, players, args.seconds)
        ours[(title_id, players)] = m
        notes = []
        if games_target:
            notes.append(f"games {m['games_per_s'] / games_target:.2f}x of {games_target}/s")
        if clone_target:
            notes.append(f"clone {clone_target / m['clone_us']:.2f}x under {clone_target} us")
        print(_row(f"{title_id:<12}{players:>6}", m, notes))
        if args.baseline:
            ratio = [
                f"games/s {m['games_per_s'] / base['games_per_s']:.3f}x",
                f"clone {m['clone_us'] / base['clone_us']:.3f}x",
                f"obs {m['observation_us'] / base['observation_us']:.3f}x",
            ]
            print(
                _row(
                    f"{'  baseline':<12}{players:>6}",
                    base,
                    ["this / baseline: " + ", ".join(ratio)],
                )
            )
    if args.peer and ("citadels", 4) in ours:
        peer = measure_peer(args.peer.resolve(), args.seconds)
        ratio = ours[("citadels", 4)]["games_per_s"] / peer["games_per_s"]
        print(
            f"public peer vic-trouble/citadels-ai, four random bots, base game: "
            f"{peer['games_per_s']:.1f} games/s in this run; Citadels (Dark City on) here "
            f"{ratio:.1f}x that"
        )
    print("(ratios above 1.00x meet the target; figures vary with machine load)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
