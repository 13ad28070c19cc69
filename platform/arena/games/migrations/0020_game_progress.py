from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_worker_sandbox"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="progress",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
