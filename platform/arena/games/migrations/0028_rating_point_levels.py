# Rating points at coarser levels (issue 25): beside the points of runs of RATING_BLOCK
# games (level 0), each level L keeps the same games in runs 4 ** L times as long, so that
# a thinned line reads about as many points as it draws, however long the history. The
# points folded before are level 0; the coarser levels are made from them here: a coarse
# run is whole fine runs (both count a rating's games from its second one), its point the
# last of theirs, cut by day as they are. Table and column names come from the model.

from django.db import migrations, models

LEVELS, FACTOR = 6, 4  # arena.games.totals.RATING_LEVELS, RATING_LEVEL_FACTOR


def make_levels(apps, schema_editor):
    point = apps.get_model("games", "RatingPoint")
    table = schema_editor.quote_name(point._meta.db_table)
    column = {f.name: schema_editor.quote_name(f.column) for f in point._meta.concrete_fields}
    kept = [n for n in column if n not in ("id", "level", "block", "games", "rated")]
    listed = ", ".join(column[n] for n in kept)
    for level in range(1, LEVELS):
        runs = FACTOR**level
        block = (
            f"CASE WHEN {column['block']} = 0 THEN 0 "
            f"ELSE ({column['block']} - 1) / {runs} + 1 END"
        )
        schema_editor.execute(
            f"INSERT INTO {table} ({listed}, {column['level']}, {column['block']}, "
            f"{column['games']}, {column['rated']}) "
            f"SELECT {listed}, {level}, coarse_block, coarse_games, coarse_rated FROM ("
            f"SELECT {listed}, {block} AS coarse_block, "
            f"SUM({column['games']}) OVER run AS coarse_games, "
            f"MAX({column['rated']}) OVER run AS coarse_rated, "
            f"ROW_NUMBER() OVER (run ORDER BY {column['change_id']} DESC) AS latest "
            f"FROM {table} WHERE {column['level']} = 0 "
            f"WINDOW run AS (PARTITION BY {column['rating_id']}, {column['day']}, {block})"
            f") fine WHERE latest = 1"
        )


def drop_levels(apps, schema_editor):
    point = apps.get_model("games", "RatingPoint")
    table = schema_editor.quote_name(point._meta.db_table)
    schema_editor.execute(f"DELETE FROM {table} WHERE {schema_editor.quote_name('level')} > 0")


class Migration(migrations.Migration):
    dependencies = [("games", "0027_totals_every_day")]

    operations = [
        migrations.RemoveConstraint(model_name="ratingpoint", name="ratingpoint_key"),
        migrations.RemoveIndex(model_name="ratingpoint", name="ratingpoint_version"),
        migrations.AddField(
            model_name="ratingpoint",
            name="level",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(make_levels, drop_levels, elidable=True),
        migrations.AddIndex(
            model_name="ratingpoint",
            index=models.Index(fields=["bot_version_id", "level"], name="ratingpoint_version_level"),
        ),
        migrations.AddConstraint(
            model_name="ratingpoint",
            constraint=models.UniqueConstraint(
                fields=("rating_id", "level", "day", "block"), name="ratingpoint_level_key"
            ),
        ),
    ]
