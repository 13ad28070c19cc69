"""Every starter kit, in every language, plays legal games through ``workers.play`` in the real
bubblewrap sandbox."""

import json

import pytest

import engine
from workers import play

from .conftest import KIT_NAMES, kit_manifest

pytestmark = pytest.mark.slow

OPPONENTS = {"citadels": "random,builder,aggressor", "praga": "random,random,builder"}


@pytest.mark.parametrize("kit", KIT_NAMES)
def test_the_kit_plays_clean_legal_games_in_the_sandbox(built_kit, tmp_path, kit, capsys):
    title_id = kit_manifest(kit)["title"]
    out = tmp_path / "out"
    argv = [
        "--title", title_id, "--bot", str(built_kit(kit)), "--vs", OPPONENTS[title_id],
        "--games", "2", "--seed", "7", "--out", str(out), "--no-progress",
        "--decision-ms", "3000", "--bank-ms", "60000",
    ]  # fmt: skip
    assert play.main(argv) == 0, capsys.readouterr().err
    title = engine.title(title_id)
    for number, seat in ((1, 0), (2, 1)):  # the runner moves your bot one seat per game
        game = json.loads((out / f"game-{number:04d}.json").read_text())
        assert game["sandbox"] == "bwrap"
        assert game["names"][seat] == kit_manifest(kit)["name"]
        assert game["faults"][seat] == [], game["stderr"][seat]
        assert game["seat_status"][seat] == "ok"
        # Every choice the kit made was legal: the record replays to the same result.
        assert title.replay(game["record"]).result()["scores"] == game["result"]["scores"]
        assert "game over, my rank:" in game["stderr"][seat]
        # Beside the record, the game's offline viewer with the record embedded.
        viewer = (out / f"game-{number:04d}.html").read_text()
        assert viewer.startswith("<!doctype html>") and "id='viewer-data'" in viewer
