"""Bot artifacts on a worker machine: fetched by sha256 from the platform's storage, checked
against that digest, and kept in a local cache, so workers need no folder shared with the
web service.

A worker of another machine downloads ``<url>/internal/artifacts/<sha256>`` from the web
service (:class:`Download`: ARENA_ARTIFACT_URL as the workers reach it), signed with the
shared secret (an HMAC of the digest and an expiry time, checked by ``arena.bots.transfer``),
into its cache; on one machine the platform hands over its stored file (:func:`checked`).
Either way the bytes must have the digest the version was uploaded with; a missing or altered
artifact fails the game (:class:`workers.errors.ArtifactUnavailable`), while a network
error or a refused signature is an infrastructure error: the game goes to another attempt.
The platform passes every setting in; nothing here reads them.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .errors import ArtifactUnavailable

# How long a signed request stays good: long enough for clocks a little apart.
SIGNATURE_SECONDS = 300
DOWNLOAD_TIMEOUT_SECONDS = 30
EXPIRES_HEADER = "X-Arena-Expires"
SIGNATURE_HEADER = "X-Arena-Signature"


def signature(secret: str, sha256: str, expires: int) -> str:
    """The HMAC-SHA256 (hex) of a download of ``sha256`` good until ``expires``."""
    message = f"{sha256}\n{expires}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signed_headers(secret: str, sha256: str, *, now: float | None = None) -> dict[str, str]:
    expires = int(now if now is not None else time.time()) + SIGNATURE_SECONDS
    return {EXPIRES_HEADER: str(expires), SIGNATURE_HEADER: signature(secret, sha256, expires)}


def signature_holds(secret: str, sha256: str, expires: str, given: str) -> bool:
    """Whether ``given`` signs a download of ``sha256`` until ``expires``, not yet past and
    not further ahead than one signature's life."""
    if not (secret and expires.isdigit() and given):
        return False
    left = int(expires) - time.time()
    if not 0 <= left <= 2 * SIGNATURE_SECONDS:
        return False
    return hmac.compare_digest(signature(secret, sha256, int(expires)), given)


@dataclass(frozen=True)
class Download:
    """Where a worker of another machine fetches artifacts, and where it keeps them."""

    url: str  # the web service, as the workers reach it
    secret: str  # shared with the web service, which checks the signature
    cache: Path  # the downloaded artifacts, each written once its digest was checked
    max_bytes: int  # the upload limit: more bytes than that are not the upload


def checked(stored: Path, sha256: str, label: str) -> Path:
    """``stored`` (the platform's own storage, on this machine), once its bytes have the
    digest ``sha256``; ArtifactUnavailable names the version (``label``) otherwise."""
    try:
        data = stored.read_bytes()
    except FileNotFoundError:
        raise _missing(label, sha256) from None
    _check_digest(data, sha256, label)
    return stored


def fetched(sha256: str, artifact_format: str, label: str, source: Download) -> Path:
    """A file in ``source.cache`` holding the artifact with digest ``sha256``, checked:
    from the cache, or downloaded. ArtifactUnavailable names the version (``label``) when
    it is missing or altered."""
    cached = source.cache / f"{sha256}.{artifact_format}"
    if cached.exists():  # written only after its digest was checked
        return cached
    data = download(sha256, label, source)
    cached.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=".download-")
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(tmp, cached)
    return cached


def download(sha256: str, label: str, source: Download) -> bytes:
    """The artifact's bytes from the web service, checked against ``sha256``."""
    url = f"{source.url.rstrip('/')}/internal/artifacts/{sha256}"
    request = urllib.request.Request(url, headers=signed_headers(source.secret, sha256))
    # One byte over the upload limit is enough to know the bytes are not the upload.
    try:
        with urllib.request.urlopen(request, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response:
            data = response.read(source.max_bytes + 1)
    except urllib.error.HTTPError as err:
        if err.code == 404:
            raise _missing(label, sha256) from None
        # 403: the workers' ARENA_ARTIFACT_SECRET is not the web's; another worker may do.
        raise RuntimeError(f"the artifact download was refused: HTTP {err.code}") from None
    _check_digest(data, sha256, label)
    return data


def _check_digest(data: bytes, sha256: str, label: str) -> None:
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ArtifactUnavailable(
            f"The stored file of {label} is damaged: its content no longer matches the "
            f"sha256 it was uploaded with ({sha256[:12]}…). The owner should upload the "
            "version again."
        )


def _missing(label: str, sha256: str) -> ArtifactUnavailable:
    return ArtifactUnavailable(
        f"The file of {label} (sha256 {sha256[:12]}…) is missing from the platform's "
        "storage. The owner should upload the version again."
    )
