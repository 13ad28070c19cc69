"""Errors of the worker's run path that no other attempt would mend: the game fails at once
with a short public reason, where any other error releases it for another try."""

from __future__ import annotations


class PermanentGameError(Exception):
    """The game cannot be played, whoever tries; ``public_reason`` is shown on its page
    (no paths, no traceback)."""

    def __init__(self, public_reason: str):
        super().__init__(public_reason)
        self.public_reason = public_reason


class ArtifactUnavailable(PermanentGameError):
    """A bot version's stored artifact is missing from the platform's storage, or what is
    stored no longer has the sha256 it was uploaded with."""
