"""Starter kits as a bot author gets them: copied out of the checkout, built where they say."""

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
KITS = REPO / "starter-kits"
KIT_NAMES = sorted(p.name for p in KITS.iterdir() if (p / "bot.json").is_file())


def kit_manifest(name: str) -> dict:
    return json.loads((KITS / name / "bot.json").read_text())


@pytest.fixture(scope="session")
def kits_copy():
    """A copy of starter-kits/ outside the checkout (nothing is written into the repository)
    that the sandbox user can read; kits are built in it by :func:`built_kit`."""
    root = Path(tempfile.mkdtemp(prefix="arena-kits-"))
    copy = root / "starter-kits"
    shutil.copytree(KITS, copy, ignore=shutil.ignore_patterns("__pycache__", "bot"))
    for item in [root, *root.rglob("*")]:
        item.chmod(0o755 if item.is_dir() else 0o644)
    yield copy
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def built_kit(kits_copy):
    """``built_kit(name)``: the kit's folder in the copy, its build command (if it names one)
    run once, as its README tells a bot author to."""
    built = set()

    def build(name: str) -> Path:
        command = kit_manifest(name).get("build")
        if command and name not in built:
            subprocess.run(command, shell=True, cwd=kits_copy / name, check=True)
            built.add(name)
        return kits_copy / name

    return build
