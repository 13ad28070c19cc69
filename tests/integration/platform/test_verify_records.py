"""`manage.py verify_records`: stored games replay to what was stored, and altered ones say so,
in the packed record format (3) and in format 2, which games stored before it keep."""

import pytest
from django.core.management import CommandError, call_command

import engine
from arena.games import services
from arena.games.models import Game
from arena.games.tasks import run_job
from arena.tournaments import services as tournaments
from engine.core import records
from tests.factories import make_builtin, make_tournament, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored_games():
    """Two finished Citadels games between built-in bots, stored as a worker stores them."""
    alice = make_user("alice")
    versions = [make_builtin(alice, title="citadels", builtin="builder") for _ in range(3)]
    tournament = make_tournament(alice, versions, title="citadels", seats=3, rounds=1)
    tournaments.start_tournament(tournament.pk)
    games = list(Game.objects.filter(tournament=tournament).order_by("number")[:2])
    for game in games:
        job = services.claim_game(game.pk, worker="w")
        played = run_job(job)
        assert services.store_game_result(job, played) is True
    return [Game.objects.get(pk=g.pk) for g in games]


def listed(game):
    """The game's record in format 2 (lists), as games stored before format 3 hold it."""
    return records.expand(engine.title(game.record["title"]), game.record)


def test_stored_records_replay_as_stored_in_either_format(stored_games, capsys):
    assert {g.record["format"] for g in stored_games} == {3}
    call_command("verify_records")
    assert "2 records checked, 0 do not replay as stored" in capsys.readouterr().out
    older = stored_games[0]
    older.record = listed(older)
    older.save(update_fields=["record"])
    call_command("verify_records")
    assert "2 records checked, 0 do not replay as stored" in capsys.readouterr().out


def test_a_record_with_its_seed_changed_is_reported(stored_games, capsys):
    game = stored_games[0]
    game.record["seed"] += 1
    game.save(update_fields=["record"])
    with pytest.raises(CommandError, match="1 of 2 records do not replay as stored"):
        call_command("verify_records")
    report = capsys.readouterr().err
    assert f"game {game.pk} " in report and "changed after it was written: its seed" in report


def test_a_record_cut_short_or_of_another_rules_version_is_reported(stored_games, capsys):
    cut, old = stored_games
    cut.record = listed(cut)
    cut.record["actions"] = cut.record["actions"][:-1]
    cut.save(update_fields=["record"])
    old.record["rules_version"] = "0"
    old.save(update_fields=["record"])
    with pytest.raises(CommandError, match="2 of 2 records do not replay as stored"):
        call_command("verify_records")
    report = capsys.readouterr().err
    assert f"game {cut.pk} " in report and f"game {old.pk} " in report
    assert "missing at the end" in report
    assert "rules version" in report


def test_a_record_whose_last_choice_was_changed_to_another_legal_one_is_reported(
    stored_games, capsys
):
    game = stored_games[0]
    record = game.record = listed(game)
    state = engine.title(record["title"]).new_game(
        players=record["players"], options=record["options"], seed=record["seed"]
    )
    open_choices = []  # (index, another legal option) wherever there was a choice
    for index, action in enumerate(record["actions"]):
        options = state.decision().options
        if len(options) > 1:
            open_choices.append((index, next(o for o in options if o != action)))
        state.apply(action)
    index, other = open_choices[-1]
    record["actions"][index] = other  # the game stays as long; only one choice differs
    game.save(update_fields=["record"])
    with pytest.raises(CommandError):
        call_command("verify_records", "--tournament", str(game.tournament_id))
    report = capsys.readouterr().err
    assert f"game {game.pk} " in report and "changed after it was written" in report
