"""`python -m workers.play --position`: a bot asked again at one decision of a recorded game,
in the sandbox, sees the observation its seat had there; `--continue` plays the game on."""

import json

import pytest

import engine
from engine.core.positions import position_in_record, seat_view_of
from workers.limits import Limits
from workers.play import main
from workers.positions import ask_bot

pytestmark = pytest.mark.sandbox

TELLER = """import json, sys
json.loads(sys.stdin.readline())
print(json.dumps({"type": "ready"}), flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "decide":
        break
    print("OBSERVATION " + json.dumps(message["observation"]), file=sys.stderr, flush=True)
    print(json.dumps({"type": "act", "id": message["id"], "choice": 0}), flush=True)
"""


@pytest.fixture
def recorded(tmp_path):
    """A finished 3-player Citadels game, a position of it at decision 25, and a bot that
    answers the first option and writes each observation it gets to stderr."""
    title = engine.title("citadels")
    game = title.new_game(3, seed=6)
    bots = [engine.make_bot("citadels", "builder", i) for i in range(3)]
    while not game.is_over():
        d = game.decision()
        game.apply(bots[d.seat].choose(game.observation(d.seat), d.kind, d.options))
    position = position_in_record(title, game.record(), 25)
    (tmp_path / "position.json").write_text(json.dumps(position))
    bot = tmp_path / "teller"
    bot.mkdir()
    (bot / "bot.py").write_text(TELLER)
    for item in (tmp_path, bot, bot / "bot.py", tmp_path / "position.json"):
        item.chmod(0o755 if item.is_dir() else 0o644)
    return title, position, tmp_path


def test_the_bot_gets_the_observation_its_seat_had_and_its_answer_is_printed_beside_the_games(
    recorded, capsys
):
    title, position, folder = recorded
    argv = ["--position", str(folder / "position.json"), "--bot", str(folder / "teller")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    seat = position["to_move"]["seat"]
    assert f"decision 25, seat {seat} to move" in out
    first = position["to_move"]["options"][0]
    assert f"your bot:  {json.dumps(first)}" in out
    assert f"the game:  {json.dumps(position['played'])}" in out
    # what the original seat saw at decision 25, rebuilt from the record, is what the bot got
    asked = ask_bot(title, position, str(folder / "teller"), vs=["random"], limits=Limits(),
                    sandbox="bwrap")  # fmt: skip
    seen = json.loads(asked.stderr.split("OBSERVATION ", 1)[1].splitlines()[0])
    assert seen == title.load_position(position).observation(seat)


def test_continue_plays_the_game_on_to_its_end(recorded, capsys):
    _, _, folder = recorded
    argv = ["--position", str(folder / "position.json"), "--bot", str(folder / "teller"),
            "--continue", "--vs", "builder"]  # fmt: skip
    assert main(argv) == 0
    assert "played on: scores [" in capsys.readouterr().out


def test_a_position_of_another_title_is_refused_in_one_line(recorded, capsys):
    _, position, folder = recorded
    argv = ["--position", str(folder / "position.json"), "--bot", str(folder / "teller")]
    assert main([*argv, "--title", "praga"]) == 2
    assert "--title praga but the position is of citadels" in capsys.readouterr().err
    (folder / "old.json").write_text(json.dumps({**position, "version": 0}))
    assert main(["--position", str(folder / "old.json"), "--bot", str(folder / "teller")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("workers.play: error: position format version 0") and err.count("\n") == 1


def test_a_seats_view_asks_the_bot_what_it_was_sent_and_cannot_be_played_on(recorded, capsys):
    title, position, folder = recorded
    state = title.load_position(position)
    seat = position["to_move"]["seat"]
    (folder / "view.json").write_text(json.dumps(seat_view_of(state, seat)))
    (folder / "other.json").write_text(json.dumps(seat_view_of(state, (seat + 1) % 3)))
    argv = ["--position", str(folder / "view.json"), "--bot", str(folder / "teller")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"decision 25, seat {seat} to move" in out
    assert f"your bot:  {json.dumps(position['to_move']['options'][0])}" in out
    asked = ask_bot(title, json.loads((folder / "view.json").read_text()), str(folder / "teller"),
                    vs=["random"], limits=Limits(), sandbox="bwrap")  # fmt: skip
    seen = json.loads(asked.stderr.split("OBSERVATION ", 1)[1].splitlines()[0])
    assert seen == json.loads(json.dumps(state.observation(seat)))

    assert main([*argv, "--continue"]) == 2
    assert "--continue needs the whole position" in capsys.readouterr().err
    other = ["--position", str(folder / "other.json"), "--bot", str(folder / "teller")]
    assert main(other) == 2
    assert "asked nothing there" in capsys.readouterr().err
