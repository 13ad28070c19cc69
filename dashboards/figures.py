"""Plotly figures built from a page's tables (plain data in, plain figure JSON out), so every
figure can be checked without a browser. Each :class:`Figure` carries the number of games it
rests on and the table its numbers come from, which the page shows one click away and the
API exports as JSON and CSV."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import plotly.graph_objects as go

from arena.web.plots import LAYOUT, cells, figure_dict

SET_NAMES = {"base": "base", "dark_city": "Dark City", "rank9": "rank 9"}
ZONE_COLOURS = {"red": "#c0392b", "green": "#27ae60", "blue": "#2e86c1"}


@dataclass
class Figure:
    """One figure of a page: what it shows, the games it rests on, its drawing and its table."""

    key: str
    title: str
    games: int
    table: str  # the page table it draws (the API's ``table`` parameter)
    columns: list[str]
    rows: list[dict]
    plotly: dict = field(default_factory=dict)  # {"data": [...], "layout": {...}}
    note: str = ""

    @property
    def empty(self) -> bool:
        return not self.games or not self.rows

    @property
    def plotly_json(self) -> str:
        return json.dumps(self.plotly)

    def cells(self) -> list[list]:
        return cells(self.rows, self.columns)


def _plot(fig: go.Figure, **layout) -> dict:
    return figure_dict(fig, LAYOUT, **layout)


def _errors(rows: list[dict]) -> dict:
    """Asymmetric error bars from a row's Wilson interval around its win rate."""
    return {
        "type": "data",
        "symmetric": False,
        "array": [(r["win_rate_high"] or 0) - (r["win_rate"] or 0) for r in rows],
        "arrayminus": [(r["win_rate"] or 0) - (r["win_rate_low"] or 0) for r in rows],
    }


# -- seats ------------------------------------------------------------------------------


def seat_figures(page: dict) -> list[Figure]:
    rows, games = page["seats"], page["games"]
    win = go.Figure()
    score = go.Figure()
    for players in sorted({r["players"] for r in rows}):
        at = [r for r in rows if r["players"] == players]
        seats = [f"seat {r['seat']}" for r in at]
        win.add_bar(
            name=f"{players} players",
            x=seats,
            y=[r["win_rate"] for r in at],
            error_y=_errors(at),
            customdata=[[r["games"], r["wins"]] for r in at],
            hovertemplate="%{x}: %{y:.1%} of %{customdata[0]} games<extra></extra>",
        )
        win.add_scatter(
            name=f"fair share, {players} players",
            x=seats,
            y=[1 / players] * len(at),
            mode="lines",
            line={"dash": "dash"},
        )
        score.add_bar(name=f"{players} players", x=seats, y=[r["average_score"] for r in at])
    tests = page["seat_test"]
    test = go.Figure()
    test.add_bar(
        name="p-value",
        x=[f"{r['players']} players" for r in tests],
        y=[max(r["p_value"], 1e-12) for r in tests],
        customdata=[[r["chi_square"], r["dof"], r["games"]] for r in tests],
        hovertemplate="%{x}: p = %{y:.3g} (chi-square %{customdata[0]:.2f}, "
        "%{customdata[1]} dof, %{customdata[2]} games)<extra></extra>",
    )
    test.add_scatter(name="0.05", x=[f"{r['players']} players" for r in tests],
                     y=[0.05] * len(tests), mode="lines", line={"dash": "dot"})  # fmt: skip
    columns = ["players", "seat", "games", "wins", "win_rate", "win_rate_low", "win_rate_high",
               "fair", "average_score", "faulted"]  # fmt: skip
    return [
        Figure(
            "seat-win-rate",
            "Win rate by seat (95 % Wilson interval; dashed: the fair share 1/players)",
            games,
            "seats",
            columns,
            rows,
            _plot(win, yaxis={"tickformat": ".0%", "title": "win rate"}),
        ),
        Figure(
            "seat-test",
            "Are all seats equal? Chi-square test of equal win rates per player count",
            games,
            "seat_test",
            ["players", "games", "chi_square", "dof", "p_value"],
            page["seat_test"],
            _plot(test, yaxis={"type": "log", "title": "p-value"}, xaxis={"type": "category"}),
            note="A small p-value (below 0.05) says the seats' win rates differ by more than "
            "chance would make them differ in this many games.",
        ),
        Figure(
            "seat-score",
            "Average score by seat",
            games,
            "seats",
            ["players", "seat", "games", "average_score"],
            rows,
            _plot(score, yaxis={"title": "points"}),
        ),
    ]


# -- Citadels characters ---------------------------------------------------------------


def _by_rank(rows: list[dict], value: str, fig: go.Figure, fmt: str = "") -> go.Figure:
    """One bar trace per character set, at each rank: base and Dark City side by side."""
    groups = [(name, [r for r in rows if r["set"] == s]) for s, name in SET_NAMES.items()]
    # the two rank-9 characters share their rank: a trace each, side by side
    groups = [(n, g) for n, g in groups if n != SET_NAMES["rank9"]] + [
        (r["name"], [r]) for r in rows if r["set"] == "rank9"
    ]
    for name, group in groups:
        at = [r for r in group if r[value] is not None]
        if not at:
            continue
        fig.add_bar(
            name=name,
            x=[f"rank {r['rank']}" for r in at],
            y=[r[value] for r in at],
            text=[r["name"] for r in at],
            customdata=[[r["games_held"], r["rounds_held"]] for r in at],
            hovertemplate="%{text}: %{y" + fmt + "} (held in %{customdata[0]} seat-games, "
            "%{customdata[1]} rounds)<extra></extra>",
            **({"error_y": _errors(at)} if value == "win_rate" else {}),
        )
    fig.update_layout(barmode="group")
    return fig


def character_figures(page: dict) -> list[Figure]:
    rows, games = page["characters"], page["games"]
    held = [r for r in rows if r["rounds_held"]]
    base = ["character", "name", "rank", "set"]

    def ranked(key, title, value, columns, fmt="", axis=None, note=""):
        fig = _by_rank(held, value, go.Figure(), fmt)
        return Figure(key, title, games, "characters", base + columns, held,
                      _plot(fig, yaxis=axis or {}), note=note)  # fmt: skip

    rate = {"tickformat": ".0%"}
    suffered = go.Figure()
    for kind in ("killed", "robbed", "bewitched", "taxed"):
        suffered.add_bar(name=kind, x=[r["name"] for r in held],
                         y=[r[f"{kind}_rate"] for r in held])  # fmt: skip
    cells = page["character_seats"]
    names = sorted({c["name"] for c in cells}, key=[r["name"] for r in rows].index)
    seats = sorted({c["seat"] for c in cells})
    lookup = {(c["name"], c["seat"]): c for c in cells}
    heat = go.Figure(
        go.Heatmap(
            x=[f"seat {s}" for s in seats],
            y=names,
            z=[[(lookup.get((n, s)) or {}).get("win_rate") for s in seats] for n in names],
            customdata=[[(lookup.get((n, s)) or {}).get("games", 0) for s in seats] for n in names],
            hovertemplate="%{y}, %{x}: %{z:.1%} of %{customdata} seat-games<extra></extra>",
            colorscale="RdBu",
            zmid=None,
        )
    )
    return [
        ranked("character-win-rate", "Win rate of the seat-games in which it was held",
               "win_rate", ["games_held", "win_rate", "win_rate_low", "win_rate_high"],
               ":.1%", rate),
        ranked("character-improvement",
               "Improvement when held: its win rate minus the win rate of seat-games without it",
               "improvement_when_held", ["games_held", "improvement_when_held"], ":+.1%",
               {"tickformat": "+.0%"}),
        ranked("character-pick-rate", "Picked when available (share of the drafts it was offered in)",
               "pick_rate", ["offered", "pick_rate"], ":.1%", rate),
        ranked("character-taken-at", "Taken at: average pick position (1 = chose first)",
               "taken_at", ["rounds_held", "taken_at"], ":.2f", {"title": "pick position"}),
        ranked("character-points", "Points gained in the rounds it was held (districts built in its turn)",
               "points_per_round_held", ["rounds_held", "points_per_round_held"], ":.2f"),
        Figure("character-suffered", "How often it was killed, robbed, bewitched or taxed (share of rounds held)",
               games, "characters",
               base + ["rounds_held", "killed_rate", "robbed_rate", "bewitched_rate", "taxed_rate"],
               held, _plot(suffered, barmode="group", yaxis=rate)),
        Figure("character-seat", "Win rate by character and seat (seat-games in which it was held)",
               games, "character_seats", ["character", "name", "seat", "games", "win_rate",
                                          "win_rate_low", "win_rate_high"], cells,
               _plot(heat, height=520)),
        score_source_figure(page, games),
    ]  # fmt: skip


# -- Praga crane configurations ----------------------------------------------------------


def crane_figures(page: dict) -> list[Figure]:
    games = page["games"]
    rows = page["configuration_seats"]
    win = go.Figure()
    for seat in sorted({r["seat"] for r in rows}):
        at = [r for r in rows if r["seat"] == seat]
        win.add_bar(
            name=f"seat {seat}",
            x=[f"{r['configuration']} ({r['players']}p)" for r in at],
            y=[r["win_rate"] for r in at],
            error_y=_errors(at),
            customdata=[r["games"] for r in at],
            hovertemplate="%{x}: %{y:.1%} of %{customdata} games<extra></extra>",
        )
    scores = go.Figure()
    for name in sorted({r["configuration"] for r in page["configuration_scores"]}):
        at = [r for r in page["configuration_scores"] if r["configuration"] == name]
        scores.add_bar(name=name, x=[r["score_from"] for r in at], y=[r["seats"] for r in at])
    zones = go.Figure()
    for zone, colour in ZONE_COLOURS.items():
        at = [r for r in page["zones"] if r["zone"] == zone]
        zones.add_bar(name=f"{zone} zone", x=[r["tile"] for r in at],
                      y=[r["taken"] for r in at], marker_color=colour)  # fmt: skip
    return [
        Figure("crane-win-rate", "Win rate by seat per crane configuration (95 % Wilson interval)",
               games, "configuration_seats",
               ["configuration", "players", "seat", "games", "wins", "win_rate", "win_rate_low",
                "win_rate_high", "fair", "average_score"], rows,
               _plot(win, barmode="group", yaxis={"tickformat": ".0%"}, height=460)),
        Figure("crane-scores", "Score distribution per crane configuration (seats per 10 points)",
               games, "configuration_scores", ["configuration", "score_from", "seats"],
               page["configuration_scores"],
               _plot(scores, barmode="group", xaxis={"title": "score from"})),
        Figure("crane-zones", "Which crane zone each action tile is taken from",
               games, "zones", ["tile", "zone", "taken", "average_value"], page["zones"],
               _plot(zones, barmode="stack"),
               note="The value is the points a tile paid (blue zone) minus the gold it cost "
               "(red zone)."),
        score_source_figure(page, games),
    ]  # fmt: skip


def score_source_figure(page: dict, games: int) -> Figure:
    """Average points per score source, winners beside the rest (any title)."""
    fig = go.Figure()
    for group in ("winners", "the rest"):
        at = [r for r in page["score_sources"] if r["group"] == group]
        fig.add_bar(name=group, x=[r["source"] for r in at], y=[r["average"] for r in at])
    return Figure(
        "score-sources",
        "Score by source: winners beside the rest",
        games,
        "score_sources",
        ["source", "group", "seat_games", "average"],
        page["score_sources"],
        _plot(fig, barmode="group", yaxis={"title": "average points"}),
    )
