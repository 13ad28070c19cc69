"""A bot's per-decision log (``act``'s ``log``, docs/bot-protocol.md): kept beside the decision
it came with, cut to its bound, and a log that is not text is a protocol fault."""

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.support.registered import registered
from tests.support.toy_title import TOY
from workers.match import SeatSpec, run_match
from workers.protocol import LOG_CHARS, ProtocolError, act_log

from .conftest import LIMITS

pytestmark = pytest.mark.sandbox

REASONER = """import json, sys
json.loads(sys.stdin.readline())
print(json.dumps({"type": "ready"}), flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "decide":
        break
    log = %s
    print(json.dumps({"type": "act", "id": message["id"], "choice": 0, "log": log}), flush=True)
"""


@pytest.fixture
def bot_folder():
    root = Path(tempfile.mkdtemp(prefix="arena-logs-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def reasoner(folder: Path, log_expression: str) -> str:
    path = folder / f"reasoner{len(list(folder.iterdir()))}.py"
    path.write_text(REASONER % log_expression)
    path.chmod(0o644)
    return str(path)


def test_each_answers_log_line_is_kept_by_decision_and_cut_to_its_bound(bot_folder):
    short = reasoner(bot_folder, '"first option, decision %d" % message["id"]')
    long = reasoner(bot_folder, '"x" * 5000')
    with registered(TOY):
        outcome = run_match("toy", [SeatSpec("process", "a", short), SeatSpec("process", "b", long)],
                            seed=3, limits=LIMITS)  # fmt: skip
    mine = outcome.decision_logs[0]
    assert mine and all(text == f"first option, decision {d}" for d, text in mine.items())
    assert {len(text) for text in outcome.decision_logs[1].values()} == {LOG_CHARS}
    assert outcome.faults == [[], []]
    assert json.loads(json.dumps(outcome.to_json()))["decision_logs"][0] == mine


def test_a_log_that_is_not_text_is_a_protocol_fault(bot_folder):
    bad = reasoner(bot_folder, '{"not": "text"}')
    with registered(TOY):
        outcome = run_match("toy", [SeatSpec("process", "a", bad), SeatSpec("builtin", "random")],
                            seed=3, limits=LIMITS)  # fmt: skip
    assert outcome.faults[0][0]["kind"] == "protocol"
    assert '"log" in "act" must be text' in outcome.faults[0][0]["message"]


def test_act_log_reads_the_field():
    assert act_log({"type": "act"}) is None
    assert act_log({"log": "why"}) == "why"
    assert act_log({"log": "y" * (LOG_CHARS + 1)}).endswith("…")
    with pytest.raises(ProtocolError):
        act_log({"log": 3})
