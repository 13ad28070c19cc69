"""The game page with its viewer, the viewer's frames per perspective, the replay download,
each seat's stderr log (for that bot's owner), and the staff's queue page."""

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

import engine
from engine.core import view
from engine.core.positions import position_in_record, seat_view_in_record

from .models import Game, GameSeat
from .presentation import (
    game_statistics,
    served_record,
    viewer_frames,
    viewer_marks,
    viewer_page_data,
)
from .queue_status import chart, queue_status
from .results import game_stats


def _seats(game: Game) -> list[GameSeat]:
    return list(game.seats.select_related("bot_version__bot__owner").order_by("seat"))


def _owned_seats(seats: list[GameSeat], user) -> set[int]:
    return {s.seat for s in seats if s.bot_version.bot.can_edit(user)}


def game_detail(request, game_id: int):
    game = get_object_or_404(Game.objects.select_related("tournament"), pk=game_id)
    seats = _seats(game)
    owned = _owned_seats(seats, request.user)
    for seat in seats:
        seat.can_read_log = seat.seat in owned
    stats = game_statistics(game.tournament.title, game_stats(game))
    context = {"game": game, "seats": seats, "statistics": stats, "viewer": None}
    if game.error_detail and game.can_read_error_detail(request.user):
        context["error_detail"] = game.error_detail
    withheld = game.replay_withheld()
    if withheld and game.status in (Game.Status.RUNNING, Game.Status.FINISHED):
        # before the game is over: each owned seat's view at the latest decision reported
        url = reverse("game-position", args=[game.pk])
        context["seat_views"] = [(seat, f"{url}?seat={seat}") for seat in sorted(owned)]
    if game.record and withheld:
        context["viewer_error"] = withheld
    elif game.record:
        try:
            context["viewer"] = viewer_page_data(game, seats, owned=owned, user=request.user)
        except engine.EngineError as err:  # a record this engine cannot replay any more
            context["viewer_error"] = str(err)
    return render(request, "games/detail.html", context)


def _check_perspective(game: Game, seats: list[GameSeat], user, wanted: str):
    """The perspective asked for, if this person may see it (else a reason to refuse)."""
    perspective = view.parse_perspective(wanted, len(seats))
    if perspective == view.ALL and game.status != Game.Status.FINISHED:
        raise PermissionDenied("Every hand is shown only once the game is finished.")
    if isinstance(perspective, int) and perspective not in _owned_seats(seats, user):
        raise PermissionDenied(
            f"Only the owner of seat {perspective}'s bot may see what it was sent."
        )
    return perspective


@require_GET
def game_view_frames(request, game_id: int):
    """The viewer's frames of one perspective (``?perspective=public|all|SEAT``), as JSON."""
    game = get_object_or_404(Game, pk=game_id)
    refused = game.replay_withheld()
    if refused:
        return JsonResponse({"error": refused}, status=404)
    seats = _seats(game)
    try:
        perspective = _check_perspective(
            game, seats, request.user, request.GET.get("perspective", view.PUBLIC)
        )
        frames = viewer_frames(game, perspective)
    except engine.ConfigError as err:
        return JsonResponse({"error": str(err)}, status=400)
    except PermissionDenied as err:
        return JsonResponse({"error": str(err)}, status=403)
    except engine.EngineError as err:
        return JsonResponse({"error": f"This record cannot be replayed: {err}"}, status=409)
    owned = _owned_seats(seats, request.user)
    return JsonResponse({"frames": frames, "marks": viewer_marks(game, seats, owned)})


VIEWER_FILES = {"viewer.js": "text/javascript", "viewer.css": "text/css"}


@require_GET
def viewer_asset(request, name: str):
    """The viewer's drawing code, read from the engine package (the same files are inlined
    in the offline HTML): ``viewer.js``, ``viewer.css`` or a title's ``<title>.js``."""
    try:
        if name in VIEWER_FILES:
            body, kind = view.viewer_asset(name), VIEWER_FILES[name]
        elif name.endswith(".js"):
            body, kind = view.renderer_source(name[:-3]), "text/javascript"
        else:
            raise Http404("No such viewer file.")
    except engine.ConfigError:
        raise Http404("No such viewer file.") from None
    response = HttpResponse(body, content_type=f"{kind}; charset=utf-8")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def game_replay(request, game_id: int):
    """The replay record, signed by the platform, as one compact line of JSON, which
    ``python -m engine replay --verify`` reads as it is (with the decision notes this person
    reads, ``served_record``)."""
    game = get_object_or_404(Game, pk=game_id)
    refused = game.replay_withheld()
    if refused:
        raise Http404(refused)
    record = served_record(game, _seats(game), request.user)
    response = HttpResponse(
        json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}-replay.json"'
    return response


@require_GET
def game_position(request, game_id: int):
    """The position before decision ``?at=N`` (docs/positions.md). Once the game is over and
    its deal played out: the whole position, hidden information included, to anyone (what
    ``workers.play --position`` asks a bot again). Before: only ``?seat=S``'s view, what that
    seat's bot knew there (no seed, no hidden information), to the owner of its bot; ``at``
    may then be left out for the latest decision reported."""
    game = get_object_or_404(Game, pk=game_id)
    withheld = game.replay_withheld()
    try:
        at = _decision_number(request.GET.get("at"), required=not withheld)
        seat = _seat_number(request.GET.get("seat"))
        if withheld:
            position = _seat_view(request, game, seat, at)
        elif seat is not None:
            title = engine.title(game.record["title"])
            position = seat_view_in_record(title, game.record, seat, at)
        else:
            position = position_in_record(engine.title(game.record["title"]), game.record, at)
    except PermissionDenied as err:
        return JsonResponse({"error": str(err)}, status=403)
    except _Unavailable as err:
        return JsonResponse({"error": str(err)}, status=409)
    except (ValueError, engine.EngineError) as err:
        return JsonResponse({"error": str(err).replace("--at", "at")}, status=400)
    view = "" if seat is None else f"-seat-{seat}"
    name = f"game-{game.pk}-decision-{position['decision']}{view}.json"
    response = JsonResponse(position, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class _Unavailable(Exception):
    """No position to give yet (409): the message says why."""


def _decision_number(text: str | None, *, required: bool) -> int | None:
    if text is None and not required:
        return None
    try:
        return int(text or "")
    except ValueError:
        raise ValueError("Give the decision as ?at=N (1 = the first).") from None


def _seat_number(text: str | None) -> int | None:
    try:
        return None if text is None else int(text)
    except ValueError:
        raise ValueError("Give the seat as ?seat=N (0 = the first seat).") from None


def _seat_view(request, game: Game, seat: int | None, at: int | None) -> dict:
    """Before the game is over (or while its deal is in play at another table): ``seat``'s
    view for the owner of that seat's bot, from the record so far; PermissionDenied for
    anyone else, without a word of the game's hidden state."""
    if seat is None:
        raise PermissionDenied(
            "Until the game is over and its deal played out, a position is offered only as one "
            "seat's view, to the owner of that seat's bot: add ?seat=N."
        )
    row = GameSeat.objects.filter(game=game, seat=seat).select_related("bot_version__bot").first()
    if row is None or not row.bot_version.bot.can_edit(request.user):
        raise PermissionDenied(
            f"Only the owner of seat {seat}'s bot may download its view before the game is "
            "over; the whole position is offered to everyone once it is."
        )
    record = game.record if game.status == Game.Status.FINISHED else game.progress
    if game.status not in (Game.Status.RUNNING, Game.Status.FINISHED) or not record:
        raise _Unavailable(
            "No decision of this game has been reported yet: a running game's positions "
            "follow it within a third of its lease; try again in a few seconds."
            if game.status == Game.Status.RUNNING
            else f"The game's status is {game.status}: it has no position to offer."
        )
    return seat_view_in_record(engine.title(record["title"]), record, seat, at)


def seat_stderr(request, game_id: int, seat: int):
    row = get_object_or_404(
        GameSeat.objects.select_related("bot_version__bot"), game_id=game_id, seat=seat
    )
    if not row.bot_version.bot.can_edit(request.user):
        raise PermissionDenied("Only the bot's owner may read its stderr log.")
    response = HttpResponse(row.stderr, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="game-{game_id}-seat-{seat}-stderr.txt"'
    return response


@login_required
@require_GET
def queue_page(request):
    """Staff only: games scheduled, queued, running and failed per tournament and per
    worker process, with the leases that ran out (``arena.games.queue_status``)."""
    if not request.user.is_staff:
        raise PermissionDenied("Only staff may see the work queue.")
    status = queue_status()
    context = {"queue": status, "totals": status.totals, "chart": chart(status)}
    return render(request, "games/queue.html", context)
