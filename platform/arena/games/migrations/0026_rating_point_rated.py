# Each rating point's running count of its rating's games (issue 25): a drawn line is thinned
# on it before the window that numbers its games. The points folded before are counted in
# the order they were folded (block, then the last change's id): the blocks of a rating
# follow its changes, and a block that a day cut in two folded its earlier day's changes
# first. Table and column names come from the model, as everywhere raw SQL is written here.

from django.db import migrations, models


def count_games(apps, schema_editor):
    point = apps.get_model("games", "RatingPoint")
    table = schema_editor.quote_name(point._meta.db_table)
    column = {f.name: schema_editor.quote_name(f.column) for f in point._meta.concrete_fields}
    schema_editor.execute(
        f"UPDATE {table} SET {column['rated']} = counted.rated "
        f"FROM (SELECT {column['id']} AS id, SUM({column['games']}) OVER ("
        f"PARTITION BY {column['rating_id']} ORDER BY {column['block']}, {column['change_id']} "
        f"ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS rated FROM {table}) counted "
        f"WHERE {table}.{column['id']} = counted.id"
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0025_analytics_queues_reindexed")]

    operations = [
        migrations.AddField(
            model_name="ratingpoint", name="rated", field=models.BigIntegerField(default=0)
        ),
        migrations.RunPython(count_games, migrations.RunPython.noop, elidable=True),
    ]
