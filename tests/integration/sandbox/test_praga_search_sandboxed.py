"""Praga's search bot plays as an uploaded bot would: a process in the real sandbox that sees
only the protocol's messages (tests/fixtures/bots/praga_search)."""

import json
import shutil

import pytest

import engine
from workers.play import main

from .conftest import BOTS, REPO

pytestmark = pytest.mark.sandbox


def test_the_search_bot_plays_a_legal_game_in_the_sandbox(tmp_path, capsys):
    bot = tmp_path / "praga_search"
    shutil.copytree(BOTS / "praga_search", bot)
    shutil.copytree(REPO / "engine", bot / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "out"
    code = main(
        [
            "--title", "praga", "--bot", str(bot), "--vs", "climber", "--games", "1",
            "--seed", "3", "--out", str(out), "--decision-ms", "5000", "--bank-ms", "60000",
            "--no-progress",
        ]
    )  # fmt: skip
    assert code == 0
    record = json.loads((out / "game-0001.json").read_text())
    assert record["faults"] == [[], []]  # per seat: no timeout, no illegal choice, no crash
    assert record["seats"][0]["kind"] == "process"  # the search bot ran as a bot process
    assert engine.title("praga").replay(record["record"]).is_over()  # a whole legal game
