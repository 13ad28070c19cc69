"""Throttles per token (or per address without one), with rates in settings.

A view names the scope of each action in ``throttle_scopes`` (``"*"`` for all of them):
login and token creation, uploads, tournament creation, game requests. Rates are read from
``settings.ARENA_THROTTLE_RATES`` at each request, so a changed setting applies at once.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


def scope_of(view) -> str | None:
    """The throttle scope of the view's current action, if it has one."""
    scopes = getattr(view, "throttle_scopes", {})
    action = getattr(view, "action", None)
    if action is None and getattr(view, "request", None) is not None:
        action = view.request.method.lower()
    return scopes.get(action, scopes.get("*"))


class ScopedThrottle(SimpleRateThrottle):
    """Counts requests per scope and per user (signed in) or per address (anonymous)."""

    def allow_request(self, request, view):
        self.scope = scope_of(view)
        if self.scope is None:
            return True
        self.rate = settings.ARENA_THROTTLE_RATES[self.scope]
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_rate(self):
        return None  # set per request in allow_request

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            ident = f"addr-{self.get_ident(request)}"
        return f"arena-throttle-{self.scope}-{ident}"
