"""`python -m engine view RECORD.json -o game.html`."""

import json

import pytest

from engine.cli import main
from tests.unit.viewer.games import citadels_record

pytestmark = pytest.mark.slow


def test_it_writes_one_html_file_for_a_record(tmp_path, capsys):
    record = tmp_path / "game.json"
    record.write_text(json.dumps(citadels_record()))
    out = tmp_path / "game.html"
    assert main(["view", str(record), "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert out.read_text().startswith("<!doctype html>")


def test_it_reads_a_local_runners_game_file_with_names_and_faults(tmp_path):
    game = {
        "record": citadels_record(),
        "names": ["mine", "b", "c", "d", "e", "f", "g"],
        "faults": [[{"kind": "timeout", "decision": 3, "message": "slow", "applied": {}}]],
        "seat_status": ["faulted"] + ["ok"] * 6,
    }
    source = tmp_path / "game-0001.json"
    source.write_text(json.dumps(game))
    assert main(["view", str(source), "-o", str(tmp_path / "g.html")]) == 0
    html = (tmp_path / "g.html").read_text()
    assert "Seat 1 · mine" in html and "slow" in html


def test_a_line_of_simulate_output_keeps_the_bots_names(tmp_path):
    source = tmp_path / "games.jsonl"
    assert main(["simulate", "citadels", "--bots", "builder,random,random,random",
                 "--games", "1", "--out", str(source)]) == 0  # fmt: skip
    assert main(["view", str(source), "-o", str(tmp_path / "g.html")]) == 0
    html = (tmp_path / "g.html").read_text()
    assert "Seat 1 · builder" in html and "Seat 4 · random" in html  # the first game: unrotated


def test_a_file_that_is_not_json_is_named_with_its_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"title": "citadels",\n oops}\n')
    assert main(["view", str(bad), "-o", str(tmp_path / "x.html")]) == 2
    assert "line 2" in capsys.readouterr().err


def test_a_record_that_does_not_replay_is_refused_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(citadels_record(), actions=[{"kind": "nope"}])))
    assert main(["view", str(bad), "-o", str(tmp_path / "x.html")]) == 2
    assert "cannot replay" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_the_local_runners_outcome_is_written_as_it_is(tmp_path):
    """What workers.play --out will call (MERGE_NOTES-viewer.md): the runner's game dict."""
    from engine.core.view import write_game_html
    from workers.match import SeatSpec, run_match

    seats = [SeatSpec(kind="builtin", name="random") for _ in range(3)]
    outcome = run_match("praga", seats, seed=4, sandbox="none").to_json()
    path = write_game_html(outcome, tmp_path / "game-0001.html")
    assert path.stat().st_size < 1_000_000 and "Praga" in path.read_text()
