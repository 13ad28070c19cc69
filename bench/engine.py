"""Engine speed, single core: games/s and decisions/s with random bots, clone() and
observation() cost. Prints figures measured in this run and their ratio to the targets.

    .venv/bin/python bench/engine.py [--seconds 5]

Targets (issues 2 and 3): Citadels >= 120 four-player games/s with all Dark City options on,
clone() < 20 us; Praga >= 30 four-player games/s, clone() < 50 us. The public Python engine
vic-trouble/citadels-ai (base game only) was measured at 5.6 four-player games/s on this
machine kind (reference figure, not re-measured here).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.core.rng import Rng  # noqa: E402

TARGETS = {  # title: [(players, games/s target or None, clone() target in us)]
    "citadels": [(4, 120, 20), (7, None, 20)],
    "praga": [(4, 30, 50)],
}
PEER_CITADELS_GAMES_PER_S = 5.6


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
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, d = play_random(title, players, options, seed=games)
        games += 1
        decisions += d
    elapsed = time.perf_counter() - start

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
    t0 = time.perf_counter()
    for _ in range(reps // len(mids)):
        for state in mids:
            state.clone()
    clone_us = (time.perf_counter() - t0) / reps * 1e6
    t0 = time.perf_counter()
    for _ in range(reps // len(mids)):
        for state in mids:
            state.observation(0)
    obs_us = (time.perf_counter() - t0) / reps * 1e6
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
        "clone_us": clone_us,
        "observation_us": obs_us,
        "games": games,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    print(
        f"{'title':<10}{'seats':>6}{'games/s':>10}{'decisions/s':>13}{'dec/game':>10}"
        f"{'clone us':>10}{'obs us':>8}   vs target"
    )
    for title_id in engine.titles():
        for players, games_target, clone_target in TARGETS.get(title_id, [(4, None, None)]):
            m = measure(title_id, players, args.seconds)
            notes = []
            if games_target:
                notes.append(f"games {m['games_per_s'] / games_target:.2f}x of {games_target}/s")
            if clone_target:
                notes.append(f"clone {clone_target / m['clone_us']:.2f}x under {clone_target} us")
            if title_id == "citadels" and players == 4:
                notes.append(f"{m['games_per_s'] / PEER_CITADELS_GAMES_PER_S:.0f}x the public peer")
            print(
                f"{title_id:<10}{players:>6}{m['games_per_s']:>10.1f}{m['decisions_per_s']:>13.0f}"
                f"{m['decisions_per_game']:>10.0f}{m['clone_us']:>10.1f}{m['observation_us']:>8.1f}"
                f"   {'; '.join(notes)}"
            )
    print("(ratios above 1.00x meet the target; figures vary with machine load)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
