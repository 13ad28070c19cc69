"""`python -m engine`: simulate, replay, titles; bad arguments get one line and exit 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.cli import Plan, main
from engine.core import records, signatures
from tests.support.registry import registered
from tests.support.toy_title import TOY

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def toy():
    with registered(TOY):
        yield TOY


def test_simulate_prints_win_rates_by_bot_and_seat_with_intervals(toy, capsys):
    assert (
        main(["simulate", "toy", "--bots", "random,random,random", "--games", "30", "--quiet"]) == 0
    )
    out = capsys.readouterr().out
    assert "Toy: 30 games, 3 players" in out
    assert "95% interval" in out
    seat_rows = [line for line in out.splitlines() if line[:1] in "123" and "%" in line]
    assert [row.split()[0] for row in seat_rows] == ["1", "2", "3"]  # people count seats from 1
    assert all(row.split()[1] == "30" for row in seat_rows)


def test_simulate_writes_records_that_replay_cleanly(toy, tmp_path, capsys):
    out_file = tmp_path / "games.jsonl"
    assert (
        main(
            [
                "simulate",
                "toy",
                "--bots",
                "random,random",
                "--games",
                "12",
                "--seed",
                "4",
                "--out",
                str(out_file),
                "--quiet",
            ]
        )
        == 0
    )
    lines = out_file.read_text().splitlines()
    assert len(lines) == 12
    assert all(json.loads(line)["record"]["title"] == "toy" for line in lines)
    assert main(["replay", str(out_file)]) == 0
    assert "12 records read: 12 replay as stored, 0 do not" in capsys.readouterr().out


def _games(tmp_path, count):
    out_file = tmp_path / "games.jsonl"
    main(["simulate", "toy", "--bots", "random,random", "--games", str(count)]
         + ["--out", str(out_file), "--quiet"])  # fmt: skip
    return out_file, [json.loads(line) for line in out_file.read_text().splitlines()]


def test_replay_reports_each_kind_of_bad_record_in_a_sentence(toy, tmp_path, capsys):
    out_file, games = _games(tmp_path, 6)
    games[1]["result"]["scores"][0] += 100
    games[2]["record"] = records.expand(toy, games[2]["record"])  # as lists (format 2)
    games[2]["record"]["actions"].pop()
    games[3]["record"]["rules_version"] = "0"
    games[4]["record"]["chance"]["count"] -= 1
    out_file.write_text("\n".join(json.dumps(g) for g in games) + "\nnot json\n")
    assert main(["replay", str(out_file)]) == 1
    out = capsys.readouterr().out
    assert "line 1:" not in out and "line 6:" not in out
    assert "line 2: the result written beside the record differs from its replay" in out
    assert "line 3: the record is incomplete: it holds" in out
    assert "line 4: the record is of toy rules version '0', but this engine plays" in out
    assert "--allow-version" in out
    assert "line 5: the record was changed after it was written" in out
    assert "line 7: cannot parse JSON (Expecting value at column 1)" in out
    assert "6 records read: 2 replay as stored, 4 do not; 1 lines could not be parsed" in out


def test_replay_reads_one_indented_record_and_reports_a_parse_error_at_its_line(
    toy, tmp_path, capsys
):
    _, games = _games(tmp_path, 1)
    path = tmp_path / "game-1-replay.json"
    path.write_text(json.dumps(games[0]["record"], indent=1, sort_keys=True))
    assert main(["replay", str(path)]) == 0
    assert "1 records read: 1 replay as stored, 0 do not" in capsys.readouterr().out
    lines = path.read_text().splitlines()
    assert lines[4] == " },"
    lines[4] = " }"  # a missing comma on line 5
    path.write_text("\n".join(lines))
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "line 6: cannot parse JSON (Expecting ',' delimiter" in out
    assert "1 lines could not be parsed" in out and "mismatch" not in out


def test_replay_verify_checks_the_signature_of_each_record(toy, tmp_path, capsys):
    key = signatures.private_key(signatures.new_private_key_text())
    public = signatures.public_key_text(key)
    _, games = _games(tmp_path, 1)
    path = tmp_path / "game-1-replay.json"
    path.write_text(json.dumps(signatures.sign(games[0]["record"], key)))
    assert main(["replay", "--verify", "--public-key", public, str(path)]) == 0
    assert "1 replay as stored, 0 do not\nsigned by the key given" in capsys.readouterr().out
    assert main(["replay", "--verify", str(path)]) == 0
    assert f"signed by {public} (not checked against a key you trust" in capsys.readouterr().out

    other = signatures.public_key_text(signatures.private_key(signatures.new_private_key_text()))
    assert main(["replay", "--verify", f"--public-key={other}", str(path)]) == 1
    assert f"line 1: the record is signed by key {public}, not by the key given" in (
        capsys.readouterr().out
    )
    signed = json.loads(path.read_text())
    signed["seed"] += 1
    resealed = records.seal({k: v for k, v in signed.items() if k != "final"}, games[0]["result"])
    path.write_text(json.dumps({**signed, "final": resealed}))  # resealed, not re-signed
    assert main(["replay", "--verify", f"--public-key={public}", str(path)]) == 1
    assert "signature does not match its content" in capsys.readouterr().out
    path.write_text(json.dumps(games[0]["record"]))
    assert main(["replay", "--verify", str(path)]) == 1
    assert "the record carries no signature" in capsys.readouterr().out
    assert main(["replay", str(path)]) == 0  # without --verify a seal is enough


def test_replay_takes_a_public_key_that_starts_with_a_dash(toy, tmp_path, capsys):
    # A key's base64url text starts with "-" one time in 64: the documented
    # `--public-key KEY` must still take it as the key, not as another option.
    while not (public := signatures.public_key_text(key := _new_key())).startswith("-"):
        pass
    _, games = _games(tmp_path, 1)
    path = tmp_path / "game-1-replay.json"
    path.write_text(json.dumps(signatures.sign(games[0]["record"], key)))
    assert main(["replay", "--verify", "--public-key", public, str(path)]) == 0
    assert "signed by the key given" in capsys.readouterr().out
    assert main(["replay", "--verify", f"--public-key={public}", str(path)]) == 0


def _new_key():
    return signatures.private_key(signatures.new_private_key_text())


def test_replay_refuses_a_malformed_public_key_as_a_usage_error(toy, tmp_path, capsys):
    _, games = _games(tmp_path, 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(games[0]["record"]))
    assert main(["replay", "--verify", "--public-key", "abcd", str(path)]) == 2
    assert "--public-key: a public key is 32 bytes in base64url, not 3" in capsys.readouterr().err


def test_replay_allow_version_replays_a_record_of_other_rules(toy, tmp_path, capsys):
    out_file, games = _games(tmp_path, 1)
    record = {k: v for k, v in games[0]["record"].items() if k != "final"}
    record["rules_version"] = "0"
    record["final"] = records.seal(record, games[0]["result"])  # as an older engine wrote it
    out_file.write_text(json.dumps(record) + "\n")
    assert main(["replay", str(out_file)]) == 1
    assert main(["replay", "--allow-version", str(out_file)]) == 0
    assert "1 replay as stored" in capsys.readouterr().out


def test_simulate_is_reproducible_from_its_seed(toy, tmp_path):
    files = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        main(
            [
                "simulate",
                "toy",
                "--bots",
                "random,random",
                "--games",
                "5",
                "--seed",
                "9",
                "--out",
                str(path),
                "--quiet",
            ]
        )
        files.append(path.read_text())
    assert files[0] == files[1]


def test_rule_options_reach_every_game(toy, tmp_path):
    path = tmp_path / "g.jsonl"
    main(
        [
            "simulate",
            "toy",
            "--bots",
            "random,random,random",
            "--games",
            "3",
            "--out",
            str(path),
            "--quiet",
            "--option",
            "max_cards=2",
        ]
    )
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(g["record"]["options"]["max_cards"] == 2 for g in games)


def test_seats_rotate_so_every_bot_visits_every_seat_unless_fixed():
    rotating = Plan("toy", ("a", "b", "c"), {}, 1, rotate=True)
    assert [rotating.seating(i) for i in range(3)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    fixed = Plan("toy", ("a", "b", "c"), {}, 1, rotate=False)
    assert fixed.seating(5) == [0, 1, 2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "nope", "--bots", "random"], "unknown title 'nope'"),
        (["simulate", "toy", "--bots", "random,random", "--players", "3"], "give one per seat"),
        (["simulate", "toy", "--bots", "random,wizard"], "unknown bot 'wizard'"),
        (["simulate", "toy", "--bots", "random,random", "--games", "0"], "must be at least 1"),
        (
            ["simulate", "toy", "--bots", "random,random", "--option", "speed=3"],
            "unknown option 'speed'",
        ),
        (["simulate", "toy", "--bots", "random,random", "--option", "oops"], "NAME=VALUE"),
        (
            ["simulate", "toy", "--bots", "random,random,random,random,random"],
            "2 to 4 players, not 5",
        ),
        (["replay", "/nonexistent/file.jsonl"], "cannot read"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(toy, capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message in err


def test_titles_lists_bots_and_options(toy, capsys):
    assert main(["titles"]) == 0
    out = capsys.readouterr().out
    assert "toy: Toy, 2-4 players" in out
    assert "--option max_cards=" in out


def test_the_module_runs_as_a_command():
    out = subprocess.run(
        [sys.executable, "-m", "engine", "titles"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0
    assert all(f"{t}:" in out.stdout for t in engine.titles())
