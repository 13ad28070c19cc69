"""Plotly figures built from a page's tables (plain data in, plain figure JSON out), so every
figure can be checked without a browser. Each is an :class:`arena.web.plots.Chart` carrying
the number of games it rests on and the table its numbers come from, which the page shows
one click away and the API exports as JSON and CSV.

What a person reads: names beside bars (horizontal bars where names are long), a title on
every axis, counts on every heatmap cell, and categories resting on fewer than the page's
``min_games`` drawn grey (the rule is said under the chart)."""

from __future__ import annotations

import plotly.graph_objects as go

from arena.web.plots import GREY, LAYOUT, MIN_GAMES, Chart, axis, figure_dict

SET_NAMES = {"base": "base", "dark_city": "Dark City", "rank9": "rank 9"}
SET_COLOURS = {"base": "#2e86c1", "dark_city": "#8e44ad", "rank9": "#d68910"}
ZONE_COLOURS = {"red": "#c0392b", "green": "#27ae60", "blue": "#2e86c1"}
# The cranes page draws the configurations with the most games, at most this many.
TOP_CONFIGURATIONS = 12
# A crane configuration's tiles, abbreviated (the legend under the chart says so).
ACTIONS = {"building": "b", "upgrade": "u", "wall": "w", "quarries": "q", "road": "r",
           "mines": "m"}  # fmt: skip
CRANE_LEGEND = (
    "A configuration is written as its crane side, then its six action tiles in order, each "
    "as its two actions, the first in capitals: b build a building, u upgrade, w build a wall, "
    "q manage quarries, r build the King's Road, m manage mines (so Bq is Build a building / "
    "Manage quarries)."
)


def _plot(fig: go.Figure, **layout) -> dict:
    return figure_dict(fig, LAYOUT, **layout)


def sample_note(min_games: int) -> str:
    return f"Grey: fewer than {min_games} games, too few to read (min_games={min_games} in the address changes it)."


def _errors(rows: list[dict]) -> dict:
    """Asymmetric error bars from a row's Wilson interval around its win rate."""
    return {
        "type": "data",
        "symmetric": False,
        "array": [(r["win_rate_high"] or 0) - (r["win_rate"] or 0) for r in rows],
        "arrayminus": [(r["win_rate"] or 0) - (r["win_rate_low"] or 0) for r in rows],
    }


# -- seats ------------------------------------------------------------------------------


def seat_figures(page: dict) -> list[Chart]:
    rows, games = page["seats"], page["games"]
    win = go.Figure()
    score = go.Figure()
    for players in sorted({r["players"] for r in rows}):
        at = [r for r in rows if r["players"] == players]
        seats = [f"seat {r['seat_number']}" for r in at]
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
    columns = ["players", "seat_number", "games", "wins", "win_rate", "win_rate_low",
               "win_rate_high", "fair", "average_score", "faulted"]  # fmt: skip
    seat = axis("seat")
    return [
        Chart("seat-win-rate",
              "Win rate by seat (95 % Wilson interval; dashed: the fair share 1/players)",
              games, columns, rows,
              _plot(win, xaxis=seat, yaxis=axis("win rate", tickformat=".0%")), table="seats"),
        Chart("seat-test",
              "Are all seats equal? Chi-square test of equal win rates per player count",
              games, ["players", "games", "chi_square", "dof", "p_value"], tests,
              _plot(test, yaxis=axis("p-value", type="log"),
                    xaxis=axis("player count", type="category")),
              note="A small p-value (below 0.05) says the seats' win rates differ by more "
              "than chance would make them differ in this many games.", table="seat_test"),
        Chart("seat-score", "Average score by seat", games,
              ["players", "seat_number", "games", "average_score"], rows,
              _plot(score, xaxis=seat, yaxis=axis("points")), table="seats"),
    ]  # fmt: skip


# -- Citadels characters ---------------------------------------------------------------


def _label(row: dict) -> str:
    return f"{row['rank']}. {row['name']}"


def _hbars(rows: list[dict], value: str, title: str, fmt: str, min_games: int,
           counted: str = "games_held", tick: str = "") -> dict:  # fmt: skip
    """One horizontal bar per character, its name beside the bar, coloured by its set (grey
    when it rests on fewer than ``min_games``), rank 1 at the top; the value written at the
    bar's end."""
    at = [r for r in rows if r[value] is not None]
    fig = go.Figure()
    fig.add_bar(
        orientation="h",
        y=[_label(r) for r in at],
        x=[r[value] for r in at],
        marker_color=[SET_COLOURS[r["set"]] if r[counted] >= min_games else GREY for r in at],
        text=[format(r[value], fmt) for r in at],
        textposition="outside",
        cliponaxis=False,
        customdata=[[r[counted]] for r in at],
        hovertemplate="%{y}: %{x:"
        + fmt
        + "} (%{customdata[0]} "
        + counted.replace("_", " ")
        + ")<extra></extra>",
        showlegend=False,
        **({"error_x": _errors(at)} if value == "win_rate" else {}),
    )
    return _plot(
        fig,
        height=120 + 22 * len(at),
        margin={"l": 10, "r": 50, "t": 20, "b": 50},
        xaxis=axis(title, **({"tickformat": tick} if tick else {})),
        yaxis=axis("character", autorange="reversed", automargin=True),
    )


def character_figures(page: dict) -> list[Chart]:
    rows, games = page["characters"], page["games"]
    least = page.get("min_games", MIN_GAMES)
    held = [r for r in rows if r["rounds_held"]]
    base = ["name", "rank", "set"]
    grey = sample_note(least)

    def ranked(key, title, value, columns, label, fmt, tick="", counted="games_held", note=""):
        figure = _hbars(held, value, label, fmt, least, counted, tick)
        return Chart(key, title, games, base + columns, held, figure,
                     note=" ".join(n for n in (note, grey) if n), table="characters")  # fmt: skip

    suffered = go.Figure()
    for kind in ("killed", "robbed", "bewitched", "taxed"):
        suffered.add_bar(name=kind, orientation="h", y=[_label(r) for r in held],
                         x=[r[f"{kind}_rate"] for r in held])  # fmt: skip
    return [
        ranked("character-win-rate", "Win rate of the seat-games in which it was held",
               "win_rate", ["games_held", "win_rate", "win_rate_low", "win_rate_high",
                            "improvement_when_held", "adjusted_effect", "pick_rate", "taken_at",
                            "last_seen_at"],
               "win rate (95 % Wilson interval)", ".1%", ".0%",
               note="The main table: sort it by any column."),
        ranked("character-improvement",
               "Improvement when held: its win rate minus the win rate of seat-games without it",
               "improvement_when_held", ["games_held", "improvement_when_held"],
               "win rate when held minus without", "+.1%", "+.0%"),
        adjusted_figure(held, games, least),
        ranked("character-pick-rate", "Picked when available (share of the drafts it was offered in)",
               "pick_rate", ["offered", "pick_rate"], "picked when offered", ".1%", ".0%",
               counted="offered"),
        ranked("character-taken-at", "Taken at: average pick position (1 = chose first)",
               "taken_at", ["rounds_held", "taken_at"], "pick position", ".2f",
               counted="rounds_held"),
        ranked("character-last-seen-at",
               "Last seen at: the latest pick position at which it was still offered, on average",
               "last_seen_at", ["offered", "last_seen_at"], "pick position", ".2f",
               counted="offered",
               note="Late means the earlier pickers passed it over (17lands' average last seen "
               "at); beside \"taken at\" it says whether it is taken when it could be."),
        ranked("character-points", "Points gained in the rounds it was held (districts built in its turn)",
               "points_per_round_held", ["rounds_held", "points_per_round_held"],
               "points a round held", ".2f", counted="rounds_held"),
        Chart("character-suffered", "How often it was killed, robbed, bewitched or taxed (share of rounds held)",
              games, base + ["rounds_held", "killed_rate", "robbed_rate", "bewitched_rate", "taxed_rate"],
              held, _plot(suffered, barmode="group", height=160 + 30 * len(held),
                          xaxis=axis("share of rounds held", tickformat=".0%"),
                          yaxis=axis("character", autorange="reversed", automargin=True)),
              table="characters"),
        character_seat_figure(page, games, least),
        score_source_figure(page, games),
    ]  # fmt: skip


def adjusted_figure(held: list[dict], games: int, least: int) -> Chart:
    """Each character's raw improvement beside its skill-adjusted effect, with intervals."""
    at = [r for r in held if r["adjusted_effect"] is not None]
    fig = go.Figure()
    labels = [_label(r) for r in at]
    fig.add_bar(name="raw: win rate held minus not held", orientation="h", y=labels,
                x=[r["improvement_when_held"] for r in at], marker_color=GREY)  # fmt: skip
    fig.add_bar(
        name="adjusted for the bot versions' strength (95 % interval)",
        orientation="h",
        y=labels,
        x=[r["adjusted_effect"] for r in at],
        marker_color=[SET_COLOURS[r["set"]] for r in at],
        error_x={
            "type": "data",
            "symmetric": False,
            "array": [r["adjusted_high"] - r["adjusted_effect"] for r in at],
            "arrayminus": [r["adjusted_effect"] - r["adjusted_low"] for r in at],
        },
        customdata=[[r["games_held"]] for r in at],
        hovertemplate="%{y}: %{x:+.1%} (held in %{customdata[0]} seat-games)<extra></extra>",
    )
    return Chart(
        "character-adjusted",
        "Skill-adjusted effect: the change in win rate from holding it, for a bot of fixed strength",
        games,
        ["name", "rank", "set", "games_held", "win_rate", "improvement_when_held",
         "adjusted_effect", "adjusted_low", "adjusted_high"],
        held,
        _plot(fig, barmode="group", height=160 + 34 * len(at),
              xaxis=axis("change in win rate", tickformat="+.0%"),
              yaxis=axis("character", autorange="reversed", automargin=True)),
        note="Each bot version (at each player count) is compared with itself: its seat-games "
        "holding the character against its others (Mantel-Haenszel, docs/analytics.md). Where "
        "the grey raw bar and the coloured adjusted one differ, who took the character, not "
        "the character, made the raw number.",
        table="characters",
    )  # fmt: skip


def character_seat_figure(page: dict, games: int, least: int) -> Chart:
    """Win rate by character and seat, at one player count (seat 5 exists only at five):
    each cell with its seat-games, cells on fewer than ``least`` left blank."""
    cells = page["character_seats"]
    columns = ["name", "seat_number", "games", "win_rate", "win_rate_low", "win_rate_high"]
    title = "Win rate by character and seat (seat-games in which it was held)"
    if not page.get("players"):
        return Chart("character-seat", title, games, columns, cells,
                     note="Choose a player count above: a seat's chances differ at 3, 4 and "
                     "5 players, so one table per player count.", table="character_seats")  # fmt: skip
    order = [r["name"] for r in page["characters"]]
    names = sorted({c["name"] for c in cells}, key=order.index)
    seats = sorted({c["seat_number"] for c in cells})
    lookup = {(c["name"], c["seat_number"]): c for c in cells}
    heat = rate_heatmap(
        [f"seat {s}" for s in seats], names,
        [[lookup.get((n, s)) or {} for s in seats] for n in names], least,
    )  # fmt: skip
    return Chart("character-seat", f"{title}, {page['players']} players", games, columns, cells,
                 _plot(heat, height=140 + 26 * len(names), xaxis=axis("seat"),
                       yaxis=axis("character", autorange="reversed", automargin=True)),
                 note=f"Grey cells: fewer than {least} seat-games.", table="character_seats")  # fmt: skip


def rate_heatmap(x: list[str], y: list[str], cells: list[list[dict]], least: int) -> go.Figure:
    """Win rates (``cells`` rows of {"win_rate", "games"}) as a heatmap whose every cell says
    its rate and games; a cell on fewer than ``least`` games is grey with only its count."""

    def enough(cell):
        return cell.get("games", 0) >= least

    def text(cell):
        if not cell:
            return ""
        rate = f"{cell['win_rate']:.0%}<br>" if enough(cell) else ""
        return f"{rate}n={cell['games']}"

    # Two layers: the cells too thin to read, grey with their count, under the rates.
    fig = go.Figure()
    fig.add_heatmap(
        x=x,
        y=y,
        z=[[0 if c and not enough(c) else None for c in row] for row in cells],
        text=[[text(c) for c in row] for row in cells],
        texttemplate="%{text}",
        colorscale=[[0, GREY], [1, GREY]],
        showscale=False,
        hovertemplate="%{y}, %{x}: %{text}, too few to read<extra></extra>",
    )
    fig.add_heatmap(
        x=x,
        y=y,
        z=[[c.get("win_rate") if enough(c) else None for c in row] for row in cells],
        text=[[text(c) for c in row] for row in cells],
        texttemplate="%{text}",
        hovertemplate="%{y}, %{x}: %{text}<extra></extra>",
        colorscale="RdBu",
        zmin=0,
        zmax=1,
        colorbar={"title": {"text": "win rate"}, "tickformat": ".0%"},
    )
    return fig


# -- Praga crane configurations ----------------------------------------------------------


def short_configuration(name: str) -> str:
    """``A:building/quarries-upgrade/road-…`` as ``A: Bq Ur …`` (see CRANE_LEGEND)."""
    side, _, tiles = name.partition(":")
    short = []
    for tile in tiles.split("-"):
        first, _, second = tile.partition("/")
        short.append(ACTIONS.get(first, first).upper() + ACTIONS.get(second, second))
    return f"{side}: {' '.join(short)}" if tiles else name


def crane_figures(page: dict) -> list[Chart]:
    games = page["games"]
    least = page.get("min_games", MIN_GAMES)
    rows = page["configuration_seats"]
    # A configuration at a player count is a row of the matrix; the most played first.
    played: dict[tuple, int] = {}
    for r in rows:
        key = (r["configuration"], r["players"])
        played[key] = max(played.get(key, 0), r["games"])
    top = sorted(played, key=lambda k: -played[k])[:TOP_CONFIGURATIONS]
    seats = sorted({r["seat_number"] for r in rows})
    lookup = {(r["configuration"], r["players"], r["seat_number"]): r for r in rows}

    labels = [f"{short_configuration(c)} ({p}p, n={played[(c, p)]})" for c, p in top]
    win = rate_heatmap(
        [f"seat {s}" for s in seats], labels,
        [[lookup.get((*k, s)) or {} for s in seats] for k in top], least,
    )  # fmt: skip
    shown = {c for c, _ in top}
    scores = go.Figure()
    for name in sorted(shown, key=lambda c: -sum(played[k] for k in top if k[0] == c))[:5]:
        at = [r for r in page["configuration_scores"] if r["configuration"] == name]
        scores.add_bar(name=short_configuration(name), x=[r["score_from"] for r in at],
                       y=[r["seats"] for r in at])  # fmt: skip
    zones = go.Figure()
    for zone, colour in ZONE_COLOURS.items():
        at = [r for r in page["zones"] if r["zone"] == zone]
        zones.add_bar(name=f"{zone} zone", orientation="h", y=[r["tile"] for r in at],
                      x=[r["taken"] for r in at], marker_color=colour)  # fmt: skip
    more = len(played) - len(top)
    return [
        Chart("crane-win-rate",
              f"Win rate by seat per crane configuration: the {len(top)} most played",
              games, ["configuration", "players", "seat_number", "games", "wins", "win_rate",
                      "win_rate_low", "win_rate_high", "fair", "average_score",
                      "adjusted_effect", "adjusted_low", "adjusted_high"], rows,
              _plot(win, height=160 + 30 * len(top), xaxis=axis("seat"),
                    yaxis=axis("configuration (players, games)", autorange="reversed",
                               automargin=True)),
              note=CRANE_LEGEND + f" Grey cells: fewer than {least} games"
              + (f"; {more} less played configurations are in the table only." if more else ".")
              + " The table's skill-adjusted effect compares each bot version with itself "
              "(docs/analytics.md).",
              table="configuration_seats"),
        Chart("crane-scores",
              "Score distribution of the five most played configurations (seats per 10 points)",
              games, ["configuration", "score_from", "seats"], page["configuration_scores"],
              _plot(scores, barmode="group", xaxis=axis("score from"), yaxis=axis("seats")),
              table="configuration_scores"),
        Chart("crane-zones", "Which crane zone each action tile is taken from",
              games, ["tile", "zone", "taken", "average_value"], page["zones"],
              _plot(zones, barmode="stack", height=160 + 24 * len({r["tile"] for r in page["zones"]}),
                    xaxis=axis("times taken"),
                    yaxis=axis("action tile", automargin=True)),
              note="The value is the points a tile paid (blue zone) minus the gold it cost "
              "(red zone).", table="zones"),
        score_source_figure(page, games),
    ]  # fmt: skip


def score_source_figure(page: dict, games: int) -> Chart:
    """Average points per score source, winners beside the rest (any title)."""
    fig = go.Figure()
    for group in ("winners", "the rest"):
        at = [r for r in page["score_sources"] if r["group"] == group]
        fig.add_bar(name=group, orientation="h", y=[r["source"] for r in at],
                    x=[r["average"] for r in at])  # fmt: skip
    sources = len({r["source"] for r in page["score_sources"]})
    return Chart(
        "score-sources",
        "Score by source: winners beside the rest",
        games,
        ["source", "group", "seat_games", "average"],
        page["score_sources"],
        _plot(
            fig,
            barmode="group",
            height=160 + 40 * sources,
            xaxis=axis("average points"),
            yaxis=axis("score source", automargin=True),
        ),
        table="score_sources",
    )
