"""The starter kits the site offers: the folders of ``starter-kits/`` that hold a ``bot.json``,
zipped when asked for, so a download is always the kit as this checkout has it; its README's
first block installs the local arena from the site it was downloaded from."""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

# Never in a download: caches, and a compiled kit's built program (people build their own).
_LEFT_OUT_PARTS = ("__pycache__", ".pytest_cache")
_LEFT_OUT_SUFFIXES = (".pyc", ".o")
# In the checkout a kit README installs the local arena's wheel from the demo's address
# (`make demo` serves it there); a download names the wheel on the site it came from.
_CHECKOUT_WHEEL_URL = re.compile(r"http://127\.0\.0\.1:8000/getting-started/[\w.-]+\.whl")
# A fixed time stamp: the same kit zips to the same bytes (and sha256) every time.
_ZIP_TIME = (2026, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class StarterKit:
    """One kit: its folder name, what it plays and how it runs."""

    name: str
    folder: Path
    title: str
    language: str
    entry: str
    build: str

    @property
    def language_name(self) -> str:
        """What a person calls the kit's language."""
        if self.language == "python":
            return "Python 3"
        if self.language == "node":
            return "JavaScript (Node.js)"
        return "C++" if (self.folder / "bot.cpp").exists() else "compiled"

    def files(self) -> list[Path]:
        """The files a download holds, in a stable order."""
        built = self.folder / self.entry if self.build else None
        return [
            path
            for path in sorted(self.folder.rglob("*"))
            if path.is_file()
            and path != built
            and not any(part in _LEFT_OUT_PARTS for part in path.parts)
            and path.suffix not in _LEFT_OUT_SUFFIXES
        ]


def kits_folder() -> Path:
    return Path(settings.BASE_DIR) / "starter-kits"


def starter_kits() -> list[StarterKit]:
    """Every kit, by title then name."""
    kits = []
    for manifest_path in sorted(kits_folder().glob("*/bot.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        kits.append(
            StarterKit(
                name=manifest_path.parent.name,
                folder=manifest_path.parent,
                title=manifest["title"],
                language=manifest.get("language", "python"),
                entry=manifest["entry"],
                build=manifest.get("build", ""),
            )
        )
    return sorted(kits, key=lambda kit: (kit.title, kit.name))


def find_kit(name: str) -> StarterKit | None:
    """The kit of that folder name; None for anything else (no path is ever built from it)."""
    return next((kit for kit in starter_kits() if kit.name == name), None)


def kit_zip(kit: StarterKit, wheel_url: str | None = None) -> bytes:
    """The kit as a zip of its folder (its files inside one top-level folder named like the
    kit, as zipping the folder makes them), which the upload form takes as it is; with
    ``wheel_url`` (the local arena's wheel on this site) its README installs from there."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in kit.files():
            info = zipfile.ZipInfo(f"{kit.name}/{path.relative_to(kit.folder)}", _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if path.stat().st_mode & 0o100 else 0o644) << 16
            data = path.read_bytes()
            if wheel_url and path == kit.folder / "README.md":
                data = _CHECKOUT_WHEEL_URL.sub(wheel_url, data.decode("utf-8")).encode("utf-8")
            archive.writestr(info, data)
    return buffer.getvalue()
