"""``/internal/artifacts/<sha256>``: the workers' way to the platform's storage of uploaded
artifacts, so that worker machines share no folder with the web service.

A request must carry a signature of the digest made with ARENA_ARTIFACT_SECRET
(``workers.artifacts.signed_headers``); without the secret set the endpoint is off (404).
The worker checks the bytes against the digest it asked for, so a damaged file fails the
game with a clear reason rather than running something else.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponseForbidden
from django.views.decorators.http import require_GET

from workers.artifacts import EXPIRES_HEADER, SIGNATURE_HEADER, signature_holds

from .artifacts import artifact_path
from .models import BotVersion

SHA256 = re.compile(r"[0-9a-f]{64}")


@require_GET
def artifact_download(request, sha256: str):
    """The stored artifact with this sha256, for a correctly signed request."""
    secret = settings.ARENA_ARTIFACT_SECRET
    if not secret or not SHA256.fullmatch(sha256):
        raise Http404("No such artifact.")
    expires = request.headers.get(EXPIRES_HEADER, "")
    given = request.headers.get(SIGNATURE_HEADER, "")
    if not signature_holds(secret, sha256, expires, given):
        return HttpResponseForbidden(
            "Artifact downloads must be signed with ARENA_ARTIFACT_SECRET and not expired.",
            content_type="text/plain",
        )
    version = BotVersion.objects.filter(sha256=sha256).exclude(kind=BotVersion.Kind.BUILTIN)
    artifact_format = version.values_list("artifact_format", flat=True).first()
    if artifact_format is None:
        raise Http404("No bot version has this artifact.")
    path = artifact_path(sha256, artifact_format)
    try:
        stored = open(path, "rb")  # noqa: SIM115 (FileResponse closes it)
    except FileNotFoundError:
        raise Http404("This artifact is missing from the platform's storage.") from None
    return FileResponse(stored, content_type="application/octet-stream")
