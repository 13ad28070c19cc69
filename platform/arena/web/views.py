from pathlib import Path

from django.conf import settings
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse

import engine
from arena.tournaments.models import Tournament
from workers.wheel import wheel_bytes, wheel_name

from .kits import find_kit, kit_zip, starter_kits


def home(request):
    counts = dict(Tournament.objects.values_list("title").annotate(n=Count("id")).order_by())
    titles = []
    for title_id in engine.titles():
        t = engine.title(title_id)
        titles.append(
            {
                "id": t.id,
                "name": t.name,
                "min_players": t.min_players,
                "max_players": t.max_players,
                "rules_version": t.rules_version,
                "bots": engine.bots(title_id),
                "tournaments": counts.get(title_id, 0),
            }
        )
    tournaments = Tournament.objects.select_related("organiser")
    return render(
        request,
        "web/home.html",
        {
            "titles": titles,
            "running": tournaments.filter(status__in=["running", "paused"])[:20],
            "finished": tournaments.filter(status="finished").order_by("-finished_at")[:10],
        },
    )


# The bot author's documents the site serves as they are in the checkout (plain text).
BOT_DOCS = {
    "bot-protocol": "docs/bot-protocol.md",
    "citadels": "docs/bots/citadels.md",
    "praga": "docs/bots/praga.md",
}


def getting_started(request):
    """What a bot is, the protocol in short, the starter kits, local games and uploading."""
    by_title = []
    for title_id in engine.titles():
        kits = [kit for kit in starter_kits() if kit.title == title_id]
        by_title.append(
            {
                "id": title_id,
                "name": engine.title(title_id).name,
                "kits": kits,
                "bots": engine.bots(title_id),
            }
        )
    return render(
        request,
        "web/getting_started.html",
        {"titles": by_title, "wheel_name": wheel_name(), "wheel_url": wheel_url(request)},
    )


def wheel_url(request) -> str:
    """The absolute address of the local arena's wheel on this site."""
    stem = wheel_name().removesuffix(".whl")
    return request.build_absolute_uri(reverse("arena-wheel", args=[stem]))


def arena_wheel(request, stem: str):
    """The local arena as a wheel (``workers/wheel.py``), under its own file name only."""
    if f"{stem}.whl" != wheel_name():
        raise Http404(f"The local arena's wheel is {wheel_name()}.")
    response = HttpResponse(wheel_bytes(), content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{wheel_name()}"'
    return response


def starter_kit_download(request, name: str):
    kit = find_kit(name)
    if kit is None:
        raise Http404("There is no starter kit of that name.")
    response = HttpResponse(kit_zip(kit, wheel_url(request)), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{kit.name}.zip"'
    return response


def bot_doc(request, name: str):
    relative = BOT_DOCS.get(name)
    if relative is None:
        raise Http404("There is no such document.")
    text = (Path(settings.BASE_DIR) / relative).read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
