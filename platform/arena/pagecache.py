"""The page cache: whole answers of the public pages and API reads, kept until what they show
changes, for at most a short time.

**What is cached, for whom.** A cached answer is only ever served to a request that would
have been answered the same: the key holds the absolute URL (scheme, host, path, query) and
who asks.

- Anonymous requests share one answer per URL: what an anonymous visitor sees is public.
- A signed-in request gets its own: the pages show owners more (the bot page's upload form
  and stderr), staff more (the queue), and every signed-in page carries the viewer's name and
  a CSRF token for the log-out form. Web pages are keyed by the user, their staff and
  superuser flags, and a hash of their session key and CSRF secret, so a page is served
  again only to the browser session it was made for (a new log-in or a rotated CSRF secret
  makes a new key). API answers hold no CSRF token and are keyed by the user and flags:
  DRF has authenticated the request (token or session) and counted it against the throttles
  before the cache is looked at (``arena.api.caching``), so a revoked token gets its 401 and
  a throttled client its 429 as without the cache.
- A page that took a CSRF token it could not key by (an anonymous one with a form, or the
  request brought no CSRF cookie), a request with messages waiting to be shown, an answer
  that sets a cookie or writes the session, and every status but 200 are never stored.
  Streamed answers (the CSV downloads) are not cached: a stream is written while it is read,
  and to cache it the whole file would have to be held first (a bot's games CSV grows
  without end).

**Freshness.** Each cached read names the *scopes* it shows: ``t<id>`` a tournament or ladder
(its games, ratings, entrants, challenges, status), ``b<id>`` a bot (its versions, games,
ratings), and ``all`` for reads not narrowed to either (e.g. every game). Each scope has a
generation number in the cache, and the key carries the generations of the read's scopes.
The writes that change what a scope shows call :func:`changed` — the store of a game
(its tournament, the bots seated and the bots whose ratings it moved), a version's upload and
validation, a tournament's transitions, a challenge, a ladder's entrants — and every ORM
save or delete of those models does through signals (``arena.pagecache_scopes.connect``,
which also maps versions to bots). ``changed`` raises
the generations at once and again after the transaction commits, so a reader that filled the
cache from the last snapshot before the commit is superseded. So a finished game, a new
version, a transition or a challenge shows on the next request after its commit.

**Staleness bound.** What no write names (a game claimed or queued, a bot renamed as a ladder's
leaderboard shows it) is at most ``TTL`` seconds old, as is an answer kept just before a Redis
outage (below). The staff queue has no scope (it changes with every claim) and lives
``QUEUE_TTL``.

**Where it is on.** The cache is Django's default one, on Redis (``ARENA_CACHE_URL``) with
``arena.cache.RedisWithFallback``. ``ARENA_PAGE_CACHE`` turns the page cache on, by default
when ``ARENA_CACHE_URL`` is set: a cache each process keeps for itself (the demo's default)
would never see a worker's bumps. While Redis is unreachable (``RedisWithFallback`` then
answers from each process's memory, as for the throttles and the dashboards) every read is
computed and nothing cached, so an outage costs speed, never freshness or a 5xx; bumps made
meanwhile are lost, so an answer kept before it may be served once Redis is back, for the
rest of its ``TTL``.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.middleware.csrf import get_token

# Seconds a cached answer lives at most: the bound on what no write's bump reaches.
TTL = 30
# The staff queue changes with every claim, which bumps nothing: it is kept this long.
QUEUE_TTL = 5
ALL = "all"
PREFIX = "pagecache"


def active() -> bool:
    """Whether answers are looked up and kept now: the page cache is on and its Redis is
    taken as reachable (see the module's docstring)."""
    if not settings.ARENA_PAGE_CACHE:
        return False
    reachable = getattr(cache, "reachable", None)
    return reachable() if reachable is not None else True


# -- generations -----------------------------------------------------------------------------


def _gen_key(scope: str) -> str:
    """A scope's generation's key (a scope made of a query parameter's text is digested)."""
    plain = scope.isascii() and scope.isalnum() and len(scope) <= 24
    return f"{PREFIX}:gen:{scope if plain else _digest(scope)}"


def generations(scopes: Iterable[str]) -> tuple:
    """The current generation of each scope (one cache call; a scope never bumped, or whose
    number was evicted, starts at the clock's nanoseconds, so no number is used twice)."""
    keys = [_gen_key(s) for s in scopes]
    found = cache.get_many(keys) if keys else {}
    for key in keys:
        if key not in found:
            cache.add(key, time.time_ns(), timeout=None)
            found[key] = cache.get(key)
    return tuple(found[k] for k in keys)


def _bump(scopes: Iterable[str]) -> None:
    for scope in {*scopes, ALL}:
        key = _gen_key(scope)
        try:
            cache.incr(key)
        except ValueError:  # never read since it was evicted (or ever): any new number does
            cache.add(key, time.time_ns(), timeout=None)


def changed(*, tournaments: Iterable[int] = (), bots: Iterable[int] = ()) -> None:
    """What these tournaments and bots show has changed: raise their generations now and,
    inside a transaction, again once it commits (a reader between the two may cache the last
    committed state under the first; the second supersedes it). Bot versions' changes:
    ``arena.pagecache_scopes.changed``."""
    scopes = [f"t{t}" for t in set(tournaments) if t]
    scopes += [f"b{b}" for b in set(bots) if b]
    if not (scopes and settings.ARENA_PAGE_CACHE):
        return
    _bump(scopes)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(functools.partial(_bump, scopes))


# -- keys and entries ------------------------------------------------------------------------


def _digest(*parts) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def api_viewer(user) -> str:
    """Whom an API answer is for: anonymous, or the user (with the flags that widen what
    they may read)."""
    if user is None or not user.is_authenticated:
        return "anonymous"
    return f"user:{user.pk}:{int(user.is_staff)}:{int(user.is_superuser)}"


def _page_viewer(request) -> str:
    """Whom a web page is for: anonymous, or this user's browser session (see the module's
    docstring)."""
    user = request.user
    if not user.is_authenticated:
        return "anonymous"
    session = request.session.session_key or ""
    secret = request.META.get("CSRF_COOKIE", "")
    return f"{api_viewer(user)}:{_digest(session, secret)[:32]}"


def entry_key(kind: str, request, viewer: str, scopes: Iterable[str], *extra) -> str:
    """The cache key of an answer to ``request`` for ``viewer`` at the scopes' generations."""
    scopes = sorted(set(scopes))
    url = request.build_absolute_uri()
    return f"{PREFIX}:{kind}:" + _digest(url, viewer, scopes, generations(scopes), *extra)


def keep(key: str, response, ttl: int = TTL, **extra) -> None:
    """Keep a rendered 200 answer's body and content type under ``key``."""
    cache.set(key, {"body": response.content, "type": response["Content-Type"], **extra}, ttl)


def answer(entry: dict) -> HttpResponse:
    return HttpResponse(entry["body"], content_type=entry["type"])


def storable(response) -> bool:
    """Whether an answer may be kept: a complete 200 that sets no cookie."""
    return (
        response.status_code == 200
        and not getattr(response, "streaming", False)
        and not response.cookies
    )


# -- web pages -------------------------------------------------------------------------------


def page(scopes: Callable[[dict], Iterable[str]], ttl: int = TTL):
    """Cache a web page's GETs (``scopes(kwargs)``: what it shows, from its URL's arguments).
    Applied where the page is routed (``arena/urls.py``); the view itself is unchanged and
    still checks who may see it on every miss."""

    def decorate(view):
        @functools.wraps(view)
        def cached(request, *args, **kwargs):
            if not (request.method == "GET" and active()) or len(messages.get_messages(request)):
                return view(request, *args, **kwargs)
            secret = request.META.get("CSRF_COOKIE")
            viewer = _page_viewer(request)
            key = entry_key("page", request, viewer, scopes(kwargs))
            found = cache.get(key)
            if found is not None:
                if found["csrf"]:
                    get_token(request)  # the CSRF cookie refreshed, as rendering it would
                return answer(found)
            response = view(request, *args, **kwargs)
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
            # A CSRF token in the page is keyed by only for a signed-in viewer whose secret
            # came with the request (and stayed); a message shown or a session written
            # belongs to this request alone.
            csrf = bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE"))
            csrf_keyed = (
                viewer != "anonymous" and secret and request.META.get("CSRF_COOKIE") == secret
            )
            session = getattr(request, "session", None)
            if (
                storable(response)
                and (not csrf or csrf_keyed)
                and not len(messages.get_messages(request))
                and not (session is not None and session.modified)
            ):
                keep(key, response, ttl, csrf=csrf)
            return response

        return cached

    return decorate


def queue_page(view):
    """The staff queue: staff only (the view checks it on a miss; the key is the viewer's),
    no scope, kept ``QUEUE_TTL`` seconds."""
    return page(lambda kwargs: (), QUEUE_TTL)(view)


def tournament_page(argument: str):
    """A page of the tournament or ladder whose id is the URL's ``argument``."""
    return page(lambda kwargs: (f"t{kwargs[argument]}",))


def bot_page(argument: str):
    """A page of the bot whose id is the URL's ``argument``."""
    return page(lambda kwargs: (f"b{kwargs[argument]}",))
