"""Migrations games 0023_seat_natural_key, 0024_records_without_what_rows_say and ratings
0005_title_point_natural_key on stored games: a row keeps only what nothing else says (the
seats and title points keyed by their natural pairs, the record without what its row
says), every read gets what it got before, and going back and forward again leaves the
same values."""

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.db import connection

from arena.games.models import SAID, Game, GameSeat
from arena.games.presentation import served_record
from arena.games.results import replayed_result
from arena.ratings.models import TitleRatingChange
from tests.support.migrations import around, migrate, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)


def _stored_records() -> dict[int, dict]:
    """Each finished game's record as its row holds it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, record::text FROM games_game WHERE status = 'finished'")
        return {game: json.loads(text) for game, text in cursor.fetchall()}


def _reads():
    games = Game.objects.filter(status="finished").order_by("pk")
    seats = GameSeat.objects.order_by("game_id", "seat")
    points = TitleRatingChange.objects.order_by("at", "game", "title_rating")
    return (
        [(g.pk, g.record, served_record(g, list(g.seats.all()), AnonymousUser())) for g in games],
        list(seats.values_list("game_id", "seat", "bot_version_id", "rank")),
        list(points.values_list("title_rating_id", "game_id", "mu", "sigma")),
    )


def test_rows_keep_what_nothing_else_says_and_read_whole(folded_citadels, capsys):
    stored = _stored_records()
    assert len(stored) == 3
    for game in Game.objects.filter(status="finished"):
        assert not SAID & stored[game.pk].keys()
        said = {"options": folded_citadels.options, "title": "citadels", "seed": game.seed}
        assert game.record == {
            **stored[game.pk], **said, "engine_version": game.engine_version,
            "rules_version": game.rules_version,
        }  # fmt: skip
        assert replayed_result(game.record)["stats"]
        assert game.seats.get(seat=1).pk == (game.pk, 1)
    call_command("verify_records")
    assert "3 records checked, 0 do not replay as stored" in capsys.readouterr().out
    # A record of other options than its game's keeps them.
    game = Game.objects.filter(status="finished").first()
    game.record = {**game.record, "options": {"other": 1}}
    game.save(update_fields=["record"])
    assert _stored_records()[game.pk]["options"] == {"other": 1}


def test_going_back_writes_ids_and_options_again_and_forward_leaves_the_same_reads(
    folded_citadels,
):
    reads = _reads()
    migrate(around("games", "_seat_natural_key")[0])
    old = migrate(around("ratings", "_title_point_natural_key")[0])
    assert all(r.keys() >= SAID for r in _stored_records().values())
    seats = old.get_model("games", "GameSeat").objects.order_by("id")
    assert list(seats.values_list("game_id", "seat", "bot_version_id", "rank")) == reads[1]
    points = old.get_model("ratings", "TitleRatingChange").objects.order_by("id")
    assert list(points.values_list("title_rating_id", "game_id", "mu", "sigma")) == reads[2]
    migrate_to_latest()
    assert not any(SAID & r.keys() for r in _stored_records().values())
    assert _reads() == reads
