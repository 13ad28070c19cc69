# A game's length in actions as a column (Game.actions), filled from each stored record's
# seal (record -> final -> actions), so that the dashboards' game-length figures read a
# small integer instead of detoasting every replay record.

from django.db import migrations, models
from django.db.models import IntegerField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast


def backfill(apps, schema_editor):
    """One UPDATE with the expression the dashboards read before (PostgreSQL and SQLite)."""
    Game = apps.get_model("games", "Game")
    Game.objects.using(schema_editor.connection.alias).filter(record__isnull=False).update(
        actions=Cast(KT("record__final__actions"), IntegerField())
    )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_game_list_indexes'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='actions',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
