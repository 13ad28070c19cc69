"""Built-in bots: they see exactly what a sandboxed bot sees (observation, kind, options)."""

from __future__ import annotations

from typing import Any

from .rng import Rng


class Bot:
    """A built-in bot. ``choose`` returns an index into ``options``.

    Built-in bots receive the same observation a bot process receives, never the state, so
    they are honest opponents and examples of the protocol.
    """

    name = "bot"
    # True for a bot that spends a budget thinking on each decision (a search bot): quick
    # games (tests, demos) leave it out through ``engine.bots(title, thinking=False)``.
    thinks = False

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed, stream=1013)

    def choose(self, observation: dict[str, Any], kind: str, options: list[dict]) -> int:
        raise NotImplementedError

    def pick(self, items: list):
        """A uniformly chosen element, from the bot's own stream (never the game's)."""
        return items[self.rng.below(len(items))]


class RandomBot(Bot):
    """Uniformly random among the legal options, seeded."""

    name = "random"

    def choose(self, observation, kind, options):
        return self.rng.below(len(options))
