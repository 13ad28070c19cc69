# A title rating's point is keyed by (title rating, game), its unique pair, instead of a
# surrogate id (issue 25): 8 bytes a row and the id's index (about 23 bytes a point) less,
# four points a 4-player game. Nothing refers to a point. The reads that ordered the points
# by id order them by ``at``, game and title rating: the same order of games (a rating step
# stamps its points alike and rates its games in order). The table is rewritten in key
# order (arena.natural_keys). Reversible: going back numbers the points in that order.

from django.db import migrations

from arena.natural_keys import natural_key_operation


class Migration(migrations.Migration):
    dependencies = [("ratings", "0004_narrower_rating_history")]

    operations = [
        migrations.AlterModelOptions(
            name="titleratingchange", options={"ordering": ["at", "game", "title_rating"]}
        ),
        natural_key_operation(
            "titleratingchange", ["title_rating", "game"], "title_rating_change_unique",
            "ratings_titleratingchange", key=["title_rating_id", "game_id"],
            order=["at", "game_id", "title_rating_id"],
        ),
    ]  # fmt: skip
