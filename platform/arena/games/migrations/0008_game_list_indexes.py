# The games list's indexes: whether a seed is public (a probe of the undone games), and the
# games a bot version played (an index-only scan; it replaces the foreign key's own index,
# which is created before that one is dropped).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('bots', '0003_withdrawn_status'),
        ('games', '0007_folded_facts_and_totals'),
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('status__in', ['finished', 'failed', 'void']), _negated=True), fields=['tournament', 'seed'], name='game_undone_seed'),
        ),
        migrations.AddIndex(
            model_name='gameseat',
            index=models.Index(fields=['bot_version', 'game'], name='seat_version_game'),
        ),
        migrations.AlterField(
            model_name='gameseat',
            name='bot_version',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='bots.botversion'),
        ),
    ]
