from django.db.models import Count
from django.shortcuts import render

import engine
from arena.tournaments.models import Tournament


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
