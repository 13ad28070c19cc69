"""No engine module grows past 600 lines: a rules file that long holds more than one topic
(issue 27 split Citadels' powers by rank and Praga's data script by file)."""

from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "engine"


def test_no_engine_module_is_over_600_lines():
    long = {
        str(path.relative_to(ENGINE)): n
        for path in ENGINE.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > 600
    }
    assert long == {}
