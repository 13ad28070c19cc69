"""Meeple Arena's rules engine: pure Python, no Django, no I/O, no wall clock.

>>> import engine
>>> t = engine.title("citadels")
>>> s = t.new_game(players=4, seed=123)
"""

from .core.bots import Bot, RandomBot
from .core.contract import ENGINE_VERSION, Decision, State, Title
from .core.errors import (
    ConfigError,
    EngineError,
    IllegalAction,
    IncompleteRecord,
    RecordAltered,
    RecordVersionMismatch,
    ReplayDiverged,
    ReplayMismatch,
    SignatureRefused,
)
from .core.play import play_game, play_out
from .core.registry import bots, make_bot, register, title, titles

__all__ = [
    "ENGINE_VERSION",
    "Bot",
    "ConfigError",
    "Decision",
    "EngineError",
    "IllegalAction",
    "IncompleteRecord",
    "RandomBot",
    "RecordAltered",
    "RecordVersionMismatch",
    "ReplayDiverged",
    "ReplayMismatch",
    "SignatureRefused",
    "State",
    "Title",
    "bots",
    "make_bot",
    "play_game",
    "play_out",
    "register",
    "title",
    "titles",
]

# Titles register themselves on import; each is optional until it exists.
from . import titles_loaded as _titles_loaded  # noqa: E402,F401
