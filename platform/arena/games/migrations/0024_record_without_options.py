# A stored record leaves out its rule options when they are its game's (issue 25): the
# tournament's, which every game of it shares, about 220 of a row's 1,100 bytes. The record
# field reads them back in (models.RecordField), so every read gets the record whole, as it
# digests and is signed. Set-based on PostgreSQL (one UPDATE, then CLUSTER on the primary
# key, which rewrites the table so that the bytes are given back, not left as dead rows);
# on SQLite the records keep their options, which reads whole as well. Reversible.

from django.db import migrations

import arena.games.models

RULE_OPTIONS = "COALESCE(g.options, t.options)"
JOIN = "FROM tournaments_tournament t WHERE t.id = g.tournament_id AND g.record->'format' IS NOT NULL"


def strip(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"UPDATE games_game g SET record = g.record - 'options' {JOIN} "
        f"AND g.record->'options' = {RULE_OPTIONS}"
    )
    schema_editor.execute("CLUSTER games_game USING games_game_pkey")
    schema_editor.execute("ANALYZE games_game")


def put_back(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        "UPDATE games_game g SET record = g.record || "
        f"jsonb_build_object('options', {RULE_OPTIONS}) {JOIN} "
        "AND g.record->'options' IS NULL"
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0023_seat_natural_key"), ("tournaments", "0003_time_control_defaults_from_settings")]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="record",
            field=arena.games.models.RecordField(blank=True, null=True),
        ),
        migrations.RunPython(strip, put_back),
    ]
