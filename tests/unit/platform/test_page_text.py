"""The long tables' text written in Python (arena.web.text, the chart tables' cells) is what
the template's filters and ``{{ }}`` wrote for the same values."""

import datetime as dt
import random

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join, json_script
from django.utils.safestring import mark_safe

from arena.web.plots import cells
from arena.web.templatetags.figures import figure_script
from arena.web.text import fixed, html_rows, percent, url_former, when


def _template(source: str, **context) -> str:
    return Template(source).render(Context(context))


@pytest.mark.parametrize("digits", [1, 2])
def test_fixed_writes_what_floatformat_writes(digits):
    # ties in the shortest decimal form (0.125, 2.675), minus zero, large and tiny values
    values = [0.125, 2.675, -0.001, -0.0, 0.0, 25.0, 8.333333333333334, 1234.5, -12.005, 1e-9]
    rng = random.Random(7)
    values += [rng.uniform(-60, 60) for _ in range(2000)]
    values += [round(rng.uniform(-60, 60), 3) for _ in range(2000)]
    for value in values:
        assert fixed(value, digits) == _template(f"{{{{ v|floatformat:{digits} }}}}", v=value)
    assert fixed(None) == ""


def test_percent_writes_what_widthratio_writes():
    for rate in [0.0, 0.005, 0.015, 0.125, 0.5, 0.9951, 1.0, 1 / 3]:
        assert percent(rate) == _template("{% widthratio r 1 100 %}", r=rate)


def test_when_writes_what_the_date_filter_writes_in_the_current_time_zone():
    moment = dt.datetime(2026, 12, 2, 23, 59, 30, tzinfo=dt.UTC)
    for zone in ["UTC", "Asia/Tokyo"]:
        with timezone.override(zone):
            assert when(moment) == _template('{{ m|date:"Y-m-d H:i" }}', m=moment)
    assert when(None) == ""


def test_html_rows_writes_what_format_html_join_writes():
    row = '<tr><td><a href="{}">{}</a></td><td>{}</td></tr>'
    rows = [
        ["/bots/1/", "ann/<script>alert('x')</script> v1", 3],
        ["/bots/2/?a=1&b=2", "quote \" and apostrophe '", None],
        ["/bots/3/", mark_safe("<b>already safe</b>"), 2.5],
        ["/bots/4/", "名字 & 字", -0.0],
    ]
    written = html_rows(row, rows)
    assert written == format_html_join("", row, rows)
    assert "<script>" not in written and hasattr(written, "__html__")
    assert html_rows(row, []) == ""


def test_figure_script_writes_what_json_script_writes():
    figure = {
        "data": [{"name": "</script><script>alert('x')</script> & co", "x": [1, 2.5, None],
                  "text": ["名字", "\u2028 line", '"quoted"', "a > b < c"]}],
        "layout": {"title": {"text": "μ − 3σ"}, "when": dt.datetime(2026, 12, 3, tzinfo=dt.UTC)},
    }  # fmt: skip
    written = figure_script(figure, "chart-<1>")
    assert written == json_script(figure, "chart-<1>")
    assert "</script><script>" not in written and hasattr(written, "__html__")
    rendered = _template('{% load figures %}{{ f|figure_script:"k" }}', f=figure)
    assert rendered == _template('{{ f|json_script:"k" }}', f=figure)


def test_a_url_former_forms_what_reverse_does():
    bot_url, game_url = url_former("bot"), url_former("game")
    for pk in [1, 7, 987654321, 123456789012]:
        assert bot_url(pk) == reverse("bot", args=[pk])
        assert game_url(pk) == reverse("game", args=[pk])


def test_a_chart_tables_sort_keys_are_the_numbers_as_a_template_wrote_them():
    row = {"a": 0.1234, "b": 1e-07, "c": 12, "d": "x", "e": True, "f": None, "g": -2.5e20}
    written = cells([row], list(row))[0]
    assert [key for _, key in written] == [
        _template("{{ v }}", v=value) if value is not None else "" for value in row.values()
    ]
    assert all(isinstance(key, str) for _, key in written)
