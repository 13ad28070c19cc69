"""The charts of a bot's page and a tournament's page: rating over games (with a marker where
a new version first played) and results by seat. Each is built from plain rows into Plotly
figure JSON here, drawn by the page with the plotly.js of the installed Plotly package
(served at the dashboards' URL), and carries the number of games it rests on."""

from __future__ import annotations

import plotly.graph_objects as go
from django.db.models import Count, F, IntegerField, Sum
from django.db.models.functions import Cast

from arena.games.models import Game, GameSeat
from arena.ratings.models import RatingChange
from arena.web.plots import LAYOUT, Chart, axis, figure_dict

# At most this many points per line: a long history is thinned evenly (its last point kept).
MOST_POINTS = 500
SMALL = {"height": 340, "margin": {"l": 55, "r": 15, "t": 20, "b": 50}}  # two side by side


def _figure(fig: go.Figure, **layout) -> dict:
    return figure_dict(fig, LAYOUT, **{**SMALL, **layout})


def thinned(rows: list, most: int = MOST_POINTS) -> list:
    """Every k-th row so that at most ``most`` remain, the last one always among them."""
    if len(rows) <= most:
        return rows
    step = -(-len(rows) // most)
    kept = rows[::step]
    return kept if kept[-1] is rows[-1] else [*kept, rows[-1]]


# -- a bot ------------------------------------------------------------------------------


def bot_rating(bot) -> Chart:
    """The bot's μ − 3σ after each of its rated games, in the order they finished, one line
    per tournament (ratings are per tournament); a triangle where a version first played
    after another had."""
    changes = list(
        RatingChange.objects.filter(rating__bot_version__bot=bot)
        .order_by("game__finished_at", "game_id")
        .values(
            "game_id",
            "ordinal",
            "mu",
            "sigma",
            tournament=F("rating__tournament__name"),
            version=F("rating__bot_version__number"),
        )  # fmt: skip
    )
    fig = go.Figure()
    for index, change in enumerate(changes, start=1):
        change["game_index"] = index
    for name in dict.fromkeys(c["tournament"] for c in changes):
        line = thinned([c for c in changes if c["tournament"] == name])
        fig.add_scatter(
            name=name,
            x=[c["game_index"] for c in line],
            y=[c["ordinal"] for c in line],
            mode="lines",
            customdata=[[c["version"], c["mu"], c["sigma"]] for c in line],
            hovertemplate="v%{customdata[0]}, game %{x}: %{y:.2f} "
            "(μ %{customdata[1]:.2f}, σ %{customdata[2]:.2f})<extra></extra>",
        )
    firsts = [
        c
        for before, c in zip(changes, changes[1:], strict=False)
        if c["version"] != before["version"]
    ]
    if firsts:
        fig.add_scatter(
            name="new version",
            x=[c["game_index"] for c in firsts],
            y=[c["ordinal"] for c in firsts],
            mode="markers+text",
            text=[f"v{c['version']}" for c in firsts],
            textposition="top center",
            marker={"symbol": "triangle-up", "size": 11, "color": "#333"},
        )
    return Chart(
        "bot-rating",
        "Rating (μ − 3σ) over its rated games",
        len({c["game_id"] for c in changes}),
        ["game_index", "tournament", "version", "mu", "sigma", "ordinal"],
        thinned(changes, 50),
        _figure(
            fig,
            xaxis=axis("rated games, in the order they finished"),
            yaxis=axis("μ − 3σ"),
        ),  # fmt: skip
        note="The table shows at most 50 of the points.",
    )


# -- seats (a bot's or a tournament's) ---------------------------------------------------


def seat_results(seats, key: str, title: str) -> Chart:
    """Win rate by seat, per player count, of the finished games' ``seats`` (a queryset of
    GameSeat): a game won by several counts for each of them; the dashed line is the fair
    share 1/players."""
    rows = list(
        seats.filter(game__status=Game.Status.FINISHED)
        .values("seat", players=F("game__tournament__seats"))
        .annotate(games=Count("id"), wins=Sum(Cast("winner", IntegerField())))
        .order_by("players", "seat")
    )
    for r in rows:
        r["seat_number"] = r.pop("seat") + 1  # people count seats from 1
        r["win_rate"] = (r["wins"] or 0) / r["games"]
    fig = go.Figure()
    for players in dict.fromkeys(r["players"] for r in rows):
        at = [r for r in rows if r["players"] == players]
        labels = [f"seat {r['seat_number']}" for r in at]
        fig.add_bar(name=f"{players} players", x=labels, y=[r["win_rate"] for r in at],
                    customdata=[[r["wins"], r["games"]] for r in at],
                    hovertemplate="%{x}: won %{customdata[0]} of %{customdata[1]}"
                    "<extra></extra>")  # fmt: skip
        fig.add_scatter(name=f"fair share, {players} players", x=labels,
                        y=[1 / players] * len(at), mode="lines", line={"dash": "dash"})  # fmt: skip
    games = seats.filter(game__status=Game.Status.FINISHED).values("game_id").distinct().count()
    return Chart(
        key,
        title,
        games,
        ["players", "seat_number", "games", "wins", "win_rate"],
        rows,
        _figure(
            fig, barmode="group", xaxis=axis("seat"), yaxis=axis("games won", tickformat=".0%")
        ),
    )


def bot_charts(bot) -> list[Chart]:
    seats = GameSeat.objects.filter(bot_version__bot=bot)
    return [bot_rating(bot), seat_results(seats, "bot-seats", "Games won by seat")]


# -- a tournament -----------------------------------------------------------------------


def tournament_ratings(tournament) -> Chart:
    """Each entrant's μ − 3σ after each of its games, over the tournament's game numbers."""
    changes = list(
        RatingChange.objects.filter(rating__tournament=tournament)
        .order_by("game__number")
        .values(
            "ordinal",
            "mu",
            "sigma",
            "rating__bot_version_id",
            number=F("game__number"),
            bot=F("rating__bot_version__bot__name"),
            owner=F("rating__bot_version__bot__owner__username"),
            version=F("rating__bot_version__number"),
        )  # fmt: skip
    )
    fig = go.Figure()
    lines: dict[int, list[dict]] = {}
    for c in changes:
        lines.setdefault(c["rating__bot_version_id"], []).append(c)
    for line in lines.values():
        label = f"{line[0]['owner']}/{line[0]['bot']} v{line[0]['version']}"
        line = thinned(line)
        fig.add_scatter(name=label, x=[c["number"] for c in line], y=[c["ordinal"] for c in line],
                        mode="lines", hovertemplate=f"{label}, game %{{x}}: %{{y:.2f}}"
                        "<extra></extra>")  # fmt: skip
    finals = [
        {
            "entrant": f"{line[-1]['owner']}/{line[-1]['bot']} v{line[-1]['version']}",
            "games": len(line),
            "mu": line[-1]["mu"],
            "sigma": line[-1]["sigma"],
            "ordinal": line[-1]["ordinal"],
        }  # fmt: skip
        for line in lines.values()
    ]
    return Chart(
        "tournament-ratings",
        "Rating movement: each entrant's μ − 3σ over the games",
        len({c["number"] for c in changes}),
        ["entrant", "games", "mu", "sigma", "ordinal"],
        sorted(finals, key=lambda r: -r["ordinal"]),
        _figure(fig, xaxis=axis("game number"), yaxis=axis("μ − 3σ")),
    )


def tournament_charts(tournament) -> list[Chart]:
    seats = GameSeat.objects.filter(game__tournament=tournament)
    return [
        tournament_ratings(tournament),
        seat_results(seats, "tournament-seats", "Games won by seat"),
    ]
