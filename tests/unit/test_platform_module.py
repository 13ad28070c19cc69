"""platform/ is a folder, not a package: Python's standard `platform` module still works."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_stdlib_platform_is_not_shadowed_in_tests():
    import platform

    assert platform.system() == "Linux"
    assert not hasattr(platform, "settings")


@pytest.mark.slow
def test_stdlib_platform_is_not_shadowed_by_manage_py():
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", "import platform; print(platform.system())"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Linux" in out.stdout.splitlines()


@pytest.mark.slow
def test_django_system_check_passes():
    out = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert "no issues" in out.stdout
