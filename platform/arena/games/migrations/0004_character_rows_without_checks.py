"""Character-held rows without the foreign-key check and the character index (see the model)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_record_lz4"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="citadelscharacterheld",
            name="character_held_character",
        ),
        migrations.AlterField(
            model_name="citadelscharacterheld",
            name="game",
            field=models.ForeignKey(
                db_constraint=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="characters_held",
                to="games.game",
            ),
        ),
    ]
