# Stored replay records rewritten in the packed format 3 (engine/core/records.py): actions as
# option indices and chance outcomes in the bits their ranges need, sealed over the seed too
# (a 4-player Citadels record: 6.5 KB of JSON -> 0.74 KB). Each record is replayed first, so
# it costs a replay per game (bench/record_size.py prints the rate); batches of 500 games,
# each its own transaction, so an interrupted run keeps what it did and the next run goes on
# (the platform reads both formats meanwhile).
#
# Reversible: going back rewrites format 3 records as format 2 lists with format 2's seal,
# the same record a format 2 engine wrote. Records that do not replay as stored (format 1,
# another rules version, altered) are left as they are, both ways.

from django.db import migrations

from arena.games.record_formats import convert_stored


def pack(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    convert_stored(Game, 3, using=schema_editor.connection.alias)


def unpack(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    convert_stored(Game, 2, using=schema_editor.connection.alias)


class Migration(migrations.Migration):
    atomic = False  # a transaction per batch (arena.games.record_formats)

    dependencies = [
        ("games", "0012_records_compressed_rows"),
    ]

    operations = [
        migrations.RunPython(pack, unpack, elidable=True),
    ]
