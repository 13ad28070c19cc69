"""The pieces `python -m engine` and `python -m workers.play` share."""

import io

import pytest

from engine.core.commandline import Parser, Progress, Tally, UsageError, parse_options, table


def test_a_bad_argument_is_a_usage_error_not_a_usage_dump():
    parser = Parser(prog="x")
    parser.add_argument("--games", type=int, required=True)
    with pytest.raises(UsageError, match="--games"):
        parser.parse_args([])


def test_options_are_name_value_pairs_and_anything_else_is_refused():
    assert parse_options(["a=1", " b = two "]) == {"a": "1", "b": "two"}
    with pytest.raises(UsageError, match="NAME=VALUE, not 'a'"):
        parse_options(["a"])
    with pytest.raises(UsageError):
        parse_options(["=1"])


def test_a_shared_win_counts_one_over_k():
    tally = Tally("bot")
    tally.add({"winners": [0, 1], "scores": [5, 5]}, 0)
    tally.add({"winners": [1], "scores": [3, 7]}, 0)
    assert (tally.games, tally.wins, tally.score, tally.win_rate) == (2, 0.5, 8, 0.25)


def test_a_table_aligns_its_first_column_left_and_the_rest_right():
    lines = table(("bot", "games"), [("random", "3"), ("me", "12")])
    assert lines == ["bot     games", "------  -----", "random      3", "me         12"]


def test_progress_off_a_terminal_prints_a_line_every_twentieth_and_the_last():
    stream = io.StringIO()
    progress = Progress(40, stream=stream)
    for done in range(1, 41):
        progress(done)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 20 and lines[-1].endswith("40/40 games")
