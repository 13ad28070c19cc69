"""What a bot is on disk: a directory with a ``bot.json`` manifest, or a single ``.py`` file.

The manifest (documented in docs/bot-protocol.md)::

    {"title": "citadels", "entry": "bot.py", "language": "python", "name": "My bot"}

``title`` and ``entry`` are required; ``language`` is ``python`` (the default: the entry runs
with the sandbox's Python 3 and the standard library only) or ``executable`` (the entry is a
program the sandbox runs directly: a static binary or a script with a ``#!`` line naming an
interpreter under ``/usr``). ``name`` is optional and only shown to people.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "bot.json"
LANGUAGES = ("python", "executable")
MAX_MANIFEST_BYTES = 16 << 10


class BotSpecError(ValueError):
    """A bot on disk that cannot be run; the message says what to fix."""


@dataclass(frozen=True)
class BotFiles:
    """A runnable bot: where its files are and how to start it.

    ``root`` is exposed read-only at ``/bot`` in the sandbox; for a single-file bot only that
    file is exposed (``single_file``), as ``/bot/<entry>``.
    """

    root: Path
    entry: str
    language: str
    title: str | None
    name: str
    single_file: bool = False

    @property
    def entry_path(self) -> Path:
        return self.root if self.single_file else self.root / self.entry


def load_bot(path: str | os.PathLike, title_id: str | None = None) -> BotFiles:
    """Read a bot directory (with ``bot.json``) or a single ``.py`` file; BotSpecError if unusable.

    With ``title_id`` given, a manifest naming another title is refused.
    """
    where = Path(path)
    if not where.exists():
        raise BotSpecError(f"bot path {str(where)!r} does not exist")
    if where.is_file():
        if where.suffix != ".py":
            raise BotSpecError(
                f"a single-file bot must be a .py file; {where.name!r} is not "
                f"(for other languages upload a directory with a {MANIFEST})"
            )
        return BotFiles(where, where.name, "python", None, where.stem, single_file=True)
    manifest_path = where / MANIFEST
    if not manifest_path.is_file():
        raise BotSpecError(f"{str(where)!r} has no {MANIFEST} manifest (see docs/bot-protocol.md)")
    manifest = _read_manifest(manifest_path)
    entry = manifest["entry"]
    entry_path = where / entry
    if not entry_path.is_file():
        raise BotSpecError(f"{MANIFEST}: entry file {entry!r} is not in the bot's directory")
    if manifest["language"] == "executable" and not os.access(entry_path, os.X_OK):
        raise BotSpecError(f"{MANIFEST}: entry {entry!r} is not executable (chmod +x it)")
    if title_id is not None and manifest["title"] != title_id:
        raise BotSpecError(
            f"{MANIFEST}: this bot is for {manifest['title']!r}, not for {title_id!r}"
        )
    return BotFiles(
        where, entry, manifest["language"], manifest["title"], manifest.get("name") or where.name
    )


def _read_manifest(path: Path) -> dict:
    raw = path.read_bytes()
    if len(raw) > MAX_MANIFEST_BYTES:
        raise BotSpecError(f"{MANIFEST} is larger than {MAX_MANIFEST_BYTES} bytes")
    try:
        manifest = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise BotSpecError(f"{MANIFEST} is not valid JSON: {err}") from None
    if not isinstance(manifest, dict):
        raise BotSpecError(f"{MANIFEST} must hold a JSON object")
    manifest.setdefault("language", "python")
    for key in ("title", "entry", "language"):
        if not isinstance(manifest.get(key), str) or not manifest[key]:
            raise BotSpecError(f'{MANIFEST} needs a "{key}" text field')
    if "name" in manifest and not isinstance(manifest["name"], str):
        raise BotSpecError(f'{MANIFEST}: "name" must be text')
    if manifest["language"] not in LANGUAGES:
        raise BotSpecError(
            f"{MANIFEST}: language {manifest['language']!r} is not supported; "
            f"use one of {', '.join(LANGUAGES)}"
        )
    entry = manifest["entry"]
    parts = Path(entry).parts
    if Path(entry).is_absolute() or ".." in parts or entry.startswith("~"):
        raise BotSpecError(f"{MANIFEST}: entry {entry!r} must be a path inside the bot's directory")
    return manifest
