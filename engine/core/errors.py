"""Errors raised by the engine contract."""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class ConfigError(EngineError, ValueError):
    """A game configuration (player count, rule option) that the title does not allow."""


class IllegalAction(EngineError, ValueError):
    """A choice that is not one of the options of the current decision."""


class ReplayMismatch(EngineError):
    """A replay record that does not rebuild a consistent game."""
