"""The API's cached reads (``arena.pagecache`` says what is cached for whom, and how long).

``CachedReads`` sits under every viewset (``ArenaViewSet``): after DRF has authenticated the
request, checked its permissions and counted it against the throttles, a GET of an action
named in ``READS`` is answered from the cache when it can be, and its rendered answer kept
when not. The key is the absolute URL, the accepted media type and the viewer (anonymous, or
the user); the scopes come from the URL's ids and the filters that narrow the read.
"""

from __future__ import annotations

import functools

from django.core.cache import cache

from arena import pagecache, pagecache_scopes


def _param(view, name: str) -> str | None:
    return view.request.query_params.get(name)


def _narrowed(view, kwargs) -> list[str]:
    """A list's scopes from its filters: the tournament, the bot, the version's bot; a list
    narrowed by none of them shows anything (``all``)."""
    scopes = []
    if (tournament := _param(view, "tournament")) is not None:
        scopes.append(f"t{tournament}")
    if (bot := _param(view, "bot")) is not None:
        scopes.append(f"b{bot}")
    for name in ("version", "bot_version"):
        if (version := _param(view, name)) is not None:
            scopes.append(pagecache_scopes.bot_of_version(version))
    return scopes or [pagecache.ALL]


# "<viewset>.<action>": the scopes of a GET of it, from the view and the URL's arguments.
READS = {
    "LadderViewSet.leaderboard": lambda view, kw: [f"t{kw['pk']}"],
    "LadderViewSet.history": lambda view, kw: [f"t{kw['pk']}", f"b{kw['bot_id']}"],
    "LadderViewSet.challenges": lambda view, kw: [f"t{kw['pk']}"],
    "TournamentViewSet.standings": lambda view, kw: [f"t{kw['pk']}"],
    "RatingViewSet.list": _narrowed,
    "RatingViewSet.history": lambda view, kw: [pagecache_scopes.tournament_of_rating(kw["pk"])],
    "GameViewSet.list": _narrowed,
}


class CachedReads:
    """Serve the GETs of ``READS`` from the page cache (see the module's docstring)."""

    _cache_key: str | None = None

    def cached_read(self):
        """What a GET of this action shows: a function of the view and the URL's arguments
        giving its scopes and any further parts of its key; None: it is not cached."""
        scopes = READS.get(f"{type(self).__name__}.{getattr(self, 'action', None)}")
        return None if scopes is None else lambda view, kw: (scopes(view, kw), ())

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self._cache_key = None
        scopes = self.cached_read()
        if request.method != "GET" or scopes is None or not pagecache.active():
            return
        # DRF looks the handler up after ``initial``: the cached one answers in its place,
        # after every check ``initial`` (and a subclass's after it) makes.
        handler = self.get
        self.get = functools.partial(self._cached, handler, scopes, kwargs)

    def _cached(self, handler, scopes, kwargs, request, *args, **kw):
        viewer = pagecache.api_viewer(request.user)
        media = request.accepted_media_type
        names, extra = scopes(self, kwargs)
        key = pagecache.entry_key("api", request, viewer, names, media, *extra)
        found = cache.get(key)
        if found is not None:
            return pagecache.answer(found)
        self._cache_key = key
        return handler(request, *args, **kw)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if self._cache_key is not None and pagecache.storable(response):
            response.render()
            pagecache.keep(self._cache_key, response)
        return response
