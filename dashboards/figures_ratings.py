"""The Ratings and bots page's figures, built from its tables (plain data in, figure JSON
out) as figures.py builds the other pages'."""

from __future__ import annotations

import plotly.colors
import plotly.graph_objects as go

from arena.games.totals import RATING_BLOCK
from arena.web.plots import LAYOUT, Chart, axis, figure_dict

BAND_OPACITY = 0.12


def _plot(fig: go.Figure, **layout) -> dict:
    return figure_dict(fig, LAYOUT, **layout)


PALETTE = plotly.colors.qualitative.Plotly  # #rrggbb colours


def rating_traces(fig: go.Figure, series: dict[str, list[dict]], x: str = "game_index") -> None:
    """For each named series of rating rows (``ordinal``, ``band_low``, ``band_high``, ``mu``,
    ``sigma``): the μ ± 3σ band, shaded in the line's colour, and the μ − 3σ line on it."""
    for number, (name, rows) in enumerate(series.items()):
        colour = PALETTE[number % len(PALETTE)]
        xs = [r[x] for r in rows]
        fig.add_scatter(x=xs, y=[r["band_high"] for r in rows], mode="lines",
                        line={"width": 0, "color": colour}, showlegend=False,
                        hoverinfo="skip", legendgroup=name)  # fmt: skip
        fig.add_scatter(x=xs, y=[r["band_low"] for r in rows], mode="lines",
                        line={"width": 0, "color": colour}, fill="tonexty",
                        fillcolor=_faint(colour), showlegend=False, hoverinfo="skip",
                        legendgroup=name)  # fmt: skip
        fig.add_scatter(
            name=name,
            x=xs,
            y=[r["ordinal"] for r in rows],
            mode="lines",
            line={"color": colour, "width": 2},
            legendgroup=name,
            customdata=[[r["version"], r["mu"], r["sigma"]] for r in rows],
            hovertemplate=f"{name} v%{{customdata[0]}}, game %{{x}}: μ − 3σ = %{{y:.2f}} "
            "(μ %{customdata[1]:.2f}, σ %{customdata[2]:.2f})<extra></extra>",
        )


def _faint(colour: str) -> str:
    """A ``#rrggbb`` colour as rgba at BAND_OPACITY."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red}, {green}, {blue}, {BAND_OPACITY})"


def version_marker_trace(fig: go.Figure, changes: list[dict], x: str = "game_index") -> None:
    """A marker at each first game of a newly uploaded version."""
    if changes:
        fig.add_scatter(
            name="new version",
            x=[c[x] for c in changes],
            y=[c["ordinal"] for c in changes],
            mode="markers+text",
            text=[f"v{c['version']}" for c in changes],
            textposition="top center",
            marker={"symbol": "triangle-up", "size": 11, "color": "#333"},
            hovertemplate="%{text} first played here<extra></extra>",
        )


def ratings_figures(page: dict) -> list[Chart]:
    games = page["games"]
    history = page["rating_history"]
    series: dict[str, list[dict]] = {}
    for r in history:
        series.setdefault(r["bot"], []).append(r)
    rating = go.Figure()
    rating_traces(rating, series)
    version_marker_trace(rating, page["version_changes"])

    cells = page["head_to_head"]
    names = sorted({c["bot_a"] for c in cells})
    lookup = {(c["bot_a"], c["bot_b"]): c for c in cells}
    heat = go.Figure(
        go.Heatmap(
            x=names,
            y=names,
            z=[[(lookup.get((a, b)) or {}).get("above_rate") for b in names] for a in names],
            customdata=[[(lookup.get((a, b)) or {}).get("games", 0) for b in names] for a in names],
            hovertemplate="%{y} above %{x}: %{z:.1%} of %{customdata} games<extra></extra>",
            colorscale="RdBu",
            zmin=0,
            zmax=1,
            text=[[str((lookup.get((a, b)) or {}).get("games", "")) for b in names] for a in names],
            texttemplate="%{text}",
        )
    )
    scores = _histogram(page["score_distribution"], "seats")
    lengths = _histogram(page["game_lengths"], "games")
    faults = go.Figure()
    faulted = page["faults"]
    faults.add_bar(
        name="fault rate",
        orientation="h",  # bot names read beside their bars
        y=[f"{r['bot']} v{r['version']}" for r in faulted],
        x=[r["fault_rate"] for r in faulted],
        error_x={
            "type": "data",
            "symmetric": False,
            "array": [r["fault_rate_high"] - r["fault_rate"] for r in faulted],
            "arrayminus": [r["fault_rate"] - r["fault_rate_low"] for r in faulted],
        },
        customdata=[[r["faulted"], r["seat_games"]] for r in faulted],
        hovertemplate="%{y}: %{customdata[0]} of %{customdata[1]} seat-games<extra></extra>",
    )
    drawn_games = len({r["game_id"] for r in history})
    met = page["head_to_head_games"]
    return [
        Chart("rating-history", "Rating (μ − 3σ) over games, with its μ ± 3σ band; "
              "triangles mark a new version's first game", drawn_games,
              ["bot", "version", "tournament_id", "game_index", "games", "game_id",
               "finished_at", "mu", "sigma", "ordinal", "band_low", "band_high"], history,
              _plot(rating, xaxis=axis("the bot's rated games, in the order they finished"),
                    yaxis=axis("μ − 3σ"), height=460),
              note="Ratings are per tournament: a bot in several tournaments of the selection "
              "has several ratings, drawn one after the other. Choose a tournament for one. "
              + ("A point is the rating after each rated game (a bot filter is set)."
                 if page.get("rating_points") == "games" else
                 f"A point is the rating after the last game of a run of up to {RATING_BLOCK} "
                 "of one rating's games within a day, or of runs 4, 16, 64… times as long "
                 "when a bot has played many, so that a line keeps about a hundred points (a "
                 "rating's first game is a point of its own; \"games\" in the table says how "
                 "many), so a new version's marker is at its first game."),
              table="rating_history"),
        Chart("head-to-head", "Head to head: how often the row's bot finished above the "
              "column's (a level finish counts half; numbers are the games they met in)", met,
              ["bot_a", "bot_b", "games", "pairs", "above", "level",
               "above_rate", "above_rate_low", "above_rate_high"], cells,
              _plot(heat, height=520, xaxis=axis("the column's bot", type="category"),
                    yaxis=axis("the row's bot", type="category", automargin=True)),
              table="head_to_head"),
        Chart("score-distribution", "Final scores (seats per bin of points)", games,
              ["players", "from", "to", "seats"], page["score_distribution"],
              _plot(scores, barmode="overlay", xaxis=axis("points"), yaxis=axis("seats")),
              table="score_distribution"),
        Chart("game-lengths", "Game length (games per bin of actions taken)", games,
              ["players", "from", "to", "games", "average_seconds"], page["game_lengths"],
              _plot(lengths, barmode="overlay", xaxis=axis("actions"), yaxis=axis("games")),
              note="Length is the number of actions the record holds, the same measure for "
              "every title; average seconds is the match's wall time.", table="game_lengths"),
        Chart("fault-rates", "Fault rate per bot version (seat-games with a fault; 95 % "
              "Wilson interval)", games,
              ["bot", "version", "seat_games", "faulted", "disqualified", "faults",
               "fault_rate", "fault_rate_low", "fault_rate_high"], faulted,
              _plot(faults, height=160 + 24 * len(faulted), xaxis=axis("fault rate", tickformat=".0%"),
                    yaxis=axis("bot version", automargin=True)),
              table="faults"),
    ]  # fmt: skip


def _histogram(rows: list[dict], counted: str) -> go.Figure:
    """One bar trace per player count over the bins' lower edges."""
    fig = go.Figure()
    for players in sorted({r["players"] for r in rows}):
        at = [r for r in rows if r["players"] == players]
        fig.add_bar(name=f"{players} players", x=[r["from"] for r in at],
                    y=[r[counted] for r in at], opacity=0.7,
                    customdata=[r["to"] for r in at],
                    hovertemplate="%{x}–%{customdata}: %{y}<extra></extra>")  # fmt: skip
    return fig
