# What a stored game keeps beside its record, narrowed (issue 25: about 3 KB a 4-player
# Citadels game all told; bench/record_size.py):
#
# - Game.options is null when the game plays its tournament's options (every game that
#   create_games made): the claim reads the tournament's (280 bytes a game).
# - Game.stats and GameSeat.details are emptied where the record replays to exactly them:
#   the game page reads them from the record (arena.games.results; 1.6 KB a game with the
#   TOAST rows). A record that does not replay to them keeps them, as does a game not
#   finished.
# - AnalyticsSeat rows of games already folded into the totals are deleted, as the fact rows
#   were (0014): each is its game's and GameSeat's columns side by side, and a rebuild of the
#   totals writes them again (analytics.derive_missing_seats). From now on the fold deletes
#   them (1 KB a game).
# - The record (0.8 KB compressed) stays in the game's row instead of a TOAST row of its own
#   (storage MAIN, on PostgreSQL): the TOAST row's header, its index entry and the pointer
#   cost 150 bytes a game. Rows written before keep their form until the record is written.
#
# The stats/details step replays each record that has them (a few ms each, batches of 500
# games, each its own transaction: an interrupted run keeps what it did); the platform reads
# both forms meanwhile. Reversible: going back writes the options, stats, details and seat
# rows again.

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

from arena.games.analytics import derive_missing_seats
from arena.games.results import drop_replayable, store_replayed

BATCH = 20_000


def _batches(model, using):
    ids = model.objects.using(using).order_by("pk").values_list("pk", flat=True)
    last = 0
    while chunk := list(ids.filter(pk__gt=last)[:BATCH]):
        last = chunk[-1]
        yield chunk[0], last


def _each_batch_of_games(apps, schema_editor, change):
    """``change(games, own)`` for each batch of games, ``own`` their tournament's options."""
    game = apps.get_model("games", "Game")
    tournament = apps.get_model("tournaments", "Tournament")
    alias = schema_editor.connection.alias
    own = Subquery(tournament.objects.filter(pk=OuterRef("tournament_id")).values("options")[:1])
    for first, last in _batches(game, alias):
        change(game.objects.using(alias).filter(pk__gte=first, pk__lte=last), own)


def options_to_tournaments(apps, schema_editor):
    _each_batch_of_games(
        apps,
        schema_editor,
        lambda games, own: games.annotate(own=own)
        .filter(options=models.F("own"))
        .update(options=None),
    )


def options_from_tournaments(apps, schema_editor):
    _each_batch_of_games(
        apps,
        schema_editor,
        lambda games, own: games.filter(options__isnull=True).update(options=own),
    )


def drop_results(apps, schema_editor):
    alias = schema_editor.connection.alias
    game, seat = apps.get_model("games", "Game"), apps.get_model("games", "GameSeat")
    drop_replayable(game, seat, using=alias)


def store_results(apps, schema_editor):
    alias = schema_editor.connection.alias
    game, seat = apps.get_model("games", "Game"), apps.get_model("games", "GameSeat")
    store_replayed(game, seat, using=alias)


def _record_storage(storage: str):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE games_game ALTER COLUMN record SET STORAGE {storage}")

    return apply


def delete_folded_seats(apps, schema_editor):
    seat = apps.get_model("games", "AnalyticsSeat")
    pending = apps.get_model("games", "AnalyticsPending")
    alias = schema_editor.connection.alias
    seat.objects.using(alias).exclude(
        game_id__in=pending.objects.using(alias).values("game_id")
    ).delete()  # one DELETE: nothing refers to a seat row


def write_seats_again(apps, schema_editor):
    derive_missing_seats(pending_only=False)


class Migration(migrations.Migration):
    atomic = False  # a transaction per batch

    dependencies = [
        ("games", "0017_worker_sandbox"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="options",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.RunPython(options_to_tournaments, options_from_tournaments, elidable=True),
        migrations.RunPython(drop_results, store_results, elidable=True),
        migrations.RunPython(delete_folded_seats, write_seats_again, elidable=True),
        migrations.RunPython(_record_storage("MAIN"), _record_storage("EXTENDED")),
    ]
