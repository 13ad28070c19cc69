"""The dashboards' numbers over the API: each page's tables as JSON, or one table as CSV
(``/api/v1/analytics/<page>/?table=…&format=csv``), with the same filters as the pages.

Errors are the API's one body (``arena.api.errors``): a bad filter is a 400 naming it, a table
the page does not have a 404."""

from __future__ import annotations

import csv
import io

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import renderers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from arena.api.caching import CachedReads
from arena.api.schema import ErrorSerializer

from . import tables
from .pages import PAGES
from .queries import SelectionError
from .queries_ratings import MOST_BOTS


class CSVRenderer(renderers.BaseRenderer):
    """One table (a list of dicts) as CSV with a header row (errors stay JSON:
    arena.api.errors)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        rows = data.get("rows", []) if isinstance(data, dict) else []
        columns = list(rows[0]) if rows else []
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()


# Only a page whose title is not fixed (Seats) takes a ``title``.
TITLE_FILTER = OpenApiParameter(
    "title", OpenApiTypes.STR, enum=engine.titles(), description="title id (default citadels)"
)
# What the selection accepts, said in the schema so a client can tell before it asks.
WHOLE = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
OPTION_PATTERN = r"^(\s*|[^=\x00]*[^=\s\x00][^=\x00]*=[^\x00]*)$"  # no NUL: not in PostgreSQL text
FILTERS = [
    OpenApiParameter("tournament", WHOLE, description="tournament id"),
    OpenApiParameter("bot", WHOLE, description="bot id: only its seats"),
    OpenApiParameter("bot_version", WHOLE, description="bot version id"),
    OpenApiParameter("players", WHOLE, description="player count"),
    OpenApiParameter(
        "option",
        OpenApiTypes.STR,
        many=True,
        pattern=OPTION_PATTERN,
        description="rule option as name=value (repeat); name= alone is any value",
    ),
    OpenApiParameter("since", OpenApiTypes.DATE, description="finished on or after"),
    OpenApiParameter("until", OpenApiTypes.DATE, description="finished on or before"),
    OpenApiParameter(
        "table",
        OpenApiTypes.STR,
        description="one table of the page (404 if it has none of that name); CSV without it "
        "is the page's first table",
    ),
    OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"]),
]


# The ratings page's bot picker.
BOTS_FILTER = OpenApiParameter(
    "bots",
    # An array schema written out: drf-spectacular takes ``many=True`` only with a basic type
    # and would drop the bounds schemathesis relies on.
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "maxItems": MOST_BOTS,
    },
    style="form",
    explode=True,
    description=f"bot ids whose ratings are drawn (repeat; at most {MOST_BOTS}); none: the "
    "bot filter's bot, else the bot version filter's bot, else the bots with the most games",
)
TYPED_FILTERS = ("tournament", "bot", "bot_version", "players", "since", "until")


class AnalyticsView(CachedReads, APIView):
    """A dashboard's tables: ``games`` (how many games the selection holds) and each table
    as a list of rows; with ``table``, that table alone."""

    permission_classes = [AllowAny]
    renderer_classes = [renderers.JSONRenderer, CSVRenderer]
    page_name = ""

    def cached_read(self):
        """The rendered answer is cached (``arena.pagecache``) until the page's numbers
        change: its key carries what they change with, not a scope."""
        return lambda view, kwargs: ((), tables.version(self.page_name))

    def get(self, request):
        page = PAGES[self.page_name]
        if request.query_params.get("format") not in (None, "json", "csv"):
            raise ValidationError({"format": ["json or csv."]})
        # The web form sends an empty field for "any"; over the API a typed parameter given
        # empty is a mistake to name, as the schema says it is a number, a date or a title.
        typed = TYPED_FILTERS + (("bots",) if page.picks_bots else ())
        typed += ("title",) if page.title is None else ()
        empty = [
            n for n in typed if n in request.query_params and not request.query_params[n].strip()
        ]
        if empty:
            raise ValidationError({n: ["Give a value or leave the parameter out."] for n in empty})
        try:
            sel = tables.selection(page.name, request.query_params, page.title)
        except SelectionError as error:
            field, _, message = str(error).partition(": ")
            raise ValidationError({field: [message or str(error)]}) from None
        data = tables.page(page.name, sel)
        names = [k for k, v in data.items() if isinstance(v, list)]
        wanted = request.query_params.get("table") or None
        if wanted is None and request.accepted_renderer.format == "csv":
            wanted = names[0]  # CSV is one table
        if wanted is None:
            return Response(data)
        if wanted not in names:
            raise NotFound(
                f"The {page.name} page has no table {wanted!r}; it has {', '.join(names)}."
            )
        return Response({"games": data["games"], "table": wanted, "rows": data[wanted]})

    def perform_content_negotiation(self, request, force=False):
        # ``format`` is not DRF's renderer override here (the API turns that off, since
        # ``format`` is a tournament filter): this view reads it itself.
        wanted = request.query_params.get("format")
        for renderer in self.get_renderers():
            if renderer.format == wanted:
                return renderer, renderer.media_type
        return super().perform_content_negotiation(request, force)  # get() refuses a bad one


def view_for(name: str):
    """The API view of one dashboard page, with its own schema operation."""
    doc = f"The {name} dashboard's numbers: {PAGES[name].heading}."
    view = type(f"{name.capitalize()}AnalyticsView", (AnalyticsView,), {"page_name": name,
                                                                          "__doc__": doc})  # fmt: skip
    parameters = ([TITLE_FILTER] if PAGES[name].title is None else []) + FILTERS
    if PAGES[name].picks_bots:
        parameters = parameters + [BOTS_FILTER]

    def get(self, request):  # a function of its own, so each page's schema has its parameters
        return AnalyticsView.get(self, request)

    responses = {200: OpenApiTypes.OBJECT, 404: ErrorSerializer}  # 404: no such table
    view.get = extend_schema(parameters=parameters, responses=responses)(get)
    return extend_schema(tags=["analytics"], summary=doc)(view).as_view()
