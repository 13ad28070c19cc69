"""Local games per second through the installed local-arena wheel and through the checkout,
measured in one run (issue 29's target: the same within 5 %).

    .venv/bin/python bench/local_arena.py [--games 200] [--rounds 3]

Builds the wheel (``workers/wheel.py``), installs it into a fresh Python 3.11 virtualenv
(``--no-deps``: the engine needs nothing else), then alternates, round by round, the
same games (four random bots, Citadels and Praga, ``engine.play_game``) in a child run by the
virtualenv from a folder outside the checkout and in one run by the checkout's interpreter.
Each figure is the child's CPU time after its imports, best of the rounds, so other work on a
shared machine weighs less on it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workers.wheel import build  # noqa: E402

CONFIGS = [("citadels", 4, 1.0), ("praga", 4, 0.25)]  # title, players, share of --games


# What each side's interpreter runs: games between random bots, timed by its own CPU clock
# after the imports (a process's start-up differs with its site-packages, not with the engine).
CHILD = """
import sys, time, engine
title, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
began = time.process_time()
for seed in range(games):
    engine.play_game(title, ["random"] * players, seed)
print(games / (time.process_time() - began))
"""


def _games_per_second(python: list[str], cwd: Path, env: dict, config: list[str]) -> float:
    done = subprocess.run([*python, "-c", CHILD, *config], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True)  # fmt: skip
    return float(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-local-arena-"))
    try:
        wheel = build(work / "dist")
        venv = work / "venv"
        subprocess.run(["python3.11", "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [venv / "bin/pip", "install", "--quiet", "--no-deps", "--no-index", wheel], check=True
        )
        clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        sides = {
            "wheel": ([str(venv / "bin/python")], work, clean),
            "checkout": ([sys.executable], ROOT, {**clean, "PYTHONPATH": str(ROOT)}),
        }
        print(f"{wheel.name}; games/s of the child's CPU time, best of {args.rounds} rounds")
        for title, players, share in CONFIGS:
            config = [title, str(players), str(max(1, int(args.games * share)))]
            best = {side: 0.0 for side in sides}
            for _ in range(args.rounds):  # alternating, so both sides see the same machine
                for side, (python, cwd, env) in sides.items():
                    best[side] = max(best[side], _games_per_second(python, cwd, env, config))
            print(
                f"{title} {players}p: wheel {best['wheel']:.1f} games/s, checkout "
                f"{best['checkout']:.1f} games/s, wheel/checkout {best['wheel'] / best['checkout']:.3f}"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
