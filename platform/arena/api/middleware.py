"""What every /api/ request goes through before and after its view: a body over the limit is
refused from its Content-Length before anything reads it (a multipart one is the upload's, which
refuses it with its own, lower limit; arena.api.views), and an error Django answered with
an HTML page (a CSRF refusal, a bad Host, DEBUG's 404 and 500 pages) is turned into the API's
error body, so every answer under /api/ is JSON."""

from __future__ import annotations

from django.conf import settings

from .errors import API_PREFIX, body_too_large, error_response

# Django's own refusals, as the API's codes and messages.
REFUSALS = {
    400: ("bad_request", "The request is not valid."),
    403: ("permission_denied", "The request was refused (a session needs its CSRF token)."),
    404: ("not_found", "No such resource."),
    405: ("method_not_allowed", "The operation does not exist on this URL."),
    413: ("payload_too_large", "The request is too large."),
}
CRASH = ("server_error", "The server failed to answer; the error was logged.")


class ApiErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        multipart = request.META.get("CONTENT_TYPE", "").startswith("multipart/")
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE and not multipart:
            return error_response(413, "payload_too_large", body_too_large())
        response = self.get_response(request)
        if response.status_code >= 400 and not _is_json(response):
            code, message = REFUSALS.get(response.status_code, CRASH)
            return error_response(response.status_code, code, message)
        return response


def _is_json(response) -> bool:
    return response.get("Content-Type", "").startswith("application/json")
