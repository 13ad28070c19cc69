# The analytics queues' indexes rebuilt at their size now (issue 25). The fact, seat and
# pending rows of a stored game wait in these tables until the beat folds them, then are
# deleted, so the tables hold minutes of games; but a fold of many games at once (games 0014
# folded every game stored before it, the long-history bench folds 50,000-game chunks)
# leaves their indexes at that peak, pages that VACUUM frees for reuse but never gives back:
# 192 MB after the bench's 1 M-game build, 192 bytes a game. A REINDEX of tables this small
# takes a moment. PostgreSQL only; nothing to undo.

from django.db import migrations

QUEUES = ("games_analyticsfact", "games_analyticsseat", "games_analyticspending")


def reindex(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in QUEUES:
            schema_editor.execute(f"REINDEX TABLE {table}")


class Migration(migrations.Migration):
    dependencies = [("games", "0024_records_without_what_rows_say")]

    operations = [migrations.RunPython(reindex, migrations.RunPython.noop, elidable=True)]
