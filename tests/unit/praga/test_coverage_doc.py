"""The rules coverage document cites only tests that exist."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_every_test_cited_in_the_rules_coverage_doc_exists():
    doc = (ROOT / "docs" / "rules" / "praga.md").read_text()
    cited = set(re.findall(r"`(test_[a-z0-9_]+)(?:…)?`", doc))
    defined = set()
    for path in (ROOT / "tests" / "unit" / "praga").glob("test_*.py"):
        defined |= set(re.findall(r"def (test_[a-z0-9_]+)", path.read_text()))
    missing = sorted(n for n in cited if not any(t.startswith(n) for t in defined))
    assert len(cited) > 60
    assert missing == []
