# The rating history narrowed (issue 25; bench/record_size.py):
#
# - RatingChange.mu_before and sigma_before are null where they are the rating's previous
#   change's mu and sigma (by game: ratings are applied in game order), or the prior for its
#   first change: the reads take them from there (models.with_before), and the store writes
#   none (16 bytes a row, 4 rows a 4-player game). A value that is not that stays.
# - TitleRatingChange.ordinal is null where it is mu - 3 sigma (computed as the store does,
#   the same floating-point steps in SQL), which the reads compute (ordinal_value; 8 bytes a
#   row), and the table loses its index on bot_version: nothing reads the points by version.
#   Its bot_version is null where it is the version of the bot's one seat in the game, which
#   the reads join (with_version; 8 bytes a row).
#
# Batches of ratings, each its own statement. Reversible: going back writes the derived
# values into the null ones, then makes the columns required again.

from django.db import migrations, models

from arena.ratings.services import MODEL

RATINGS = 2_000


def _derived(rating_from: int, rating_to: int) -> str:
    return (
        "SELECT id, mu_before, sigma_before, "
        "LAG(mu, 1, %s) OVER w AS prev_mu, LAG(sigma, 1, %s) OVER w AS prev_sigma "
        "FROM ratings_ratingchange WHERE rating_id >= %s AND rating_id < %s "
        "WINDOW w AS (PARTITION BY rating_id ORDER BY game_id)"
    ), [MODEL.rating().mu, MODEL.rating().sigma, rating_from, rating_to]


def _ranges(cursor, table: str = "ratings_rating", size: int = RATINGS):
    """[start, end) ranges of ``table``'s ids, ``size`` ids each."""
    cursor.execute(f"SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), -1) FROM {table}")
    low, high = cursor.fetchone()
    for start in range(low, high + 1, size):
        yield start, start + size


def null_derivable(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for start, end in _ranges(cursor):
            sql, params = _derived(start, end)
            cursor.execute(
                "UPDATE ratings_ratingchange SET mu_before = NULL, sigma_before = NULL "
                f"WHERE id IN (SELECT id FROM ({sql}) d "
                "WHERE d.mu_before = d.prev_mu AND d.sigma_before = d.prev_sigma)",
                params,
            )


def write_derived(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for start, end in _ranges(cursor):
            sql, params = _derived(start, end)
            cursor.execute(
                f"SELECT id, prev_mu, prev_sigma FROM ({sql}) d WHERE d.mu_before IS NULL",
                params,
            )
            rows = [(mu, sigma, change) for change, mu, sigma in cursor.fetchall()]
            cursor.executemany(
                "UPDATE ratings_ratingchange SET mu_before = %s, sigma_before = %s WHERE id = %s",
                rows,
            )


def null_ordinals(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ratings_titleratingchange SET ordinal = NULL WHERE ordinal = mu - 3 * sigma"
        )


def write_ordinals(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ratings_titleratingchange SET ordinal = mu - 3 * sigma WHERE ordinal IS NULL"
        )


POINTS = 100_000
# The version of the point's bot's seats in its game, when it sat once.
SEATED = (
    "SELECT p.id, MAX(s.bot_version_id) AS seated FROM ratings_titleratingchange p "
    "JOIN ratings_titlerating r ON r.id = p.title_rating_id "
    "JOIN games_gameseat s ON s.game_id = p.game_id "
    "JOIN bots_botversion v ON v.id = s.bot_version_id AND v.bot_id = r.bot_id "
    "WHERE p.id >= %s AND p.id < %s GROUP BY p.id HAVING COUNT(*) = 1"
)


def null_versions(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for start, end in _ranges(cursor, "ratings_titleratingchange", POINTS):
            cursor.execute(
                "UPDATE ratings_titleratingchange SET bot_version_id = NULL WHERE id IN "
                f"(SELECT d.id FROM ({SEATED}) d JOIN ratings_titleratingchange p "
                "ON p.id = d.id AND p.bot_version_id = d.seated)",
                [start, end],
            )


def write_versions(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for start, end in _ranges(cursor, "ratings_titleratingchange", POINTS):
            cursor.execute(
                f"SELECT d.id, d.seated FROM ({SEATED}) d JOIN ratings_titleratingchange p "
                "ON p.id = d.id AND p.bot_version_id IS NULL",
                [start, end],
            )
            rows = [(seated, point) for point, seated in cursor.fetchall()]
            cursor.executemany(
                "UPDATE ratings_titleratingchange SET bot_version_id = %s WHERE id = %s", rows
            )


class Migration(migrations.Migration):
    atomic = False  # a statement per batch of ratings

    dependencies = [
        ("bots", "0005_version_review_reason"),
        ("ratings", "0003_title_ratings"),
    ]

    operations = [
        migrations.AlterField(
            model_name="ratingchange",
            name="mu_before",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="sigma_before",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.RunPython(null_derivable, write_derived, elidable=True),
        migrations.AlterField(
            model_name="titleratingchange",
            name="ordinal",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.RunPython(null_ordinals, write_ordinals, elidable=True),
        migrations.AlterField(
            model_name="titleratingchange",
            name="bot_version",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=models.CASCADE,
                related_name="+",
                to="bots.botversion",
            ),
        ),
        migrations.RunPython(null_versions, write_versions, elidable=True),
    ]
