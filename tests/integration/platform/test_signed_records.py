"""Records the platform serves carry its Ed25519 signature, its public key is on the site, and
`python -m engine replay --verify` checks a downloaded record as this platform's (issue 25);
stored records convert between formats 2 and 3 as migration 0013 does."""

import json

import pytest
from django.core.management import call_command

import engine
from arena.games.models import Game
from arena.games.record_formats import convert_stored
from engine.cli import main as engine_cli
from engine.core import records, signatures
from tests.integration.platform.test_verify_records import listed, stored_games  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_downloaded_record_verifies_as_the_platforms(stored_games, client, tmp_path, capsys):  # noqa: F811
    game = stored_games[0]
    key = client.get("/api/v1/record-key/").json()
    assert key["algorithm"] == "ed25519" and key["development_key"] is True
    assert key["public_key"] in key["verify"]
    download = client.get(f"/games/{game.pk}/replay.json")
    assert download.status_code == 200
    path = tmp_path / "game.json"
    path.write_bytes(download.content)
    assert engine_cli(["replay", "--verify", "--public-key", key["public_key"], str(path)]) == 0
    assert "1 replay as stored, 0 do not\nsigned by the key given" in capsys.readouterr().out

    served = client.get(f"/api/v1/games/{game.pk}/replay/").json()
    assert served == json.loads(download.content)
    assert {k: v for k, v in served.items() if k != "signature"} == game.record  # stored unsigned

    served["options"] = {**served["options"]}  # an edit a new seal cannot hide from the key
    served["engine_version"] = "9.9.9"
    served["final"] = records.seal({k: v for k, v in served.items() if k != "final"}, None)
    path.write_text(json.dumps(served))
    assert engine_cli(["replay", "--verify", "--public-key", key["public_key"], str(path)]) == 1


def test_the_signing_key_comes_from_the_settings(stored_games, client, settings):  # noqa: F811
    settings.ARENA_RECORD_SIGNING_KEY = signatures.new_private_key_text()
    key = client.get("/api/v1/record-key/").json()
    assert key["development_key"] is False
    served = client.get(f"/api/v1/games/{stored_games[0].pk}/replay/").json()
    assert signatures.check(served, key["public_key"]) == key["public_key"]


def test_stored_records_convert_to_format_three_and_back(stored_games, capsys):  # noqa: F811
    packed = {g.pk: g.record for g in stored_games}
    older = {g.pk: listed(g) for g in stored_games}
    for game in stored_games:
        game.record = older[game.pk]
        game.save(update_fields=["record"])
    broken = stored_games[1]
    broken.record = dict(older[broken.pk])
    broken.record["actions"] = broken.record["actions"][:-1]  # no evidence: left as it is
    broken.save(update_fields=["record"])

    assert convert_stored(Game, 3) == (1, 1)
    first = Game.objects.get(pk=stored_games[0].pk)
    assert first.record == packed[first.pk]
    assert Game.objects.get(pk=broken.pk).record == broken.record
    assert convert_stored(Game, 2) == (1, 0)
    assert Game.objects.get(pk=first.pk).record == older[first.pk]


def test_a_record_of_another_rules_version_is_left_in_its_format(stored_games):  # noqa: F811
    game = stored_games[0]
    title = engine.title(game.record["title"])
    result = title.replay(game.record).result()
    record = {**listed(game), "rules_version": "0-older"}
    record["final"] = records.seal({k: v for k, v in record.items() if k != "final"}, result)
    game.record = record
    game.save(update_fields=["record"])
    assert convert_stored(Game, 3) == (0, 1)
    assert Game.objects.get(pk=game.pk).record == record
    assert title.replay(record, allow_version=True).actions() == record["actions"]
    call_command("verify_records", "--allow-version")
