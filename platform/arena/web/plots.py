"""What every drawn chart of the site shares (the dashboards' and the bot, tournament and
ladder pages'): the one :class:`Chart` type, its Plotly JSON from a figure and a layout, and
its numbers as table cells under human column names, rates as percentages."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from decimal import Decimal

import plotly.graph_objects as go
import plotly.io
from django.utils import numberformat

from arena.web.text import html_rows

LAYOUT = {
    "margin": {"l": 60, "r": 20, "t": 30, "b": 60},
    "height": 380,
    "legend": {"orientation": "h", "y": -0.2},
    "template": "plotly_white",
}
# Below this many games a category's rate is greyed on the charts and marked in the tables
# (the dashboards' ``min_games`` parameter changes it for a page).
MIN_GAMES = 20
GREY = "#c8cdd3"

# Column names as a person reads them; a column not named here has its underscores spaced.
COLUMN_NAMES = {
    "win_rate": "win rate",
    "win_rate_low": "win rate, 95 % low",
    "win_rate_high": "win rate, 95 % high",
    "fair": "fair share",
    "average_score": "average score",
    "games_held": "games held",
    "rounds_held": "rounds held",
    "improvement_when_held": "improvement when held",
    "pick_rate": "picked when offered",
    "taken_at": "taken at (pick)",
    "last_seen_at": "last seen at (pick)",
    "points_per_round_held": "points a round held",
    "seat_number": "seat",
    "seat_games": "seat-games",
    "above_rate": "finished above",
    "above_rate_low": "finished above, 95 % low",
    "above_rate_high": "finished above, 95 % high",
    "fault_rate": "fault rate",
    "fault_rate_low": "fault rate, 95 % low",
    "fault_rate_high": "fault rate, 95 % high",
    "ordinal": "μ − 3σ",
    "mu": "μ",
    "sigma": "σ",
    "p_value": "p-value",
    "chi_square": "chi-square",
    "dof": "degrees of freedom",
    "adjusted_effect": "skill-adjusted effect",
    "adjusted_low": "adjusted, 95 % low",
    "adjusted_high": "adjusted, 95 % high",
}


def is_rate(column: str) -> bool:
    """Whether a column holds a share (shown as a percentage)."""
    return (
        column in ("fair", "improvement_when_held")
        or column.startswith("adjusted_")
        or column.endswith(("_rate", "_rate_low", "_rate_high"))
    )


@dataclass
class Chart:
    """One chart of a page: what it shows, the games it rests on, its Plotly figure and the
    rows it draws (``table``: the dashboards API's table of those rows)."""

    key: str
    title: str
    games: int
    columns: list[str]
    rows: list[dict]
    figure: dict = field(default_factory=dict)  # {"data": [...], "layout": {...}}
    note: str = ""
    table: str = ""

    @property
    def empty(self) -> bool:
        return not self.games or not self.rows

    def headers(self) -> list[str]:
        return [COLUMN_NAMES.get(c, c.replace("_", " ")) for c in self.columns]

    def cells(self) -> list[list]:
        return cells(self.rows, self.columns)

    def body(self) -> str:
        """The table's rows as HTML (each cell's text and sort key escaped, as the template
        wrote them): a template's loop over a chart's hundreds of cells cost a bot page
        more than the rest of its tables."""
        cell = '<td data-sort="{}">{}</td>'
        return html_rows(
            "<tr>{}</tr>", ((html_rows(cell, ((k, t) for t, k in row)),) for row in self.cells())
        )


def figure_dict(fig: go.Figure, layout: dict, **overrides) -> dict:
    """``fig`` with ``layout`` (and ``overrides`` of it) as plain JSON-able data."""
    fig.update_layout(**{**layout, **overrides})
    return json.loads(plotly.io.to_json(fig))


def plain_figure(traces: list[dict], layout: dict, **overrides) -> dict:
    """The figure JSON :func:`figure_dict` makes of the same traces (plain dicts, each with
    its ``type``) and layout, written directly. A fast path for the bot and tournament pages,
    whose charts are drawn on every visit: plotly's figure objects validate every value of
    every trace and copy the layout's template for each figure, which cost those pages 40-80
    ms a chart of a dozen lines (``bench/history.py``, most of the tournament page's time at
    any size). The template is taken from plotly once."""
    merged = {**layout, **overrides}
    template = merged.pop("template", None)
    if template is not None:
        merged["template"] = _template(template)
    return {"data": traces, "layout": merged}


@functools.cache
def _template(name: str) -> dict:
    return json.loads(plotly.io.to_json(go.Figure(layout={"template": name})))["layout"]["template"]


def axis(title: str, **more) -> dict:
    """An axis with its title, in the form plotly.js 3 reads."""
    return {"title": {"text": title}, **more}


def cells(rows: list[dict], columns: list[str]) -> list[list]:
    """The rows' values in ``columns`` order: shares as percentages, other floats rounded,
    missing values blank. Each cell is (text, sort key) so a table sorts by the number; both
    are text, written once here: a number a template writes is localized value by value (a
    language lookup each), which cost a page's tables more than the rest of them."""
    return [[_cell(row.get(c), is_rate(c)) for c in columns] for row in rows]


def _cell(value, rate: bool) -> tuple[str, str]:
    if value is None:
        return ("", "")
    if isinstance(value, float):
        if rate:
            return (f"{value:.1%}", _number(value))
        return (f"{value:.3f}".rstrip("0").rstrip(".") if abs(value) < 1000 else f"{value:.0f}",
                _number(value))  # fmt: skip
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        return (str(value), _number(value))
    return (str(value), str(value))


def _number(value) -> str:
    """A number as a template writes it in this site's English (no thousands separators)."""
    return str(numberformat.format(value, "."))
