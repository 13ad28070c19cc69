"""The cache on Redis that keeps answering when Redis does not.

Throttle counts, the viewer's frames, the dashboards' results and the page cache's answers
and generations (``arena.pagecache``) live in the cache; with
ARENA_CACHE_URL on Redis and Redis down, each request would fail on its first cache call.
``RedisWithFallback`` serves every call from a cache in this process instead while Redis is
unreachable (throttles then count per process, cached pages are recomputed), tries Redis again
after ``RETRY_SECONDS``, and logs once when it goes down and once when it is back.
"""

from __future__ import annotations

import functools
import logging
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError, TimeoutError

log = logging.getLogger("arena.cache")

RETRY_SECONDS = 5.0
UNREACHABLE = (ConnectionError, TimeoutError, OSError)
# Whatever a request can call; each falls back the same way.
CALLS = (
    "add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "set_many",
    "delete_many", "clear",
)  # fmt: skip


def _falls_back(name: str):
    def call(self, *args, **kwargs):
        if time.monotonic() >= self._down_until:
            try:
                result = getattr(RedisCache, name)(self, *args, **kwargs)
            except UNREACHABLE as err:
                if not self._down_until:
                    log.warning("cache.redis.down %s", {"error": str(err)[:200]})
                self._down_until = time.monotonic() + RETRY_SECONDS
            else:
                if self._down_until:
                    log.warning("cache.redis.back %s", {})
                    self._down_until = 0.0
                return result
        return getattr(self._local, name)(*args, **kwargs)

    return functools.wraps(getattr(RedisCache, name))(call)


class RedisWithFallback(RedisCache):
    """Django's Redis cache, served from this process's memory while Redis is unreachable."""

    def __init__(self, server, params):
        options = {"socket_connect_timeout": 1, "socket_timeout": 2, **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        self._local = LocMemCache("arena-fallback", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._down_until = 0.0  # 0: Redis is taken as up; else when to try it again

    def reachable(self) -> bool:
        """Whether Redis is taken as up: it answered last, or it is time to try it again."""
        return time.monotonic() >= self._down_until


for _name in CALLS:
    setattr(RedisWithFallback, _name, _falls_back(_name))
