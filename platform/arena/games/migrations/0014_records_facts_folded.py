# The analytics fact rows of games already folded into the totals are deleted: the totals
# hold their figures and each game's record holds the game, from which a rebuild of the
# totals derives the facts again (arena.games.analytics.derive_missing_facts). From now on
# the fold deletes a game's fact rows once it has added them (about 130 rows, 15.6 KB a
# 4-player Citadels game; bench/record_size.py).
#
# Reversible: going back derives the fact rows of every stored game again from its record
# (a replay per game, a batch of 500 per transaction: hours for a million games).

from django.db import migrations

from arena.games.analytics import derive_missing_facts


def delete_folded(apps, schema_editor):
    fact = apps.get_model("games", "AnalyticsFact")
    pending = apps.get_model("games", "AnalyticsPending")
    alias = schema_editor.connection.alias
    folded = fact.objects.using(alias).exclude(
        game_id__in=pending.objects.using(alias).values("game_id")
    )
    folded.delete()  # one DELETE: nothing refers to a fact row


def derive_again(apps, schema_editor):
    derive_missing_facts(pending_only=False)


class Migration(migrations.Migration):
    atomic = False  # a transaction per batch when going back

    dependencies = [
        ("games", "0013_records_packed"),
    ]

    operations = [
        migrations.RunPython(delete_folded, derive_again, elidable=True),
    ]
