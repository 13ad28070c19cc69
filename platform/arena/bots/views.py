"""My bots, the bot page and uploads."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from arena.games.models import GameSeat
from arena.ratings.models import Rating, TitleRating
from arena.tournaments.models import Entrant
from arena.web import charts

from . import comparison, overview, services
from .artifacts import UploadRefused
from .forms import BotForm, UploadForm, oversize_request
from .models import Bot, fault_summary


def _get_bot_for_owner(request, bot_id: int) -> Bot:
    bot = get_object_or_404(Bot, pk=bot_id)
    if not bot.can_edit(request.user):
        raise PermissionDenied("Only the bot's owner may change it.")
    return bot


@login_required
def my_bots(request):
    form = BotForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            bot = services.create_bot(owner=request.user, **form.cleaned_data)
        except ValueError as err:
            form.add_error(None, str(err))
        else:
            messages.success(request, f"Bot {bot.name} created. Upload its first version.")
            return redirect(bot)
    bots = list(Bot.objects.filter(owner=request.user).prefetch_related("versions"))
    places = overview.ladder_places(request.user)
    for bot in bots:
        bot.places = places.get(bot.pk, [])
    context = {"bots": bots, "form": form, "setbacks": overview.setbacks(request.user)}
    return render(request, "bots/my_bots.html", context)


RECENT_SEATS = 20


def recent_seats(bot) -> list:
    """The bot's seats in its newest games (by game id, the order they were made), found
    through each version's newest by index (a statement per version): sorting every seat
    by its game's finish cost what the bot had played."""
    newest = [
        row
        for v in bot.versions.values_list("id", flat=True)
        for row in GameSeat.objects.filter(bot_version_id=v)
        .order_by("-game_id")
        .values_list("game_id", "seat")[:RECENT_SEATS]
    ]
    top = sorted(newest, reverse=True)[:RECENT_SEATS]
    return list(
        GameSeat.objects.filter(pk__in=top)  # (game, seat) pairs
        .select_related("game__tournament", "bot_version")
        .defer("game__record", "game__stats", "stderr", "details")
        .order_by("-game_id", "-seat")
    )


def bot_detail(request, bot_id: int):
    bot = get_object_or_404(Bot.objects.select_related("owner"), pk=bot_id)
    seats = recent_seats(bot)
    ratings = Rating.objects.filter(bot_version__bot=bot).select_related(
        "tournament", "bot_version"
    )
    return render(
        request,
        "bots/bot_detail.html",
        {
            "bot": bot,
            "versions": bot.versions.all(),
            "is_owner": bot.can_edit(request.user),
            "upload_form": UploadForm(),
            "seats": seats,
            "ratings": ratings,
            "faults": fault_summary(bot),
            "ladder_entries": Entrant.objects.filter(
                bot_version__bot=bot, tournament__standing=True
            )
            .select_related("tournament", "bot_version")
            .order_by("tournament_id", "-id"),
            "title_ratings": TitleRating.objects.filter(bot=bot).select_related("bot_version"),
            "charts": charts.bot_charts(bot),
            "comparisons": comparison.version_comparisons(bot),
            "versus_previous_games": comparison.VERSUS_PREVIOUS_GAMES,
            "challenge_max_games": settings.ARENA_CHALLENGE_MAX_GAMES,
        },
    )


@login_required
@require_POST
def bot_challenges(request, bot_id: int):
    """The owner lets others challenge the bot on ladders, or not."""
    return _switch(
        request,
        bot_id,
        "accepts_challenges",
        on=request.POST.get("accepts") == "yes",
        said=("Others may challenge this bot.", "Others can no longer challenge this bot."),
    )


@login_required
@require_POST
def bot_decision_logs(request, bot_id: int):
    """The owner shares the bot's per-decision log lines with everyone after each game, or
    keeps them to itself."""
    return _switch(
        request,
        bot_id,
        "decision_logs_public",
        on=request.POST.get("public") == "yes",
        said=(
            "Everyone reads this bot's decision notes once a game is over.",
            "Only you read this bot's decision notes.",
        ),
    )


def _switch(request, bot_id: int, field: str, *, on: bool, said: tuple[str, str]):
    """The owner turns one of the bot's yes-or-no settings on or off; ``said``: what the page
    then says, for on and for off."""
    bot = _get_bot_for_owner(request, bot_id)
    setattr(bot, field, on)
    bot.save(update_fields=[field])
    messages.success(request, said[0] if on else said[1])
    return redirect(bot)


@csrf_exempt  # checked in _store_upload, once the Content-Length has been looked at
@login_required
@require_POST
def bot_upload(request, bot_id: int):
    bot = _get_bot_for_owner(request, bot_id)
    refused = oversize_request(request.META.get("CONTENT_LENGTH"))
    if refused:
        # Refused before anything reads the body (the CSRF check would read it whole to
        # find its token), so a huge upload never reaches the disk.
        messages.error(request, f"Upload refused: {refused}")
        return redirect(bot)
    return _store_upload(request, bot)


@csrf_protect
def _store_upload(request, bot: Bot):
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        if "file" not in request.FILES:
            messages.error(request, "Choose a file to upload.")
        else:
            messages.error(request, f"Upload refused: {' '.join(form.errors['file'])}")
        return redirect(bot)
    upload = form.cleaned_data["file"]
    try:
        version = services.upload_version(bot=bot, filename=upload.name, data=_read_capped(upload))
    except UploadRefused as err:
        messages.error(request, f"Upload refused: {err}")
    else:
        messages.success(
            request, f"Version {version.number} uploaded; a worker is validating it now."
        )
    return redirect(bot)


def _read_capped(upload) -> bytes:
    """Read at most one byte past the limit, so an oversize upload is refused, not loaded."""
    return upload.read(settings.ARENA_UPLOAD_MAX_BYTES + 1)
