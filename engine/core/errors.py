"""Errors raised by the engine contract."""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class ConfigError(EngineError, ValueError):
    """A game configuration (player count, rule option) that the title does not allow."""


class IllegalAction(EngineError, ValueError):
    """A choice that is not one of the options of the current decision."""


class ReplayMismatch(EngineError):
    """A replay record that does not rebuild the game it claims to record (malformed, or one
    of the more precise cases below)."""


class RecordVersionMismatch(ReplayMismatch):
    """A record of another rules version (or record format) than this engine plays."""


class RecordAltered(ReplayMismatch):
    """A record whose content no longer matches the digest written with it."""


class IncompleteRecord(ReplayMismatch):
    """A record that ends before the game it recorded did (actions missing at its end)."""


class ReplayDiverged(ReplayMismatch):
    """A record that replays, but not to the result (or end) that was stored with it."""


class SignatureRefused(EngineError):
    """A record whose signature is missing, does not match its content, or is not the
    expected signer's (``engine/core/signatures.py``)."""
