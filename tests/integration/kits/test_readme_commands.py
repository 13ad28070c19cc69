"""Every command the README and the starter kits' READMEs show runs as shown: in a copy of the
checkout's kits, with small game counts, one code block as one shell script."""

import io
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest

from .conftest import KITS, REPO

pytestmark = pytest.mark.slow

DOCUMENTS = ["README.md"] + [str(p.relative_to(REPO)) for p in sorted(KITS.glob("*/README.md"))]
# The build system's own targets: CI runs `make lint` and `make test` itself (this test is part
# of `make test`; `make check` runs a part of both), `make demo` serves until stopped,
# `make bench` is measured on its own and `make wheel`'s command builds the wheel that
# test_local_arena_wheel installs.
MAKE_TARGETS = {"make demo", "make test", "make check", "make lint", "make bench", "make wheel"}
SMALL_GAMES = "--games 2"


def shell_blocks(text: str) -> list[list[str]]:
    """The commands of each fenced block without an info string (json, text... are not
    commands): continuation lines joined, trailing `  # comments` dropped."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current = [] if line.strip() in ("```", "```sh", "```shell") else False
            else:
                if current:
                    blocks.append(current)
                current = None
            continue
        if current is False or current is None or not line.strip():
            continue
        if current and current[-1].endswith("\\"):
            current[-1] = current[-1][:-1].rstrip() + " " + line.strip()
        else:
            current.append(re.sub(r"\s{2,}#.*$", "", line).strip())
    return blocks


def test_the_documents_show_commands_and_only_the_known_make_targets_are_left_to_ci():
    shown = [c for doc in DOCUMENTS for b in checkout_blocks(doc) for c in b]
    assert {c for c in shown if re.fullmatch(r"make \w+", c)} == MAKE_TARGETS
    assert sum("workers.play" in c for c in shown) == len(DOCUMENTS)  # every kit, and the README


def checkout_blocks(document: str) -> list[list[str]]:
    """The blocks run from a checkout: a kit README's first block installs the local arena
    from a running site (test_local_arena_wheel runs it as written)."""
    blocks = shell_blocks((REPO / document).read_text())
    return blocks[1:] if document.startswith("starter-kits/") else blocks


@pytest.fixture
def workspace():
    """A checkout-like folder: the kits copied (never built in the repository), the shared
    virtualenv linked, the project importable."""
    root = Path(tempfile.mkdtemp(prefix="arena-readme-"))
    shutil.copytree(KITS, root / "starter-kits", ignore=shutil.ignore_patterns("bot", "*.zip"))
    (root / ".venv").symlink_to(REPO / ".venv")
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_command_of_the_document_runs_as_shown(document, workspace):
    from arena.bots.artifacts import check_upload

    for block in checkout_blocks(document):
        commands = [re.sub(r"--games \d+", SMALL_GAMES, c) for c in block]
        commands = [c for c in commands if c not in MAKE_TARGETS]
        if not commands:
            continue
        env = dict(os.environ, PYTHONPATH=str(REPO))
        done = subprocess.run(
            ["bash", "-euc", "\n".join(commands)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{document}: {commands}\n{done.stdout}\n{done.stderr}"
        if any("workers.play" in c for c in commands):
            assert _clean(done.stdout), f"{document}: the bot faulted\n{done.stdout}"
    zips = list(workspace.rglob("my-bot.zip"))
    assert zips or document == "README.md"  # each kit's README shows how to zip it
    for made in zips:  # what an upload instruction made: the site takes it as it is
        kit = zipfile.ZipFile(io.BytesIO(made.read_bytes())).namelist()[0].split("/")[0]
        title = kit.split("-")[0]
        assert check_upload("my-bot.zip", made.read_bytes(), title=title).entry
        made.unlink()


def _row(table: str, label: str) -> str:
    return next((line for line in table.splitlines() if line.startswith(label + " ")), "")


def _clean(table: str) -> bool:
    """The results table's `you` row shows no faults (its columns are right-aligned)."""
    header = next(line for line in table.splitlines() if line.startswith("bot "))
    end = header.index("faults") + len("faults")
    return _row(table, "you")[:end].split()[-1] == "0"
