"""Play whole games in-process with built-in bots (for simulation, tests and benches)."""

from __future__ import annotations

from typing import Any

from .bots import Bot
from .contract import State
from .registry import make_bot, title
from .rng import derive_seed


def play_game(
    title_id: str,
    bot_names: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
) -> State:
    """Play one game to the end; bot i sits at seat i and gets its own derived seed."""
    bots = [
        make_bot(title_id, name, derive_seed(seed, "bot", i)) for i, name in enumerate(bot_names)
    ]
    state = title(title_id).new_game(len(bots), options, seed)
    return play_out(state, bots)


def play_out(state: State, bots: list[Bot]) -> State:
    """Let ``bots`` (one per seat) make every decision until the game ends."""
    while not state.is_over():
        decision = state.decision()
        observation = state.observation(decision.seat)
        state.apply(bots[decision.seat].choose(observation, decision.kind, decision.options))
    return state
