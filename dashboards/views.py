"""The dashboard pages: the filters, each figure with its game count and its table, and the
plotly.js file of the installed Plotly package (the site needs no CDN)."""

from __future__ import annotations

from pathlib import Path

import plotly
from django.http import FileResponse, Http404, QueryDict
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

import engine
from arena.bots.models import Bot, BotVersion
from arena.tournaments.models import Tournament
from arena.web.plots import MIN_GAMES

from . import figures, figures_ratings, tables
from .pages import PAGES
from .queries import SelectionError

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
# Each page's figures from its tables (figures_ratings builds on figures' Figure).
FIGURES = {
    "seats": figures.seat_figures,
    "characters": figures.character_figures,
    "cranes": figures.crane_figures,
    "ratings": figures_ratings.ratings_figures,
}


@require_GET
def index(request):
    return render(request, "dashboards/index.html", {"pages": PAGES.values()})


@require_GET
def dashboard(request, name: str):
    page = PAGES.get(name)
    if page is None:
        raise Http404("no such dashboard")
    try:
        sel = tables.selection(name, request.GET, page.title)
    except SelectionError as error:
        context = {"page": page, "pages": PAGES.values(), "error": str(error)}
        return render(request, "dashboards/page.html", context, status=400)
    data = {**tables.page(name, sel), "players": sel.players, "min_games": _min_games(request)}
    context = {
        "page": page,
        "pages": PAGES.values(),
        "sel": sel,
        "games": data["games"],
        "figures": FIGURES[name](data),
        "unbalanced": data.get("unbalanced") or [],
        "filters": _filters(sel, fixed_title=page.title is not None),
        "picker": _picker(sel, data) if page.picks_bots else None,
        "query": download_query(request.GET),
    }
    return render(request, "dashboards/page.html", context)


def _min_games(request) -> int:
    """The page's minimum sample (``min_games``): fewer games than this are greyed."""
    value = request.GET.get("min_games", "")
    return int(value) if value.isdigit() else MIN_GAMES


def download_query(params: QueryDict) -> str:
    """The page's filters for its download links, without the fields left at "any": the form
    sends them empty (``tournament=``, ``option=board=``), which the API refuses as invalid."""
    kept = QueryDict(mutable=True)
    for name, values in params.lists():
        kept.setlist(name, [v for v in values if v and not (name == "option" and v.endswith("="))])
    return kept.urlencode()


def _filters(sel, *, fixed_title: bool) -> dict:
    """What the filter form offers for the selection's title."""
    title = engine.title(sel.title)
    chosen = dict(sel.options)
    options = [
        {
            "name": o["name"],
            "allowed": [str(v) for v in o["allowed"]],
            "chosen": chosen.get(o["name"], ""),
        }  # fmt: skip
        for o in title.option_help()
        if not o["list"]
    ]
    return {
        "titles": [] if fixed_title else engine.titles(),
        "tournaments": Tournament.objects.filter(title=sel.title).order_by("-id")[:200],
        # a rejected version never played: nothing to filter by
        "versions": BotVersion.objects.filter(bot__title=sel.title)
        .exclude(status=BotVersion.Status.REJECTED)
        .select_related("bot")
        .order_by("bot__name", "number")[:500],
        "players": list(range(title.min_players, title.max_players + 1)),
        "options": options,
    }


def _picker(sel, data: dict) -> list[dict]:
    """The bot picker: the title's bots, the ones drawn marked, most games first."""
    played = {r["bot_id"]: r for r in data.get("bots", [])}
    drawn = {b for b, r in played.items() if r["drawn"]}
    bots = Bot.objects.filter(title=sel.title).select_related("owner").order_by("name")[:500]
    choices = [
        {
            "id": b.pk,
            "label": f"{b.owner.username}/{b.name}",
            "chosen": b.pk in drawn,
            "seat_games": played.get(b.pk, {}).get("seat_games", 0),
        }  # fmt: skip
        for b in bots
        if b.pk in played  # a bot with no game in the selection has nothing to show
    ]
    return sorted(choices, key=lambda c: -c["seat_games"])


@require_GET
@cache_control(max_age=86400, public=True)
def plotly_js(request):
    return FileResponse(PLOTLY_JS.open("rb"), content_type="text/javascript")
