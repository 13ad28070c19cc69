"""Errors of a game that no other attempt can cure, and the short public reason for each.

A worker that meets one fails the game at once (no retries): the public reason goes on the
game page and in the API for everyone, the traceback only to staff and the owners of the
seated bots. Anything else the runner raises is taken as transient (a worker's own trouble)
and the game is tried again elsewhere, up to ARENA_GAME_MAX_ATTEMPTS times.
"""

from __future__ import annotations

from engine import ConfigError

from .manifest import BotSpecError


class PermanentGameError(Exception):
    """The game cannot be played as it was set up, on any worker, however often it is tried
    (a corrupt or missing bot artefact, a bot of another title, options the title refuses).

    ``str(err)`` is shown to the public: say what is wrong in words a person can act on,
    with no server paths or internals (those go in the chained exception, kept for staff).
    """


# Shown instead of the message of errors whose text may name server paths.
UNRUNNABLE_BOT = (
    "A seated bot version cannot be run: its files are missing or not a valid bot "
    "(the details are shown to its owner and to staff)."
)


def public_reason(err: BaseException) -> str | None:
    """The short public reason when ``err`` is permanent; None when another attempt may
    succeed."""
    if isinstance(err, PermanentGameError):
        return _short(str(err)) or "The game cannot be played as it was set up."
    if isinstance(err, ConfigError):  # the engine's messages name options and bots only
        return _short(f"The game cannot be set up: {err}")
    if isinstance(err, BotSpecError):
        return UNRUNNABLE_BOT
    return None


def _short(text: str, limit: int = 300) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= limit else first[: limit - 1] + "…"


class ArtifactUnavailable(PermanentGameError):
    """A bot version's stored artifact is missing from the platform's storage, or what is
    stored no longer has the sha256 it was uploaded with."""
