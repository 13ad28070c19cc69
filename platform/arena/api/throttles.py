"""Throttles per token (or per address without one), with rates in settings.

A view names the scope of each action in ``throttle_scopes`` (``"*"`` for all of them):
login and token creation, uploads, tournament creation, game requests. Rates are read from
``settings.ARENA_THROTTLE_RATES`` at each request, so a changed setting applies at once.

Each scope counts in fixed windows of the rate's duration: one counter per window in the
cache, created with ``add`` and raised with ``incr``, both atomic in Redis and in the local
cache, so concurrent requests (several web processes on one Redis) never lose a count, as
DRF's read-modify-write history of timestamps does.
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"600/minute"`` as (600, 60): DRF's notation, by the period's first letter."""
    count, period = rate.split("/")
    return int(count), SECONDS[period[0]]


def scope_of(view) -> str | None:
    """The throttle scope of the view's current action, if it has one."""
    scopes = getattr(view, "throttle_scopes", {})
    action = getattr(view, "action", None)
    if action is None and getattr(view, "request", None) is not None:
        action = view.request.method.lower()
    return scopes.get(action, scopes.get("*"))


class ScopedThrottle(BaseThrottle):
    """Counts requests per scope and per user (signed in) or per address (anonymous)."""

    wait_seconds: float | None = None

    def allow_request(self, request, view):
        scope = scope_of(view)
        if scope is None:
            return True
        limit, duration = parse_rate(settings.ARENA_THROTTLE_RATES[scope])
        now = time.time()
        window = int(now // duration)
        key = f"arena-throttle-{scope}-{self._who(request)}-{window}"
        # Twice the window: the counter outlives its window, so incr never meets it expired.
        cache.add(key, 0, timeout=2 * duration)
        try:
            count = cache.incr(key)
        except ValueError:  # evicted between add and incr: count afresh
            cache.add(key, 1, timeout=2 * duration)
            count = 1
        if count <= limit:
            return True
        self.wait_seconds = (window + 1) * duration - now
        return False

    def wait(self):
        return math.ceil(self.wait_seconds) if self.wait_seconds is not None else None

    def _who(self, request) -> str:
        if request.user and request.user.is_authenticated:
            return f"user-{request.user.pk}"
        return f"addr-{self.get_ident(request)}"
