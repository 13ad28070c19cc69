"""The API's one error body, ``{"error": {"code", "message", "fields"}}``, for every status.

``handle_exception`` is DRF's EXCEPTION_HANDLER, and answers JSON even where the client asked
for CSV or text. ``unmatched`` answers every /api/ URL no route matches (DEBUG on or off), and
``not_found`` and ``server_error`` the ones Django itself refuses, so a client never has to
parse an HTML page (``arena.api.middleware`` turns whatever else slips through). A crash is
logged with its traceback and answered with a message only: a traceback is never shown to the
public.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.urls import Resolver404, resolve
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

log = logging.getLogger("arena.api")

API_PREFIX = "/api/"


class Conflict(exceptions.APIException):
    """The resource is in a state that does not allow this (409)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The resource is not in a state that allows this."
    default_code = "conflict"


class PayloadTooLarge(exceptions.APIException):
    """The request body is larger than the API accepts (413), refused before it is read."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request is too large."
    default_code = "payload_too_large"


def error_body(code: str, message: str, fields: dict[str, list[str]] | None = None) -> dict:
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


def flat_fields(detail, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation detail as ``{"field": [...], "entrants.2": [...]}``."""
    if isinstance(detail, dict):
        fields: dict[str, list[str]] = {}
        for key, value in detail.items():
            fields.update(flat_fields(value, f"{prefix}.{key}" if prefix else str(key)))
        return fields
    if isinstance(detail, list) and any(isinstance(item, dict | list) for item in detail):
        fields = {}
        for index, item in enumerate(detail):
            if item:
                fields.update(flat_fields(item, f"{prefix}.{index}" if prefix else str(index)))
        return fields
    items = detail if isinstance(detail, list) else [detail]
    return {prefix or "non_field_errors": [str(item) for item in items]}


def handle_exception(exc, context):
    """Every error of an API view as the one body, with its status and headers."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) if str(exc) else None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) if str(exc) else None)
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(body_too_large())
    # An error is JSON whatever the client accepts (CSV, text): the body a client parses.
    request = context["request"]
    request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
    response = exception_handler(exc, context)
    if response is None:
        log.exception("api.error %s", {"path": context["request"].path})
        return Response(
            error_body("server_error", "The server failed to answer; the error was logged."),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, exceptions.ValidationError):
        fields = flat_fields(exc.detail)
        body = error_body("invalid", _validation_message(fields), fields)
    else:
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        body = error_body(code, _message(exc.detail))
    response.data = body
    return response


def _validation_message(fields: dict[str, list[str]]) -> str:
    if list(fields) == ["non_field_errors"]:
        return " ".join(fields["non_field_errors"])
    return "Some fields are not valid: " + ", ".join(fields) + "."


def _message(detail) -> str:
    if isinstance(detail, list):
        return " ".join(str(d) for d in detail)
    if isinstance(detail, dict):
        return " ".join(f"{k}: {v}" for k, v in detail.items())
    return str(detail)


def body_too_large() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return f"The request body is over {limit} bytes, the most the API reads (uploads: less)."


def error_response(status_code: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status_code)


@csrf_exempt
def unmatched(request, rest: str = ""):
    """Any /api/ URL no route matches. Without its trailing slash, a URL that exists with
    one answers 308 to it (a POST stays a POST, where Django's 301 turns it into a GET and
    loses the body); anything else is the 404 error body, DEBUG on or off."""
    if not request.path.endswith("/"):
        slashed = request.path + "/"
        try:
            match = resolve(slashed)
        except Resolver404:
            match = None
        if match is not None and match.func is not unmatched:
            query = request.META.get("QUERY_STRING", "")
            target = slashed + (f"?{query}" if query else "")
            response = JsonResponse({"location": target}, status=308)
            response["Location"] = target
            return response
    return error_response(404, "not_found", "No such resource: the API has no such URL.")


def not_found(request, exception=None):
    """handler404: the error body under /api/, Django's page elsewhere."""
    if request.path.startswith(API_PREFIX):
        return error_response(404, "not_found", "No such resource.")
    return defaults.page_not_found(request, exception)


def server_error(request):
    """handler500: the error body under /api/, Django's page elsewhere."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(
            error_body("server_error", "The server failed to answer; the error was logged."),
            status=500,
        )
    return defaults.server_error(request)
