"""The charts of a bot's page and a tournament's page: rating over games (with a marker where
a new version first played) and results by seat. Each is built from plain rows into Plotly
figure JSON here, drawn by the page with the plotly.js of the installed Plotly package
(served at the dashboards' URL), and carries the number of games it rests on."""

from __future__ import annotations

from django.db.models import Sum

from arena.games.models import ALL_DAYS, AnalyticsSeatTotal
from arena.ratings.lines import rating_lines
from arena.tournaments.models import Tournament
from arena.web.plots import LAYOUT, Chart, axis, plain_figure

# At most this many points per line: a long history is thinned evenly (its last point kept).
MOST_POINTS = 500
# A rating's decimals in a chart's figure (hovers show two): with the floats' 17 digits the
# tournament page's rating figure was 49 KB at 1 M games, not 35, on every phone's visit.
ROUNDED = 3
# The most bots a tournament's rating chart draws (the best-rated first), as a ladder's page
# draws (CHART_BOTS): twelve lines in a chart half a desktop wide reused two of the
# template's ten colours, and each line's points are most of what the page costs at 1 M.
TOURNAMENT_LINES = 8
SMALL = {"height": 340, "margin": {"l": 55, "r": 15, "t": 20, "b": 50}}  # two side by side


def _figure(traces: list[dict], **layout) -> dict:
    return plain_figure(traces, LAYOUT, **{**SMALL, **layout})


def thinned(rows: list, most: int = MOST_POINTS) -> list:
    """Every k-th row so that at most ``most`` remain, the last one always among them."""
    if len(rows) <= most:
        return rows
    step = -(-len(rows) // most)
    kept = rows[::step]
    return kept if kept[-1] is rows[-1] else [*kept, rows[-1]]


# -- a bot ------------------------------------------------------------------------------


def bot_rating(bot) -> Chart:
    """The bot's μ − 3σ over its rated games, in the order they finished (thinned: points
    of runs of games, ``arena.ratings.lines``), one line per tournament (ratings are per
    tournament); a triangle where a version first played after another had."""
    points = rating_lines([bot.pk], dated=False)
    names = dict(
        Tournament.objects.filter(pk__in={p["tournament_id"] for p in points}).values_list(
            "pk", "name"
        )
    )
    for point in points:
        point["tournament"] = names.get(point["tournament_id"], "")
    traces = []
    for tournament in dict.fromkeys(p["tournament_id"] for p in points):
        line = [p for p in points if p["tournament_id"] == tournament]
        traces.append(dict(
            type="scatter",
            name=names.get(tournament, ""),
            x=[p["game_index"] for p in line],
            y=[round(p["ordinal"], ROUNDED) for p in line],
            mode="lines",
            customdata=[[p["version"], p["mu"], p["sigma"]] for p in line],
            hovertemplate="v%{customdata[0]}, game %{x}: %{y:.2f} "
            "(μ %{customdata[1]:.2f}, σ %{customdata[2]:.2f})<extra></extra>",
        ))  # fmt: skip
    firsts = [p for p in points[1:] if p["new_version"]]
    if firsts:
        traces.append(dict(
            type="scatter",
            name="new version",
            x=[p["game_index"] for p in firsts],
            y=[round(p["ordinal"], ROUNDED) for p in firsts],
            mode="markers+text",
            text=[f"v{p['version']}" for p in firsts],
            textposition="top center",
            marker={"symbol": "triangle-up", "size": 11, "color": "#333"},
        ))  # fmt: skip
    return Chart(
        "bot-rating",
        "Rating (μ − 3σ) over its rated games",
        points[-1]["game_index"] if points else 0,
        ["game_index", "tournament", "version", "mu", "sigma", "ordinal"],
        thinned(points, 50),
        _figure(
            traces,
            xaxis=axis("rated games, in the order they finished"),
            yaxis=axis("μ − 3σ"),
        ),  # fmt: skip
        note="The table shows at most 50 of the points.",
    )


# -- seats (a bot's or a tournament's) ---------------------------------------------------


def seat_wins(totals, key: str, title: str, *, first: str | None = None) -> Chart:
    """Win rate by seat, per player count, of the games summed in ``totals`` (a queryset of
    AnalyticsSeatTotal: the folded seat totals of every day, so the chart costs the totals'
    rows, not the games): a game won by several counts its share for each; the dashed line is the fair
    share 1/players. It rests on the games counted at ``first``'s column (``bot_games``: a
    bot's games, once each), else the games at seat 1 (a tournament's, once each)."""
    rows = list(
        totals.values("players", "seat")
        .annotate(seat_games=Sum("games"), won=Sum("wins"), first=Sum(first or "games"))
        .order_by("players", "seat")
    )
    games = sum(r["first"] for r in rows if first or r["seat"] == 0)
    for r in rows:
        del r["first"]
        r["games"], r["wins"] = r.pop("seat_games"), r.pop("won")
        r["seat_number"] = r.pop("seat") + 1  # people count seats from 1
        r["win_rate"] = (r["wins"] or 0) / r["games"]
    traces = []
    for players in dict.fromkeys(r["players"] for r in rows):
        at = [r for r in rows if r["players"] == players]
        labels = [f"seat {r['seat_number']}" for r in at]
        traces.append(dict(type="bar", name=f"{players} players", x=labels,
                           y=[r["win_rate"] for r in at],
                           customdata=[[r["wins"], r["games"]] for r in at],
                           hovertemplate="%{x}: won %{customdata[0]:.1f} of %{customdata[1]}"
                           "<extra></extra>"))  # fmt: skip
        traces.append(dict(type="scatter", name=f"fair share, {players} players", x=labels,
                           y=[1 / players] * len(at), mode="lines", line={"dash": "dash"}))  # fmt: skip
    return Chart(
        key,
        title,
        games,
        ["players", "seat_number", "games", "wins", "win_rate"],
        rows,
        _figure(
            traces, barmode="group", xaxis=axis("seat"), yaxis=axis("games won", tickformat=".0%")
        ),
    )


def bot_charts(bot) -> list[Chart]:
    seats = AnalyticsSeatTotal.objects.filter(
        title=bot.title, bot_version_id__in=bot.versions.values("id"), day=ALL_DAYS
    )
    return [
        bot_rating(bot),
        seat_wins(seats, "bot-seats", "Games won by seat", first="bot_games"),
    ]


# -- a tournament -----------------------------------------------------------------------


def tournament_ratings(tournament, standings) -> Chart:
    """Each entrant bot's μ − 3σ over its rated games of the tournament, in the order they
    finished, read by the one reader of rating lines (``arena.ratings.lines``: points of
    runs of games, thinned), so that a ladder's year costs what the chart draws; a new
    version of a bot continues its line. The table: each entrant's final rating, from
    ``standings`` (the tournament's ratings, best first: ``arena.ratings.standings``). At
    most :data:`TOURNAMENT_LINES` bots are drawn, the best first, and the table holds their
    versions only: a ladder's hundreds of entrants would be a chart nobody reads, and its
    table a copy of the page's standings, which cost the page what it does not show."""
    standings = list(standings)
    entrants = list(dict.fromkeys(r.bot_id for r in standings))
    bots = entrants[:TOURNAMENT_LINES]
    points = rating_lines(bots, tournament=tournament.pk, dated=False)
    traces = []
    for bot in bots:
        line = [p for p in points if p["bot_id"] == bot]
        if not line:
            continue
        label = line[0]["bot"]
        traces.append(dict(type="scatter", name=label, x=[p["game_index"] for p in line],
                           y=[round(p["ordinal"], ROUNDED) for p in line], mode="lines",
                           customdata=[[p["version"]] for p in line],
                           hovertemplate=f"{label} v%{{customdata[0]}}, game %{{x}}: %{{y:.2f}}"
                           "<extra></extra>"))  # fmt: skip
    drawn = set(bots)
    finals = [
        {"entrant": r.label, "games": r.games, "mu": r.mu, "sigma": r.sigma,
         "ordinal": r.ordinal}
        for r in standings
        if r.games and r.bot_id in drawn
    ]  # fmt: skip
    # A rated game counts in the games of each of its seats' ratings.
    rated = sum(r.games for r in standings) // max(tournament.seats, 1)
    return Chart(
        "tournament-ratings",
        "Rating movement: each entrant's μ − 3σ over its games",
        rated,
        ["entrant", "games", "mu", "sigma", "ordinal"],
        sorted(finals, key=lambda r: -r["ordinal"]),
        _figure(traces, xaxis=axis("its rated games, in the order they finished"),
                yaxis=axis("μ − 3σ")),
        note=(f"The chart and its numbers draw the {len(bots)} best-rated of {len(entrants)} bots."
              if len(entrants) > len(bots) else ""),
    )  # fmt: skip


def tournament_charts(tournament, standings) -> list[Chart]:
    seats = AnalyticsSeatTotal.objects.filter(
        title=tournament.title,
        players=tournament.seats,
        tournament_id=tournament.pk,
        day=ALL_DAYS,
    )
    return [
        tournament_ratings(tournament, standings),
        seat_wins(seats, "tournament-seats", "Games won by seat"),
    ]
