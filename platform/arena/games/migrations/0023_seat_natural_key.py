# A seat is keyed by (game, seat), its unique pair, instead of a surrogate id (issue 25):
# 8 bytes a row and the id's index (about 23 bytes a seat) less, four seats a 4-player game.
# Nothing refers to a seat. The table is rewritten in key order (arena.natural_keys), so rows
# written before give their id's bytes back too. Reversible: going back numbers the seats
# again in key order.

from django.db import migrations

from arena.natural_keys import natural_key_operation


class Migration(migrations.Migration):
    dependencies = [("games", "0022_seat_faulted")]

    operations = [
        natural_key_operation(
            "gameseat", ["game", "seat"], "game_seat_unique", "games_gameseat",
            key=["game_id", "seat"], order=["game_id", "seat"],
        )
    ]  # fmt: skip
