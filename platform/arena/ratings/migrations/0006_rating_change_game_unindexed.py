# The rating changes lose their index on game (issue 25): no read looks them up by game, and
# it was 15 bytes a change, 60 a 4-player game. A DROP INDEX: no rewrite.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0024_records_without_what_rows_say"),
        ("ratings", "0005_title_point_natural_key"),
    ]

    operations = [
        migrations.AlterField(
            model_name="ratingchange",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_changes",
                to="games.game",
            ),
        ),
    ]
