"""What every drawn figure of the site shares (the dashboards' and the bot and tournament
pages'): its Plotly JSON from a figure and a layout, and its numbers as table cells."""

from __future__ import annotations

import json

import plotly.graph_objects as go
import plotly.io

LAYOUT = {
    "margin": {"l": 60, "r": 20, "t": 30, "b": 60},
    "height": 380,
    "legend": {"orientation": "h", "y": -0.2},
    "template": "plotly_white",
}


def figure_dict(fig: go.Figure, layout: dict, **overrides) -> dict:
    """``fig`` with ``layout`` (and ``overrides`` of it) as plain JSON-able data."""
    fig.update_layout(**{**layout, **overrides})
    return json.loads(plotly.io.to_json(fig))


def cells(rows: list[dict], columns: list[str], digits: int = 4) -> list[list]:
    """The rows' values in ``columns`` order, floats rounded, missing values blank."""
    return [[_cell(row.get(c), digits) for c in columns] for row in rows]


def _cell(value, digits: int):
    if isinstance(value, float):
        return round(value, digits)
    return "" if value is None else value
