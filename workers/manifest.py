"""What a bot is on disk: a directory (with a ``bot.json`` manifest, or one obvious entry file),
or a single ``.py`` / ``.js`` file.

The manifest (documented in docs/bot-protocol.md)::

    {"title": "citadels", "entry": "bot.py", "language": "python", "name": "My bot"}

``title`` and ``entry`` are required; ``language`` is ``python`` (the default: the entry runs
with the sandbox's Python 3 and the standard library only), ``node`` (the entry runs with the
sandbox's Node.js) or ``executable`` (the entry is a program the sandbox runs directly: a
static binary or a script with a ``#!`` line naming an interpreter under ``/usr``). ``name``
is optional and only shown to people; ``build`` is optional, the command that makes the entry
(a compiled bot's), named when the entry is missing.

Without a manifest a directory is still a bot when exactly one of the conventional entry files
(:data:`ENTRY_FILES`) sits at its top level: its language follows from the name. The same rule
reads an uploaded zip (``arena.bots.artifacts``), so the site and the runner agree.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "bot.json"
LANGUAGES = ("python", "node", "executable")
MAX_MANIFEST_BYTES = 16 << 10
# Entry files a directory without a manifest may have (exactly one of them), and their language.
ENTRY_FILES = {"bot.py": "python", "main.py": "python", "bot.js": "node", "main.js": "node"}
# A single file that is a whole bot, by its suffix.
SINGLE_FILE_LANGUAGES = {".py": "python", ".js": "node"}


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


def expected_entries() -> str:
    """The entry files a manifest-less bot may have, as a person reads them."""
    names = list(ENTRY_FILES)
    return ", ".join(names[:-1]) + f" or {names[-1]}"


def conventional_entry(top_level: Iterable[str]) -> tuple[str, str]:
    """(entry, language) of a bot without a manifest whose top level holds ``top_level``.

    Exactly one of :data:`ENTRY_FILES` must be there; BotSpecError otherwise, naming what was
    expected (the caller adds where).
    """
    found = sorted(name for name in set(top_level) if name in ENTRY_FILES)
    if not found:
        raise BotSpecError(
            f"there is no {MANIFEST} and none of {expected_entries()} at the top level; add "
            f'your entry file, or a {MANIFEST} such as {{"title": "citadels", "entry": '
            '"bot.py"} naming it (see docs/bot-protocol.md)'
        )
    if len(found) > 1:
        raise BotSpecError(
            f"there is no {MANIFEST} and both {' and '.join(found)} could be the entry; add a "
            f'{MANIFEST} such as {{"entry": "{found[0]}"}} saying which'
        )
    return found[0], ENTRY_FILES[found[0]]


def load_bot(path: str | os.PathLike, title_id: str | None = None) -> BotFiles:
    """Read a bot directory (``bot.json``, or one conventional entry file) or a single ``.py``
    or ``.js`` file; BotSpecError if unusable.

    With ``title_id`` given, a manifest naming another title is refused.
    """
    where = Path(path)
    if not where.exists():
        raise BotSpecError(f"bot path {str(where)!r} does not exist")
    if where.is_file():
        language = SINGLE_FILE_LANGUAGES.get(where.suffix)
        if language is None:
            raise BotSpecError(
                f"a single-file bot must be a .py or .js file; {where.name!r} is not "
                f"(for other languages use a directory with a {MANIFEST})"
            )
        return BotFiles(where, where.name, language, None, where.stem, single_file=True)
    manifest_path = where / MANIFEST
    if not manifest_path.is_file():
        try:
            entry, language = conventional_entry(p.name for p in where.iterdir() if p.is_file())
        except BotSpecError as err:
            raise BotSpecError(f"{str(where)!r}: {err}") from None
        return BotFiles(where, entry, language, None, where.name)
    manifest = _read_manifest(manifest_path)
    entry = manifest["entry"]
    entry_path = where / entry
    if not entry_path.is_file():
        build = manifest.get("build")
        hint = f"; build it first: {build}" if build else ""
        raise BotSpecError(f"{MANIFEST}: entry file {entry!r} is not in the bot's directory{hint}")
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
    for key in ("name", "build"):
        if key in manifest and not isinstance(manifest[key], str):
            raise BotSpecError(f'{MANIFEST}: "{key}" must be text')
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
