"""Who wrote a record: a platform's Ed25519 signature over it, and its check.

A record's seal (``engine/core/records.py``) shows that it was changed, but anyone who changes
a record can write a new seal. A platform that serves records signs each one with its private
key: ``signature`` = ``{"algorithm": "ed25519", "public_key": …, "value": …}``, the value
signing the digest of the whole record but its signature (the seal included, so the result
too). Whoever holds the platform's published public key checks that the record is the one
the platform stored (``python -m engine replay --verify --public-key KEY``). Keys are
written as base64url of their 32 raw bytes, without padding.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .errors import ConfigError, SignatureRefused
from .records import digest

ALGORITHM = "ed25519"


def private_key(text: str) -> Ed25519PrivateKey:
    """The private key written as ``text`` (base64url of its 32-byte seed)."""
    return Ed25519PrivateKey.from_private_bytes(_key_bytes(text, "a private key"))


def public_key_text(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The public key (of a private one) as text: base64url of its 32 raw bytes."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return _text(public.public_bytes_raw())


def new_private_key_text() -> str:
    """A fresh private key, as text (for an operator's settings)."""
    return _text(Ed25519PrivateKey.generate().private_bytes_raw())


def sign(record: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """``record`` with its ``signature`` by ``key`` (one it carried is replaced)."""
    unsigned = {k: v for k, v in record.items() if k != "signature"}
    value = key.sign(_message(unsigned))
    return {
        **unsigned,
        "signature": {
            "algorithm": ALGORITHM,
            "public_key": public_key_text(key),
            "value": _text(value),
        },
    }


def public_key(text: str) -> str:
    """``text`` checked to be a public key; raises ConfigError naming what is wrong."""
    _key_bytes(text, "a public key")
    return text


def check(record: dict[str, Any], trusted: str | None = None) -> str:
    """The public key that signed ``record``; raises ``SignatureRefused`` when it carries
    no signature, when the signature does not match its content, or when ``trusted`` (a
    public key's text) is given and is not the signer."""
    signature = record.get("signature")
    if not isinstance(signature, dict):
        raise SignatureRefused(
            "the record carries no signature: only a record downloaded from the platform "
            "is signed, and a signed record with its signature removed is unsigned"
        )
    if signature.get("algorithm") != ALGORITHM:
        raise SignatureRefused(
            f"the record is signed with {signature.get('algorithm')!r}; this engine checks "
            f"{ALGORITHM!r} signatures"
        )
    signer = signature.get("public_key")
    if trusted is not None and signer != trusted:
        raise SignatureRefused(
            f"the record is signed by key {signer}, not by the key given ({trusted})"
        )
    try:
        key = Ed25519PublicKey.from_public_bytes(_key_bytes(signer, "a public key"))
        key.verify(_key_bytes(signature.get("value"), "a signature", 64), _message(record))
    except (InvalidSignature, ConfigError):
        raise SignatureRefused(
            "the record's signature does not match its content: it was changed after it was signed"
        ) from None
    return signer


def _message(record: dict[str, Any]) -> bytes:
    return digest({k: v for k, v in record.items() if k != "signature"}).encode("ascii")


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _key_bytes(text: Any, what: str, size: int = 32) -> bytes:
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (TypeError, binascii.Error, ValueError):
        raise ConfigError(f"{what} is base64url text, not {text!r}") from None
    if len(raw) != size:
        raise ConfigError(f"{what} is {size} bytes in base64url, not {len(raw)}")
    return raw
