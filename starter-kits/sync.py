"""Bring every starter kit's shared files up to date: ``python starter-kits/sync.py``.

Each kit is a folder a bot author downloads and zips on its own, so what kits share is copied
into each of them rather than referenced: the title's component data as JSON (``cards.json``
for Citadels, ``components.json`` for Praga: written from ``engine/<title>/data``, the same
facts the engine plays by) and, for C++ kits, ``json.hpp`` from ``common/``. A test checks
that the copies are current, so a change to the engine's data cannot leave a kit behind.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

KITS = Path(__file__).resolve().parent
ENGINE = KITS.parent / "engine"
COMMON = KITS / "common"
# The component data file each title's kits carry.
DATA_FILE = {"citadels": "cards.json", "praga": "components.json"}


def kit_folders() -> list[Path]:
    """The kits: folders of starter-kits/ with a bot.json, in name order."""
    return sorted(p for p in KITS.iterdir() if (p / "bot.json").is_file())


def kit_title(kit: Path) -> str:
    return json.loads((kit / "bot.json").read_text())["title"]


def component_data(title: str) -> bytes:
    """The JSON a kit of ``title`` carries: the engine's data files, with their sources."""
    folder = ENGINE / title / "data"
    if title == "citadels":
        districts = json.loads((folder / "districts.json").read_text())
        characters = json.loads((folder / "characters.json").read_text())
        data = {
            "about": "Citadels components as the engine plays them, copied from "
            "engine/citadels/data by starter-kits/sync.py. Ids are the names in observations "
            "and options.",
            "sources": {"districts": districts["_about"], "characters": characters["_about"]},
            "colours": districts["colours"],
            "districts": districts["districts"],
            "characters": characters["characters"],
        }
    else:
        data = {
            "about": "Praga Caput Regni static components as the engine plays them (boards, "
            "tracks, tiles by id), copied from engine/praga/data by starter-kits/sync.py; the "
            "tiles on display and being placed also come with their printed data in the "
            "observation.",
        }
        data.update({p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))})
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode()


def expected_files() -> dict[Path, bytes]:
    """Every shared file each kit should hold, and its content."""
    wanted = {}
    for kit in kit_folders():
        wanted[kit / DATA_FILE[kit_title(kit)]] = component_data(kit_title(kit))
        if (kit / "bot.cpp").exists():
            wanted[kit / "json.hpp"] = (COMMON / "json.hpp").read_bytes()
    return wanted


def main() -> int:
    for path, content in expected_files().items():
        if not path.exists() or path.read_bytes() != content:
            path.write_bytes(content)
            print(f"wrote {path.relative_to(KITS.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
