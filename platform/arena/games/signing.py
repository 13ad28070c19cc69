"""The platform's signature on the records it serves (``engine/core/signatures.py``).

Records are stored unsigned and signed as they are served (the web page's download, the
API's replay): a signature costs a few tens of microseconds to make and 130 bytes to keep,
and signing on the way out lets an operator change the key without touching a stored game.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings

from arena.security import DEV_RECORD_SIGNING_KEY
from engine.core import signatures


def signed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with the platform's signature."""
    return signatures.sign(record, _key(settings.ARENA_RECORD_SIGNING_KEY))


def public_key() -> str:
    """The public key a served record's signature is checked with (base64url)."""
    return signatures.public_key_text(_key(settings.ARENA_RECORD_SIGNING_KEY))


def is_development_key() -> bool:
    """Whether records are signed with the development key this repository publishes."""
    return settings.ARENA_RECORD_SIGNING_KEY == DEV_RECORD_SIGNING_KEY


@lru_cache(maxsize=4)
def _key(text: str):
    return signatures.private_key(text)
