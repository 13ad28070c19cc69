"""The dashboards' numbers over the API: each page's tables as JSON, or one table as CSV
(``/api/analytics/<page>/?table=…&format=csv``), with the same filters as the pages."""

from __future__ import annotations

import csv
import io

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import renderers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from . import tables
from .pages import PAGES
from .queries import SelectionError, selection_from


class CSVRenderer(renderers.BaseRenderer):
    """One table (a list of dicts) as CSV with a header row; an error as its message."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        if isinstance(data, dict) and "detail" in data:
            out.write(str(data["detail"]) + "\n")
            return out.getvalue()
        rows = data.get("rows", []) if isinstance(data, dict) else []
        columns = list(rows[0]) if rows else []
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()


FILTERS = [
    OpenApiParameter("title", OpenApiTypes.STR, description="title id (seats page only)"),
    OpenApiParameter("tournament", OpenApiTypes.INT, description="tournament id"),
    OpenApiParameter("bot", OpenApiTypes.INT, description="bot id: only its seats"),
    OpenApiParameter("bot_version", OpenApiTypes.INT, description="bot version id"),
    OpenApiParameter("players", OpenApiTypes.INT, description="player count"),
    OpenApiParameter(
        "option", OpenApiTypes.STR, many=True, description="rule option as name=value (repeat)"
    ),
    OpenApiParameter("since", OpenApiTypes.DATE, description="finished on or after"),
    OpenApiParameter("until", OpenApiTypes.DATE, description="finished on or before"),
    OpenApiParameter(
        "table", OpenApiTypes.STR, description="one table of the page (required for CSV)"
    ),
    OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "csv"]),
]


class AnalyticsView(APIView):
    """A dashboard's tables: ``games`` (how many games the selection holds) and each table
    as a list of rows; with ``table``, that table alone."""

    permission_classes = [AllowAny]
    renderer_classes = [renderers.JSONRenderer, CSVRenderer]
    page_name = ""

    @extend_schema(parameters=FILTERS, responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        page = PAGES[self.page_name]
        try:
            sel = selection_from(request.query_params, page.title)
        except SelectionError as error:
            return Response({"detail": str(error)}, status=status.HTTP_400_BAD_REQUEST)
        data = tables.page(page.name, sel)
        names = [k for k, v in data.items() if isinstance(v, list)]
        wanted = request.query_params.get("table")
        if wanted is None and request.accepted_renderer.format == "csv":
            return Response(
                {"detail": f"table: CSV is one table; choose one of {', '.join(names)}"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        if wanted is None:
            return Response(data)
        if wanted not in names:
            return Response(
                {"detail": f"table: no table {wanted!r} here; one of {', '.join(names)}"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response({"games": data["games"], "table": wanted, "rows": data[wanted]})


def view_for(name: str):
    """The API view of one dashboard page, with its own schema operation."""
    doc = f"The {name} dashboard's numbers: {PAGES[name].heading}."
    view = type(f"{name.capitalize()}AnalyticsView", (AnalyticsView,), {"page_name": name,
                                                                          "__doc__": doc})  # fmt: skip
    return extend_schema(tags=["analytics"], summary=doc)(view).as_view()
