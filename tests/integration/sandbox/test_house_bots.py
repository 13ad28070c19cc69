"""A house search bot runs sandboxed as an uploaded bot would: the engine's package and a
protocol loop in a bot folder, through ``workers.play`` in the real bubblewrap sandbox."""

import json
import shutil

import pytest

import engine
from engine.citadels.components import DARK_CITY_CHARACTERS, DARK_CITY_DISTRICTS
from workers import play

from .conftest import REPO

pytestmark = pytest.mark.sandbox
HOUSE_BOT = REPO / "tests" / "fixtures" / "house_bot" / "bot.py"


@pytest.fixture
def house_bot(private_dir):
    """``house_bot(name, **config)``: a bot folder with a copy of ``engine/`` and the fixture's
    protocol loop, readable by the sandbox user."""

    def make(name: str, **config) -> str:
        folder = private_dir / f"house-{name}"
        shutil.copytree(
            REPO / "engine", folder / "engine", ignore=shutil.ignore_patterns("__pycache__")
        )
        shutil.copy(HOUSE_BOT, folder / "bot.py")
        (folder / "house.json").write_text(json.dumps({"bot": name, **config}))
        for item in [private_dir, folder, *folder.rglob("*")]:
            item.chmod(0o755 if item.is_dir() else 0o644)
        return str(folder)

    return make


def test_the_citadels_search_bot_plays_a_clean_legal_game_in_the_sandbox(
    house_bot, tmp_path, capsys
):
    out = tmp_path / "out"
    argv = [
        "--title", "citadels", "--bot", house_bot("search", iterations=6),
        "--vs", "builder,builder,builder", "--games", "1", "--seed", "3", "--out", str(out),
        "--option", "dark_city_characters=" + ",".join(DARK_CITY_CHARACTERS),
        "--option", "dark_city_districts=" + ",".join(DARK_CITY_DISTRICTS),
        "--no-progress", "--decision-ms", "3000", "--bank-ms", "60000",
    ]  # fmt: skip
    assert play.main(argv) == 0, capsys.readouterr().err
    game = json.loads((out / "game-0001.json").read_text())
    assert game["sandbox"] == "bwrap"
    assert game["faults"][0] == [], game["stderr"][0]
    assert game["seat_status"][0] == "ok"
    title = engine.title("citadels")
    assert title.replay(game["record"]).result()["scores"] == game["result"]["scores"]
    searches = int(game["stderr"][0].rsplit("searches: ", 1)[1].split()[0])
    assert searches > 0
