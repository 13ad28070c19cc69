"""The game page, its replay download and each seat's stderr log (for that bot's owner)."""

import json

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from .models import Game, GameSeat
from .presentation import game_statistics


def game_detail(request, game_id: int):
    game = get_object_or_404(Game.objects.select_related("tournament"), pk=game_id)
    seats = list(game.seats.select_related("bot_version__bot__owner").order_by("seat"))
    for seat in seats:
        seat.can_read_log = seat.bot_version.bot.can_edit(request.user)
    stats = game_statistics(game.tournament.title, game.stats)
    return render(request, "games/detail.html", {"game": game, "seats": seats, "statistics": stats})


def game_replay(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    if not game.record:
        raise Http404("This game has no replay record yet.")
    response = HttpResponse(
        json.dumps(game.record, indent=1, sort_keys=True), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}-replay.json"'
    return response


def seat_stderr(request, game_id: int, seat: int):
    row = get_object_or_404(
        GameSeat.objects.select_related("bot_version__bot"), game_id=game_id, seat=seat
    )
    if not row.bot_version.bot.can_edit(request.user):
        raise PermissionDenied("Only the bot's owner may read its stderr log.")
    response = HttpResponse(row.stderr, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="game-{game_id}-seat-{seat}-stderr.txt"'
    return response
