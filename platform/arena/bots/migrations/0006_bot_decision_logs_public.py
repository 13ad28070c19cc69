from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0005_version_review_reason"),
    ]

    operations = [
        migrations.AddField(
            model_name="bot",
            name="decision_logs_public",
            field=models.BooleanField(default=False),
        ),
    ]
