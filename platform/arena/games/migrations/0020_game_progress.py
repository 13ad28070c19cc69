from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_seat_runner_kills"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="progress",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
