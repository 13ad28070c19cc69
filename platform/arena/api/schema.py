"""The OpenAPI schema: every operation lists the error statuses it can answer, each with the
one error body (``arena.api.errors``), and only the versioned paths are described."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from rest_framework import permissions, serializers

from .throttles import scope_of

# Paths the schema describes: the versioned API (the analytics included, at
# /api/v1/analytics/). /api/... without a version is an alias of /api/v1/... and is left out
# so each operation appears once.
DESCRIBED_PREFIXES = ("/api/v1/",)

ERROR_MEANINGS = {
    "400": "The request is not valid; `fields` says which fields and why.",
    "401": "The token is missing (the operation needs one) or not valid.",
    "403": "Signed in, but not allowed: only the owner, organiser or staff may do this.",
    "404": "No such resource (or page).",
    "409": "The resource is not in a state that allows this (for example, it has played).",
    "413": "The body is over its limit (an upload over ARENA_UPLOAD_MAX_BYTES, any other body "
    "over DATA_UPLOAD_MAX_MEMORY_SIZE); refused from its Content-Length, unread.",
    "415": "The request body's media type is not accepted here.",
    "429": "Too many requests; retry after the number of seconds in `Retry-After`.",
}


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable, e.g. invalid, not_found, throttled")
    message = serializers.CharField(help_text="what went wrong, in words a person can act on")
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="for 400: each refused field (nested ones dotted, e.g. entrants.0) and why",
    )


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


def link_created_objects(result, generator, request, public):
    """Postprocessing hook: each create's 201 links to every operation on the object it made
    (``POST tournaments/`` to ``tournaments/{id}/start/`` and the rest, its id from the
    answer's body), and so does each action on it that answers the object (``start``'s 200 to
    ``pause``, ``pause``'s to ``resume``), so clients and schemathesis's stateful phase reuse
    what they created and follow it through its states."""
    paths = result["paths"]
    for collection, operations in paths.items():
        created = operations.get("post", {}).get("responses", {}).get("201")
        if created is None:
            continue
        on_object = {
            path: others for path, others in paths.items() if path.startswith(collection + "{id}/")
        }
        links = {
            operation["operationId"]: {
                "operationId": operation["operationId"],
                "parameters": {"id": "$response.body#/id"},
            }
            for others in on_object.values()
            for operation in others.values()
        }
        if not links:
            continue
        created["links"] = links
        for others in on_object.values():
            answer = others.get("post", {}).get("responses", {}).get("200")
            if answer is not None and _body_schema(answer) == _body_schema(created):
                answer["links"] = links
    return result


def _body_schema(response):
    return response.get("content", {}).get("application/json", {}).get("schema")


def closed_request_bodies(result, generator, request, public):
    """Postprocessing hook: a request body takes its declared fields only (the serializers
    refuse any other, ``arena.api.serializers.KnownFieldsOnly``)."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and component.get("type") == "object":
            component["additionalProperties"] = False
    return result


def only_v1(endpoints):
    """Preprocessing hook: describe /api/v1/ (and the analytics), not the /api/ alias."""
    return [e for e in endpoints if e[0].startswith(DESCRIBED_PREFIXES)]


class ArenaAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema plus the error responses of each operation.

    A view declares what its actions can refuse beyond the usual: ``conflict_actions`` (409),
    ``upload_actions`` (413), ``private_actions`` (403 on a read), ``throttle_scopes`` (429).
    """

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code in self.error_codes():
            if code not in responses:
                responses[code] = self._get_response_for_code(ErrorSerializer, code)
                responses[code]["description"] = ERROR_MEANINGS[code]
        if any(p["in"] == "query" for p in self._get_parameters()):
            # Answered by the web server in front (gunicorn, a proxy), before the API sees it.
            responses["414"] = self._get_response_for_code(
                OpenApiTypes.STR, "414", media_types=["text/html"]
            )
            responses["414"]["description"] = (
                "The URL is longer than the web server takes (gunicorn: 4,094 bytes); "
                "answered by it, in its own words."
            )
        return responses

    def error_codes(self) -> list[str]:
        action = getattr(self.view, "action", None) or self.method.lower()
        writes = self.method not in permissions.SAFE_METHODS
        has_body = self.method in ("POST", "PUT", "PATCH") and bool(self._get_request_body())
        has_query = any(p["in"] == "query" for p in self._get_parameters())
        codes = ["401"]
        if has_body or has_query:
            codes.append("400")
        if writes or action in getattr(self.view, "private_actions", ()):
            codes.append("403")
        paginated = self._is_list_view() and self._get_paginator() is not None
        if "{" in self.path or paginated:
            codes.append("404")
        if action in getattr(self.view, "conflict_actions", ()):
            codes.append("409")
        if has_body or action in getattr(self.view, "upload_actions", ()):
            codes.append("413")
        if has_body:
            codes.append("415")
        if scope_of(self.view):
            codes.append("429")
        return sorted(codes)
