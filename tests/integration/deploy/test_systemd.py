"""deploy/systemd/: the units for plain machines pass `systemd-analyze verify` (installed in
this checkout's place, so the commands they start exist), and the worker's hardening leaves
bubblewrap the namespaces and the /proc it needs."""

import configparser
import shutil
import subprocess

import pytest

from tests.support.platform import ROOT

from .conftest import DEPLOY, VENV_BIN

UNITS = sorted((DEPLOY / "systemd").glob("*.service"))
INSTALLED_AT = "/opt/meeple-arena"
# Each of these would stop bubblewrap: it makes user, PID, mount and network namespaces and
# mounts a /proc of its own, which the kernel refuses over a /proc with over-mounts.
BREAKS_BWRAP = ("RestrictNamespaces", "ProtectKernelTunables", "ProtectKernelLogs", "PrivateUsers")


def installed_here(unit, folder):
    """The unit as installed from this checkout (its .venv is where the unit expects one)."""
    text = unit.read_text().replace(f"{INSTALLED_AT}/.venv", str(VENV_BIN.parent))
    copy = folder / unit.name
    copy.write_text(text.replace(INSTALLED_AT, str(ROOT)))
    return copy


def service_section(unit) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string(unit.read_text())
    return parser["Service"]


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not here")
def test_systemd_analyze_verifies_every_unit(tmp_path):
    copies = [installed_here(unit, tmp_path) for unit in UNITS]
    done = subprocess.run(
        ["systemd-analyze", "verify", *map(str, copies)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_there_is_a_unit_for_each_process_of_a_machine():
    assert [u.stem for u in UNITS] == ["arena-beat", "arena-web", "arena-worker"]


def test_the_worker_unit_leaves_bubblewrap_its_namespaces():
    service = service_section(DEPLOY / "systemd" / "arena-worker.service")
    assert not [name for name in BREAKS_BWRAP if name in service]
    assert service["KillMode"] == "mixed"  # SIGTERM to Celery's main process only
