"""The text of the long tables of the ladder, tournament and bot pages, written in Python once
per row: the template's filters (localized, value by value), a URL reversed per row and a
variable looked up through a chain of related models cost most of those pages, whose tables
have a row for each of a ladder's hundreds of entrant versions (``bench/history.py``). Each
function writes what the filter it replaces showed."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

# An id no row has, reversed in place of the row's own and replaced by it.
_MARK = 987654321


def url_former(name: str) -> Callable[[int], str]:
    """``reverse(name, args=[pk])`` for many rows' ``pk``: the URL is reversed once with a
    mark in place of the id, and each row's id is put in its place."""
    head, tail = reverse(name, args=[_MARK]).split(str(_MARK))
    return lambda pk: f"{head}{pk}{tail}"


def fixed(value: float | None, digits: int = 2) -> str:
    """``value|floatformat:digits``: the value's shortest decimal form rounded half up, no
    minus sign before a zero; blank for None."""
    if value is None:
        return ""
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)
    return str(rounded if rounded else abs(rounded))


def percent(rate: float) -> str:
    """``{% widthratio rate 1 100 %}``: a share as a whole percentage."""
    return str(round(rate * 100))


def when(moment: datetime | None) -> str:
    """``moment|date:"Y-m-d H:i"`` in the current time zone (as a template shows it); blank
    for None."""
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def html_rows(row: str, rows: Iterable[Sequence]) -> SafeString:
    """``format_html_join("", row, rows)``: ``row`` (a ``str.format`` string of HTML) once
    for each row of cells, each cell escaped as the template escapes it. Django's
    ``conditional_escape`` wraps each call to see whether an argument is a lazy string: for a
    ladder's 2,000 standings cells that wrapper was most of the table's 3.6 ms."""
    return mark_safe("".join(row.format(*map(_escaped, cells)) for cells in rows))


def _escaped(value) -> str:
    return value.__html__() if hasattr(value, "__html__") else html.escape(str(value))
