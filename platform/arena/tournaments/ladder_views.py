"""Standing ladder pages: the list, a new ladder, a ladder's leaderboard, challenges and
withdrawals."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

import engine
from arena.bots.comparison import VERSUS_PREVIOUS_GAMES
from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.lines import rating_lines
from arena.web.plots import axis
from arena.web.text import fixed, percent, url_former, when

from . import house_ladders, ladders
from .forms import parse_options
from .leaderboard import Row, leaderboard, past_versions
from .models import Challenge, Entrant, Tournament
from .services import TournamentError

# Bots whose rating history the ladder page draws (the leaderboard's top).
CHART_BOTS = 8


class LadderForm(forms.Form):
    name = forms.CharField(max_length=100)
    title = forms.ChoiceField(choices=())
    players = forms.IntegerField(
        min_value=ladders.PLAYERS_MIN, max_value=ladders.PLAYERS_MAX, initial=4
    )
    options = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="rule options, one 'name = value' a line (e.g. a Dark City only ladder)",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].choices = [(t, engine.title(t).name) for t in engine.titles()]

    def clean_options(self):
        return parse_options(self.cleaned_data["options"])


class ChallengeForm(forms.Form):
    bot = forms.ModelChoiceField(queryset=Bot.objects.none())
    opponents = forms.ModelMultipleChoiceField(queryset=Bot.objects.none())
    games = forms.IntegerField(min_value=1, initial=4)

    def __init__(self, *args, ladder: Tournament, user, **kwargs):
        super().__init__(*args, **kwargs)
        on_ladder = Bot.objects.filter(
            versions__entries__tournament=ladder,
            versions__entries__status=Entrant.Status.ACTIVE,
        ).select_related("owner")
        self.fields["bot"].queryset = on_ladder.filter(owner=user)
        self.fields["opponents"].queryset = on_ladder
        self.fields["bot"].label_from_instance = self.fields["opponents"].label_from_instance = (
            lambda b: f"{b.owner.username}/{b.name}"
        )


def ladder_list(request):
    shown = Tournament.objects.filter(standing=True).order_by("title", "seats", "id")
    return render(request, "tournaments/ladders.html", {"ladders": shown})


@login_required
def ladder_new(request):
    form = LadderForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            ladder = house_ladders.create_ladder(
                organiser=request.user, name=data["name"], title=data["title"],
                players=data["players"], options=data["options"],
            )  # fmt: skip
        except (engine.ConfigError, TournamentError) as err:
            form.add_error("options", str(err))
        else:
            messages.success(request, "Ladder created; every ready bot of the title is on it.")
            return redirect("ladder", ladder.pk)
    return render(request, "tournaments/ladder_new.html", {"form": form})


def ladder_detail(request, ladder_id: int):
    ladder = get_object_or_404(Tournament.objects.filter(standing=True), pk=ladder_id)
    rows = leaderboard(ladder)
    chart = {
        "data": _history_traces(ladder, [row.bot for row in rows[:CHART_BOTS]]),
        "layout": {
            "xaxis": axis("the bot's rated games on the ladder"),
            "yaxis": axis("μ − 3σ"),
            "margin": {"t": 20},
            "height": 320,
        },
    }
    user = request.user
    form = ChallengeForm(ladder=ladder, user=user) if user.is_authenticated else None
    return render(
        request,
        "tournaments/ladder.html",
        {
            "ladder": ladder,
            "rows": rows,
            "board": board_rows(rows),
            "past": past_versions(ladder),
            "challenges": challenge_results(ladder),
            "form": form,
            "chart": chart,
        },
    )


def board_rows(rows: list[Row]) -> list[dict]:
    """The leaderboard's cells as text, written here once per row (``arena.web.text``): a
    ladder's leaderboard has a row for each of its bots."""
    bot_url = url_former("bot")
    board = []
    for r in rows:
        rating, bot = r.rating, r.bot
        win = ""
        if r.win_rate is not None:
            low, high = r.win_interval
            win = f"{percent(r.win_rate)} % ({percent(low)}–{percent(high)} %)"
        board.append({
            "rank": str(r.rank), "url": bot_url(bot.pk), "bot": f"{bot.owner.username}/{bot.name}",
            "suspended": r.status == Entrant.Status.SUSPENDED, "version": f"v{r.version.number}",
            "ordinal": fixed(rating.ordinal), "mu": fixed(rating.mu), "sigma": fixed(rating.sigma),
            "games": str(rating.games), "win_rate": win,
            "fault_rate": "" if r.fault_rate is None else f"{percent(r.fault_rate)} %",
            "last_game": when(r.last_game),
        })  # fmt: skip
    return board


def challenge_results(ladder, most: int = 20) -> list[dict]:
    """The ladder's latest challenges as the page's cells (text): when, by whom, the bot and
    its opponents, and per game the challenger's place once the game is finished, with the
    games won and finished. Read as columns: built as model instances with their prefetched
    opponents, games and seats, 20 challenges cost the ladder page 9 ms (bench/history.py)."""
    challenges = list(
        Challenge.objects.filter(tournament=ladder)
        .order_by("-created", "-id")
        .values_list(
            "id",
            "created",
            "requester__username",
            "bot_version_id",
            "bot_version__bot__name",
            "bot_version__number",
            "game_count",
        )[:most]
    )
    ids = [c[0] for c in challenges]
    opponents: dict[int, list[str]] = {pk: [] for pk in ids}
    for pk, owner, name, number in (
        Challenge.opponents.through.objects.filter(challenge_id__in=ids)
        .order_by("id")
        .values_list(
            "challenge_id",
            "botversion__bot__owner__username",
            "botversion__bot__name",
            "botversion__number",
        )
    ):
        opponents[pk].append(BotVersion.make_label(owner, name, number))
    games: dict[int, list[tuple]] = {pk: [] for pk in ids}
    for pk, *game in (
        Challenge.games.through.objects.filter(challenge_id__in=ids)
        .order_by("game__number")
        .values_list("challenge_id", "game_id", "game__number", "game__status")
    ):
        games[pk].append(game)
    finished = [
        g for found in games.values() for g, _, status in found if status == Game.Status.FINISHED
    ]
    ranks = {
        (game, version): rank
        for game, version, rank in GameSeat.objects.filter(game_id__in=finished).values_list(
            "game_id", "bot_version_id", "rank"
        )
    }
    game_url = url_former("game")
    shown = []
    for pk, created, requester, version, name, number, asked in challenges:
        results = [
            {"url": game_url(game), "number": game_number, "rank": ranks.get((game, version))}
            for game, game_number, _ in games[pk]
        ]
        shown.append({
            "when": when(created), "by": requester, "bot": f"{name} v{number}",
            "opponents": ", ".join(opponents[pk]), "asked": asked, "results": results,
            "finished": sum(r["rank"] is not None for r in results),
            "won": sum(r["rank"] == 1 for r in results),
        })  # fmt: skip
    return shown


def _history_traces(ladder, bots) -> list[dict]:
    """One line per bot: its ladder rating over its rated games there (thinned), a marker
    where a version begins."""
    points = rating_lines([b.pk for b in bots], tournament=ladder.pk, dated=False)
    traces = []
    for bot in bots:
        line = [p for p in points if p["bot_id"] == bot.pk]
        traces.append({
            "type": "scatter",
            "mode": "lines+markers",
            "name": bot.name,
            "x": [p["game_index"] for p in line],
            "y": [round(p["ordinal"], 3) for p in line],
            "text": [f"v{p['version']}" for p in line],
            # A marker only where a version begins.
            "marker": {"size": [9 if p["new_version"] else 0 for p in line], "symbol": "diamond"},
        })  # fmt: skip
    return traces


@login_required
@require_POST
def ladder_challenge(request, ladder_id: int):
    ladder = get_object_or_404(Tournament.objects.filter(standing=True), pk=ladder_id)
    form = ChallengeForm(request.POST, ladder=ladder, user=request.user)
    if not form.is_valid():
        messages.error(request, "Challenge refused: " + " ".join(
            f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()
        ))  # fmt: skip
        return redirect("ladder", ladder.pk)
    data = form.cleaned_data
    try:
        challenge = ladders.create_challenge(
            requester=request.user, ladder=ladder, bot=data["bot"],
            opponents=list(data["opponents"]), games=data["games"],
        )  # fmt: skip
    except ladders.LadderError as err:
        messages.error(request, f"Challenge refused: {err}")
    else:
        messages.success(request, f"{challenge.game_count} challenge games queued first.")
    return redirect("ladder", ladder.pk)


@login_required
@require_POST
def ladder_challenge_previous(request, ladder_id: int, bot_id: int):
    """The bot page's one click: its current version against its previous one on the
    ladder; back to the bot page with what came of it."""
    ladder = get_object_or_404(Tournament.objects.filter(standing=True), pk=ladder_id)
    bot = get_object_or_404(Bot, pk=bot_id)
    if not bot.can_edit(request.user):
        raise PermissionDenied("Only the bot's owner may challenge with it.")
    try:
        games = int(request.POST.get("games") or VERSUS_PREVIOUS_GAMES)
    except ValueError:
        messages.error(request, "Challenge refused: games must be a whole number.")
        return redirect(bot)
    try:
        challenge = ladders.challenge_previous_version(
            requester=request.user, ladder=ladder, bot=bot, games=games
        )
    except ladders.LadderError as err:
        messages.error(request, f"Challenge refused: {err}")
    else:
        messages.success(
            request,
            f"{challenge.game_count} games of the new version against the previous one "
            f"queued first on {ladder.name}.",
        )
    return redirect(bot)


@login_required
@require_POST
def ladder_withdraw(request, ladder_id: int, bot_id: int):
    ladder = get_object_or_404(Tournament.objects.filter(standing=True), pk=ladder_id)
    bot = get_object_or_404(Bot, pk=bot_id)
    if not bot.can_edit(request.user):
        messages.error(request, "Only the bot's owner may withdraw it.")
    else:
        try:
            ladders.withdraw(ladder, bot)
        except ladders.LadderError as err:
            messages.error(request, str(err))
        else:
            messages.success(request, f"{bot.name} withdrawn from {ladder.name}.")
    return redirect(bot)
