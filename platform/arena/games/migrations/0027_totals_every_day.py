# The totals' rows of every day (issue 25): beside each day's rows, every total keeps the
# same summed over the days under one day before any (arena.games.models.ALL_DAYS), which a
# selection without dates reads, so that a year of history costs what one day does. The
# totals folded before are summed here; the fold adds to both from now on. Table and column
# names come from the models, as everywhere raw SQL is written here.

import datetime

from django.db import migrations

ALL_DAYS = datetime.date(1, 1, 1)  # arena.games.models.ALL_DAYS
TOTALS = (
    "AnalyticsSeatTotal", "AnalyticsFactTotal", "AnalyticsGameFactTotal",
    "GameSeatTotal", "GameLengthTotal", "HeadToHeadTotal", "LineupTotal",
    "SeatedSeatTotal", "SeatedLengthTotal", "SeatedHeadToHeadTotal", "SeatedLineupTotal",
)  # fmt: skip


def _parts(apps, schema_editor, name: str) -> tuple[str, list[str], list[str], str]:
    """A total's table, its key's columns but the day, its sums' columns, its day column."""
    model = apps.get_model("games", name)
    quote = schema_editor.quote_name
    (key,) = [constraint.fields for constraint in model._meta.constraints]
    column = {f.name: quote(f.column) for f in model._meta.concrete_fields}
    kept = [column[f] for f in key if f != "day"]
    sums = [column[f] for f in column if f not in key and f != "id"]
    return quote(model._meta.db_table), kept, sums, column["day"]


def sum_every_day(apps, schema_editor):
    # An earlier migration that folds the totals again (with the fold of today's code) has
    # written these rows already: they are summed afresh.
    drop_every_day(apps, schema_editor)
    every_day = schema_editor.connection.ops.adapt_datefield_value(ALL_DAYS)
    for name in TOTALS:
        table, kept, sums, day = _parts(apps, schema_editor, name)
        summed = ", ".join(f"SUM({c})" for c in sums)
        schema_editor.execute(
            f"INSERT INTO {table} ({', '.join([*kept, day, *sums])}) "
            f"SELECT {', '.join(kept)}, %s, {summed} FROM {table} WHERE {day} <> %s "
            f"GROUP BY {', '.join(kept)}",
            [every_day, every_day],
        )


def drop_every_day(apps, schema_editor):
    every_day = schema_editor.connection.ops.adapt_datefield_value(ALL_DAYS)
    for name in TOTALS:
        table, _, _, day = _parts(apps, schema_editor, name)
        schema_editor.execute(f"DELETE FROM {table} WHERE {day} = %s", [every_day])


class Migration(migrations.Migration):
    dependencies = [("games", "0026_rating_point_rated")]

    operations = [migrations.RunPython(sum_every_day, drop_every_day, elidable=True)]
