"""`python -m workers.play`: the local runner, on the toy title in the real sandbox."""

import json
import os
import shutil
import signal
import subprocess
import sys

import pytest

from tests.support.registered import registered
from tests.support.toy_title import TOY
from workers.play import main

from .conftest import (
    BOTS,
    REPO,
    bot_interpreters,
    bot_processes,
    players_for,
    real_titles,
    wait_for_bots,
    wait_until,
)

pytestmark = pytest.mark.sandbox


@pytest.fixture
def toy():
    with registered(TOY):
        yield


def test_it_plays_games_rotating_seats_and_writes_replays_and_stderr(toy, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "--title", "toy", "--bot", str(BOTS / "stderr_flood.py"), "--vs", "random,random",
            "--games", "3", "--seed", "5", "--out", str(out), "--decision-ms", "500",
        ]
    )  # fmt: skip
    assert code == 0
    table = capsys.readouterr().out
    assert table.splitlines()[0].split()[:4] == ["bot", "games", "wins", "win"]
    assert table.splitlines()[2].split()[:2] == ["you", "3"]
    assert "95% interval" in table.splitlines()[0]
    assert table.splitlines()[3].split()[:2] == ["random", "6"]
    games = [json.loads((out / f"game-000{n}.json").read_text()) for n in (1, 2, 3)]
    assert [g["seed"] for g in games] == [5, 6, 7]
    assert [g["seats"].index({"kind": "process", "name": "you", "path": str(BOTS / "stderr_flood.py")}) for g in games] == [0, 1, 2]  # fmt: skip
    assert "stderr_flood: the last line" in (out / "game-0002-seat1.stderr.txt").read_text()
    assert games[0]["limits"]["decision_ms"] == 500


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--title", "chess", "--bot", "x", "--vs", "random"], "unknown title 'chess'"),
        (["--title", "toy", "--bot", "nowhere.py", "--vs", "random"], "bot path 'nowhere.py' does not exist"),
        (["--title", "toy", "--bot", "BOT", "--vs", "greedy"], "unknown built-in bot 'greedy' for toy"),
        (["--title", "toy", "--bot", "BOT", "--vs", "random,random,random,random"], "Toy needs 2 to 4 players; --bot and --vs give 5"),
        (["--title", "toy", "--bot", "BOT", "--vs", "random", "--games", "0"], "--games must be at least 1"),
        (["--title", "toy", "--bot", "BOT", "--vs", "random", "--option", "max_cards=9"], "option 'max_cards': 9 is not allowed"),
        (["--title", "toy", "--bot", "BOT"], "give --bot and --vs (or --round-robin)"),
        (["--title", "toy", "--round-robin", "BOT,random", "--vs", "random"], "--round-robin names every bot: leave out --bot and --vs"),
        (["--title", "toy", "--round-robin", "random,random"], "--round-robin names each bot once; twice: random"),
        (["--title", "toy", "--round-robin", "BOT,random", "--players", "3"], "--round-robin names 2 bots for 3 seats"),
    ],
)  # fmt: skip
def test_bad_arguments_print_one_line_and_exit_2(toy, capsys, argv, message):
    argv = [a.replace("BOT", str(BOTS / "polite.py")) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("workers.play: error: ")
    assert message in err


def test_a_round_robin_plays_every_group_and_prints_a_leaderboard_as_the_ladders_do(toy, capsys):
    bots = [
        str(BOTS / "polite.py"),
        str(BOTS / "illegal.py"),
        str(BOTS / "stderr_flood.py"),
        "random",
    ]
    argv = ["--title", "toy", "--round-robin", ",".join(bots), "--players", "3", "--games", "8",
            "--decision-ms", "2000", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    board = out[out.index("leaderboard") :].splitlines()
    assert board[1].split("  ")[:2] == [" #", "bot"]
    assert "μ − 3σ" in board[1] and "win rate (95 % interval)" in board[1]
    rows = {line.split()[1]: line.split() for line in board[3:]}
    assert set(rows) == {"polite.py#1", "illegal.py#2", "stderr_flood.py#3", "random"}
    # 8 games of 3 seats over 4 bots: each of the 4 groups twice, every bot in 6 games
    assert {row[5] for row in rows.values()} == {"6"}
    assert rows["illegal.py#2"][-2:] == ["100", "%"]  # it faults every game
    assert rows["polite.py#1"][-2:] == ["0", "%"]
    ordinals = [float(line.split()[2]) for line in board[3:]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_no_sandbox_runs_but_warns(toy, capsys):
    argv = ["--title", "toy", "--bot", str(BOTS / "polite.py"), "--vs", "random", "--games", "1"]
    assert main([*argv, "--no-sandbox"]) == 0
    assert "WITHOUT isolation" in capsys.readouterr().err


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _block_sigint() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


# As a terminal starts it, and as a shell's background job (SIGINT ignored) or a parent
# that blocked SIGINT do: the runner inherits either, and Ctrl-C must still stop it.
@pytest.mark.parametrize("started", [None, _ignore_sigint, _block_sigint])
def test_ctrl_c_stops_the_runner_and_every_bot(private_dir, started):
    marker = f"interrupted_{os.getpid()}"
    bot = private_dir / f"{marker}.py"
    shutil.copy(BOTS / "silent.py", bot)
    title = real_titles()[0] if real_titles() else pytest.fail("needs a real title")
    runner = subprocess.Popen(
        # faulthandler: where the runner is, should it not stop
        [sys.executable, "-X", "faulthandler", "-m", "workers.play", "--title", title,
         "--bot", str(bot), "--vs", ",".join([str(bot)] + ["random"] * (players_for(title) - 2)),
         "--decision-ms", "60000", "--games", "1"],
        cwd=REPO, start_new_session=True, stderr=subprocess.PIPE, text=True,
        preexec_fn=started,
    )  # fmt: skip
    wait_for_bots(f"/bot/{marker}.py", 2)
    assert len(bot_interpreters(f"/bot/{marker}.py")) == 2  # both bots are playing
    os.killpg(runner.pid, signal.SIGINT)  # what a terminal does on Ctrl-C
    try:
        _, stderr = runner.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        runner.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack
        pytest.fail("the runner did not stop:\n" + runner.communicate()[1])
    assert runner.returncode == 130
    assert "workers.play: interrupted" in stderr
    assert wait_until(lambda: bot_processes(f"/bot/{marker}.py") == [], 10)
