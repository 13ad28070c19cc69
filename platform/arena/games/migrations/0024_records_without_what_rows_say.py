# A stored record leaves out what its row says (issue 25; models.said_by_row): its rule
# options when they are its game's (the tournament's, which every game of it shares, about
# 220 of a row's 1,100 bytes), its versions, title and seed. The record field reads them back
# in (models.RecordField), so every read gets the record whole, as it digests and is signed.
# On PostgreSQL one statement rewrites the table with the records changed (ALTER COLUMN ...
# USING): an UPDATE would leave each old row behind, dead, until a rewrite that a
# transaction open anywhere on the server can keep from dropping them. On SQLite the records
# stay whole, which reads the same. Reversible.

from django.db import migrations

import arena.games.models

# What the row says of its record (models.said_by_row), and the record without those of its
# entries or with them back, in functions: a column's USING expression takes no sub-query.
# (Parameters by number: a name such as seed would read the tournament's column.)
FUNCTIONS = [
    """CREATE FUNCTION pg_temp.said(own jsonb, tournament bigint, engine text, rules text,
        seed bigint) RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'options', COALESCE($1, t.options), 'engine_version', $3, 'rules_version', $4,
        'title', t.title, 'seed', $5)
    FROM tournaments_tournament t WHERE t.id = $2 $$""",
    """CREATE FUNCTION pg_temp.stripped(r jsonb, said jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN r->'format' = '3' THEN
        r - ARRAY(SELECT e.key FROM jsonb_each(said) e WHERE r->e.key = e.value)
    ELSE r END $$""",
]
SAID = "pg_temp.said(options, tournament_id, engine_version, rules_version, seed)"
STRIPPED = f"pg_temp.stripped(record, {SAID})"
WHOLE = f"CASE WHEN record->'format' = '3' THEN {SAID} || record ELSE record END"


def rewrite(records: str):
    """The migration's step that rewrites the table with ``records`` (STRIPPED or WHOLE)
    as each record's new value (bench/record_size.py runs it too)."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        with schema_editor.connection.cursor() as cursor:
            # A new type resets the column's storage and compression: kept as they were
            # (storage MAIN since games 0018, lz4 since 0003 where the server has it).
            cursor.execute(
                "SELECT attstorage, attcompression FROM pg_attribute "
                "WHERE attrelid = 'games_game'::regclass AND attname = 'record'"
            )
            storage, compression = cursor.fetchone()
        for statement in (
            *FUNCTIONS,
            f"ALTER TABLE games_game ALTER COLUMN record TYPE jsonb USING {records}",
            f"ALTER TABLE games_game ALTER COLUMN record SET STORAGE {STORAGE[storage]}",
            "DROP FUNCTION pg_temp.stripped(jsonb, jsonb)",
            "DROP FUNCTION pg_temp.said(jsonb, bigint, text, text, bigint)",
            "ANALYZE games_game",
        ):
            schema_editor.execute(statement)
        if compression:
            schema_editor.execute(
                "ALTER TABLE games_game ALTER COLUMN record SET COMPRESSION "
                + {"l": "lz4", "p": "pglz"}[compression]
            )

    return run


STORAGE = {"p": "PLAIN", "e": "EXTERNAL", "m": "MAIN", "x": "EXTENDED"}


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0023_seat_natural_key"),
        ("tournaments", "0003_time_control_defaults_from_settings"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="record",
            field=arena.games.models.RecordField(blank=True, null=True),
        ),
        migrations.RunPython(rewrite(STRIPPED), rewrite(WHOLE)),
    ]
