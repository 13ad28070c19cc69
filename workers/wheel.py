"""The local arena as a wheel: the engine, the bot protocol, the sandbox and the local runner.

    python -m workers.wheel --out dist/        # what `make wheel` runs

A bot author who has only a kit zip installs it into an empty virtualenv (the site serves it on
Getting started) and plays local games exactly as the servers do: ``python -m workers.play``,
``python -m engine``. The wheel holds the whole ``engine`` package and the modules of
``workers`` that the local runner imports (never the Celery or Django side), needs nothing but
the standard library, ``openskill`` (the site's rating model) and ``pyseccomp`` (the
sandbox's system-call filter), and its version is :data:`engine.ENGINE_VERSION`, the ``engine_version``
every game record carries. It is written by hand (PEP 427: a zip with a ``.dist-info``) so that
the same checkout always gives the same bytes, without a build backend.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import sys
import zipfile
from functools import cache
from pathlib import Path

from engine import ENGINE_VERSION

DISTRIBUTION = "meeple-arena-local"
ROOT = Path(__file__).resolve().parent.parent
# The runner's modules (workers.play and what it imports, the warm start included); a module
# added to that chain must be added here, which the wheel's install test shows.
WORKERS_MODULES = (
    "__init__",
    "play",
    "match",
    "protocol",
    "launch",
    "sandbox",
    "seccomp",
    "cgroups",
    "watchdog",
    "limits",
    "manifest",
    "leaderboard",
    "positions",
    "warm_start",
    "zygote",
)
_LEFT_OUT = ("__pycache__",)
_ZIP_TIME = (2026, 1, 1, 0, 0, 0)  # fixed: the same checkout gives the same wheel


def wheel_name() -> str:
    """The wheel's file name (PEP 427), e.g. ``meeple_arena_local-0.3.0-py3-none-any.whl``."""
    return f"{DISTRIBUTION.replace('-', '_')}-{ENGINE_VERSION}-py3-none-any.whl"


def _sources() -> list[tuple[str, Path]]:
    """(path in the wheel, file) for every file the wheel holds, in a stable order."""
    files = [
        p
        for p in sorted((ROOT / "engine").rglob("*"))
        if p.is_file() and not any(part in _LEFT_OUT for part in p.parts) and p.suffix != ".pyc"
    ]
    files += [ROOT / "workers" / f"{name}.py" for name in WORKERS_MODULES]
    files += sorted(p for p in (ROOT / "workers" / "schemas").rglob("*.json"))
    return [(p.relative_to(ROOT).as_posix(), p) for p in files]


def _metadata() -> dict[str, str]:
    info = f"{DISTRIBUTION.replace('-', '_')}-{ENGINE_VERSION}.dist-info"
    return {
        f"{info}/METADATA": (
            "Metadata-Version: 2.1\n"
            f"Name: {DISTRIBUTION}\n"
            f"Version: {ENGINE_VERSION}\n"
            "Summary: Meeple Arena's local arena: the rules engine (Citadels, Praga Caput "
            "Regni), the bot protocol, the bubblewrap sandbox and the local runner\n"
            "Requires-Python: >=3.11\n"
            # the site's rating model, for a local round robin's leaderboard
            "Requires-Dist: openskill>=6.2,<7\n"
            # the sandbox's seccomp filters are generated with libseccomp through it
            "Requires-Dist: pyseccomp>=0.1.2,<0.2\n"
        ),
        f"{info}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: workers.wheel\nRoot-Is-Purelib: true\n"
            "Tag: py3-none-any\n"
        ),
        f"{info}/entry_points.txt": "[console_scripts]\nmeeple-arena-play = workers.play:main\n",
    }


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


@cache
def wheel_bytes() -> bytes:
    """The wheel, built from this checkout (the same bytes every time for the same files)."""
    entries = [(name, path.read_bytes()) for name, path in _sources()]
    entries += [(name, text.encode()) for name, text in _metadata().items()]
    record_path = f"{DISTRIBUTION.replace('-', '_')}-{ENGINE_VERSION}.dist-info/RECORD"
    record = "".join(_record_line(n, d) + "\n" for n, d in entries) + f"{record_path},,\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in [*entries, (record_path, record.encode())]:
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def build(out: Path) -> Path:
    """Write the wheel into the folder ``out``; returns its path."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / wheel_name()
    target.write_bytes(wheel_bytes())
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m workers.wheel", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", default="dist", help="folder for the wheel (default dist/)")
    args = parser.parse_args(argv)
    print(build(Path(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
