"""Tournament pages: list, create, detail (settings, progress, standings, games), actions."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import cached_property
from django.views.decorators.http import require_POST

import engine
from arena.bots.models import BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.standings import Standing
from arena.ratings.standings import standings as read_standings
from arena.web import charts
from arena.web.text import fixed, html_rows, url_former

from . import services
from .forms import TournamentForm
from .models import Tournament

ACTIONS = {
    "start": services.start_tournament,
    "pause": services.pause_tournament,
    "resume": services.resume_tournament,
    "cancel": services.cancel_tournament,
}


def _get_tournament_for_organiser(request, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not tournament.can_edit(request.user):
        raise PermissionDenied("Only the tournament's organiser may change it.")
    return tournament


def tournament_list(request):
    tournaments = Tournament.objects.select_related("organiser")
    title = request.GET.get("title")
    if title:
        tournaments = tournaments.filter(title=title)
    page = Paginator(tournaments, 50).get_page(request.GET.get("page"))
    return render(request, "tournaments/list.html", {"page": page, "titles": engine.titles()})


@login_required
def tournament_new(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(
                organiser=request.user,
                name=data["name"],
                title=data["title"],
                seats=data["seats"],
                entrants=list(data["entrants"]),
                format=data["format"],
                rounds=data["rounds"],
                ladder_games=data["ladder_games"],
                options=data["options"],
                decision_ms=data["decision_ms"],
                bank_ms=data["bank_ms"],
                seed=data["seed"],
            )
        except engine.ConfigError as err:
            form.add_error("options", str(err))
        except services.TournamentError as err:
            form.add_error("entrants", str(err))
        else:
            messages.success(request, "Tournament created as a draft. Start it when ready.")
            return redirect(tournament)
    return render(request, "tournaments/new.html", {"form": form})


class NumberedPaginator(Paginator):
    """Pages of one tournament's games (``object_list``) by their numbers, which run from 1
    without gaps (``services.progress`` counts on it too): the count is the last number,
    one probe of the (tournament, number) index, and a page reads its games by a range of
    numbers, so a ladder's last page costs what its first does (a count and an OFFSET
    walked the history)."""

    @cached_property
    def count(self) -> int:
        last = self.object_list.order_by("-number").values_list("number", flat=True).first()
        return last or 0

    def page(self, number):
        number = self.validate_number(number)
        low = (number - 1) * self.per_page
        games = self.object_list.filter(number__gt=low, number__lte=low + self.per_page)
        return self._get_page(games, number, self)


# What a page of games shows: a game's number and status, its seats' bots, scores, ranks and
# statuses, read as columns (a game's record, statistics and options, and a seat's faults,
# details and logs are not read: 50 records decoded for nothing were a good part of a
# ladder's tournament page, bench/history.py; and 50 games' 200 seats, versions and bots
# built as model instances were most of what remained).
GAME_COLUMNS = ("id", "number", "status")
SEAT_COLUMNS = ("game_id", "bot_version__bot__name", "score", "rank", "status")


def tournament_detail(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("organiser"), pk=tournament_id)
    # Read once: the table and the chart both draw from it (a ladder has hundreds).
    standings = read_standings(tournament.pk)
    rows = standing_rows(standings)
    games = tournament.games.order_by("number").values_list(*GAME_COLUMNS)
    page = NumberedPaginator(games, 50).get_page(request.GET.get("page"))
    entrants = [
        BotVersion.make_label(*row)
        for row in tournament.entries.order_by("id").values_list(
            "bot_version__bot__owner__username", "bot_version__bot__name", "bot_version__number"
        )
    ]
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "can_edit": tournament.can_edit(request.user),
            "progress": services.progress(tournament),
            "standings": standings,
            "standing_rows": rows,
            "standings_body": standings_body(rows),
            "page": page,
            "games": game_rows(page.object_list),
            "entrants": entrants,
            "charts": charts.tournament_charts(tournament, standings),
        },
    )


STANDING_ROW = (
    '<tr><td class="num">{}</td><td><a href="{}">{}</a></td><td class="num">{}</td>'
    '<td class="num">{}</td><td class="num">{}</td><td class="num">{}</td>'
    '<td class="num">{}</td><td class="num">{}</td><td class="num">{}</td></tr>'
)
STANDING_CELLS = (
    "rank", "url", "label", "ordinal", "mu", "sigma", "games", "wins", "average_score",
    "faulted_games",
)  # fmt: skip


def standings_body(rows: list[dict]) -> str:
    """The standings table's rows (:func:`standing_rows`) as HTML, each cell escaped as the
    template escaped it: the template's loop over a ladder's 200 rows took 8-12 ms of its
    tournament page's render, this 1 (docs/performance.md), as for the charts' tables
    (``arena.web.plots.Chart.body``)."""
    return html_rows(STANDING_ROW, ([r[c] for c in STANDING_CELLS] for r in rows))


def standing_rows(standings: list[Standing]) -> list[dict]:
    """The standings table's cells as text, written here rather than by the template's
    filters: formatting (localized, value by value) and a URL reversed per row cost most of
    a ladder's tournament page, whose table has a row for each of its hundreds of entrant
    versions (bench/history.py)."""
    bot_url = url_former("bot")
    rows = []
    for rank, r in enumerate(standings, start=1):
        rows.append({
            "rank": str(rank), "url": bot_url(r.bot_id), "label": r.label,
            "ordinal": fixed(r.ordinal), "mu": fixed(r.mu), "sigma": fixed(r.sigma),
            "games": str(r.games), "wins": str(r.wins), "average_score": fixed(r.average_score, 1),
            "faulted_games": str(r.faulted_games),
        })  # fmt: skip
    return rows


def game_rows(games) -> list[dict]:
    """A page of games (rows of :data:`GAME_COLUMNS`) as the games table's cells (text):
    each seat's bot, its score and rank once the game is finished, and its status unless it
    played cleanly. Written here rather than by the template, which localized each number
    of its hundreds of seats."""
    games = list(games)
    seats: dict[int, list[dict]] = {game_id: [] for game_id, _, _ in games}
    finished = {game_id for game_id, _, status in games if status == Game.Status.FINISHED}
    for game_id, bot, score, rank, status in (
        GameSeat.objects.filter(game_id__in=seats)
        .order_by("game_id", "seat")
        .values_list(*SEAT_COLUMNS)
    ):
        done = game_id in finished
        seats[game_id].append(
            {"bot": bot, "result": f" ({score}, {rank})" if done else "",
             "flag": status if done and status != GameSeat.Status.OK else ""}
        )  # fmt: skip
    game_url = url_former("game")
    return [
        {"url": game_url(game_id), "number": str(number), "status": status, "seats": seats[game_id]}
        for game_id, number, status in games
    ]


@login_required
@require_POST
def tournament_action(request, tournament_id: int, action: str):
    tournament = _get_tournament_for_organiser(request, tournament_id)
    if action not in ACTIONS:
        raise PermissionDenied(f"Unknown action {action!r}.")
    try:
        ACTIONS[action](tournament.pk)
    except services.TournamentError as err:
        messages.error(request, str(err))
    else:
        messages.success(
            request, f"Tournament {action}ed." if action != "cancel" else "Tournament cancelled."
        )
    return redirect(tournament)
