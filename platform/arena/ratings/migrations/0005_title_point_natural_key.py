# A title rating's point is keyed by (title rating, game), its unique pair, instead of a
# surrogate id (issue 25): 8 bytes a row and the id's index (about 23 bytes a point) less,
# four points a 4-player game. Nothing refers to a point. The reads that ordered the points
# by id order them by ``at``, game and title rating: the same order of games (a rating step
# stamps its points alike and rates its games in order). The table is rewritten in key
# order (arena.natural_keys). Reversible: going back numbers the points in that order.
#
# First, the ordinals and versions that ratings 0004 leaves null where the reads derive
# them (mu - 3 sigma; the bot's one seat in the game) are made null where rows written some
# other way hold them (the long-history bench's build wrote every one): one rewrite of the
# table, as ALTER COLUMN ... USING, not an UPDATE whose old rows a transaction open
# elsewhere on the server would keep alive through the CLUSTER. Going back leaves them
# null: ratings 0004's way back writes them.

from django.db import migrations

from arena.natural_keys import natural_key_operation

# The version of the point's bot's one seat in its game (ratings 0004's SEATED), in a
# function: a column's USING expression takes no sub-query.
SEATED = """
CREATE FUNCTION pg_temp.seated(game bigint, rating bigint) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN COUNT(*) = 1 THEN MAX(s.bot_version_id) END
    FROM games_gameseat s JOIN bots_botversion v ON v.id = s.bot_version_id
    JOIN ratings_titlerating r ON r.id = $2 AND r.bot_id = v.bot_id
    WHERE s.game_id = $1 $$
"""


def null_derivable(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # the rows keep them, which read the same
    schema_editor.execute(SEATED)
    schema_editor.execute(
        "ALTER TABLE ratings_titleratingchange "
        "ALTER COLUMN ordinal TYPE double precision USING "
        "CASE WHEN ordinal = mu - 3 * sigma THEN NULL ELSE ordinal END, "
        "ALTER COLUMN bot_version_id TYPE bigint USING CASE WHEN bot_version_id = "
        "pg_temp.seated(game_id, title_rating_id) THEN NULL ELSE bot_version_id END"
    )
    schema_editor.execute("DROP FUNCTION pg_temp.seated(bigint, bigint)")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0004_narrower_rating_history")]

    operations = [
        migrations.RunPython(null_derivable, migrations.RunPython.noop, elidable=True),
        migrations.AlterModelOptions(
            name="titleratingchange", options={"ordering": ["at", "game", "title_rating"]}
        ),
        natural_key_operation(
            "titleratingchange", ["title_rating", "game"], "title_rating_change_unique",
            "ratings_titleratingchange", key=["title_rating_id", "game_id"],
            order=["at", "game_id", "title_rating_id"],
        ),
    ]  # fmt: skip
