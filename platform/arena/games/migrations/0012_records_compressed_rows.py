"""Game and seat rows compressed from 512 bytes up, on PostgreSQL.

PostgreSQL compresses a row's wide values only once the row passes ``toast_tuple_target``
(about 2 KB by default). A game row with a packed record (format 3, migration 0013: about
0.9 KB), its stats and options stays under that, so it was kept uncompressed: about 2 KB a
game in the heap. From 512 bytes, its JSON values are compressed (lz4 where the server has it,
as the record since 0003) in the row: bench/record_size.py prints the bytes per game. The
seats' details and faults go the same way. Rows written before keep their form until they
are next written. SQLite is left as it is.
"""

from django.db import migrations

TABLES = ("games_game", "games_gameseat")


def _set_target(value: str | None):
    def apply(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            for table in TABLES:
                if value is None:
                    cursor.execute(f"ALTER TABLE {table} RESET (toast_tuple_target)")
                else:
                    cursor.execute(f"ALTER TABLE {table} SET (toast_tuple_target = {value})")

    return apply


class Migration(migrations.Migration):
    dependencies = [("games", "0011_game_finished_unrated")]

    operations = [migrations.RunPython(_set_target("512"), _set_target(None), elidable=False)]
