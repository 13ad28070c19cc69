"""Local games per second through the installed local-arena wheel and through the checkout,
measured in one run (issue 29's target: the same within 5 %).

    .venv/bin/python bench/local_arena.py [--games 200] [--rounds 3]

Builds the wheel (``workers/wheel.py``), installs it into a fresh Python 3.11 virtualenv
(``--no-deps``: ``engine simulate`` needs nothing else), then alternates, round by round, the
same ``python -m engine simulate`` (four random bots, Citadels and Praga) run by the
virtualenv from a folder outside the checkout and by the checkout's interpreter. Each figure is
the child process's CPU time, so other work on a shared machine weighs less on it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workers.wheel import build  # noqa: E402

CONFIGS = [("citadels", 4, 1.0), ("praga", 4, 0.25)]  # title, players, share of --games


def _cpu_seconds(argv: list[str], cwd: Path, env: dict) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
        print(f"{wheel.name}; CPU seconds of the child, {args.rounds} alternating rounds")
        for title, players, share in CONFIGS:
            games = max(1, int(args.games * share))
            tail = ["-m", "engine", "simulate", title, "--players", str(players), "--bots",
                    ",".join(["random"] * players), "--games", str(games), "--seed", "1",
                    "--quiet"]  # fmt: skip
            spent = {side: 0.0 for side in sides}
            for _ in range(args.rounds):
                for side, (python, cwd, env) in sides.items():
                    spent[side] += _cpu_seconds([*python, *tail], cwd, env)
            rate = {side: games * args.rounds / spent[side] for side in sides}
            print(
                f"{title} {players}p: wheel {rate['wheel']:.1f} games/s, checkout "
                f"{rate['checkout']:.1f} games/s, wheel/checkout {rate['wheel'] / rate['checkout']:.3f}"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
