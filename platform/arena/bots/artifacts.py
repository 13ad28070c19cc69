"""Upload checks and content-addressed storage of bot artifacts.

An artifact is a single ``.py`` or ``.js`` file, or a zip of a bot's folder: its files at the
zip's top level or inside one top-level folder (what zipping a folder makes), with a
``bot.json`` manifest naming the entry point, or without one when exactly one conventional
entry file (``bot.py``, ``main.py``, ``bot.js``, ``main.js``: the rule of
``workers.manifest``, shared with the runner) is there. Every check reads the zip's central
directory only, so a zip bomb, a link or a path escaping the folder is refused before a byte
is unpacked. Each refusal says what is wrong in words the uploader can act on.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from django.conf import settings

from workers.artifacts import Download, checked, fetched
from workers.manifest import SINGLE_FILE_LANGUAGES, BotSpecError, conventional_entry

MANIFEST = "bot.json"
# Single-file uploads by suffix: the artifact format is the suffix without its dot.
SINGLE_FILE_FORMATS = tuple(suffix[1:] for suffix in SINGLE_FILE_LANGUAGES)
# What archivers add beside a folder's files (macOS Finder, Windows Explorer): ignored.
_ARCHIVER_LITTER = ("__MACOSX/", ".DS_Store", "Thumbs.db", "desktop.ini")
# A compression ratio above this is a zip bomb, whatever the total says.
MAX_COMPRESSION_RATIO = 200


class UploadRefused(ValueError):
    """An upload that cannot become a bot version; the message tells the uploader why."""


@dataclass(frozen=True)
class CheckedArtifact:
    data: bytes
    sha256: str
    filename: str
    artifact_format: str  # "py", "js" (a single file) or "zip"
    entry: str


def check_upload(filename: str, data: bytes, *, title: str) -> CheckedArtifact:
    """Check an uploaded file for ``title``; raises UploadRefused with an actionable message."""
    name = os.path.basename(filename or "").strip()
    if not data:
        raise UploadRefused("The file is empty. Upload your bot's .py file or a zip of its folder.")
    limit = settings.ARENA_UPLOAD_MAX_BYTES
    if len(data) > limit:
        raise UploadRefused(
            f"The file is {_size(len(data))}; uploads may be at most {_size(limit)}. "
            "Leave out data files your bot does not need."
        )
    digest = hashlib.sha256(data).hexdigest()
    suffix = name.lower().rpartition(".")[2] if "." in name else ""
    if suffix in SINGLE_FILE_FORMATS:
        _check_text(data, name)
        return CheckedArtifact(data, digest, name, suffix, name)
    if suffix == "zip" or zipfile.is_zipfile(io.BytesIO(data)):
        entry = _check_zip(data, title)
        return CheckedArtifact(data, digest, name or "bot.zip", "zip", entry)
    raise UploadRefused(
        f"{name or 'The file'} is neither a .py or .js file nor a zip. Upload a single .py or "
        f".js file, or a zip of your bot's folder (with a {MANIFEST} manifest naming the entry "
        "point unless the entry is bot.py, main.py, bot.js or main.js)."
    )


def _check_text(data: bytes, name: str) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise UploadRefused(
            f"{name} is not UTF-8 text (byte {err.start} cannot be decoded). "
            "Save it with UTF-8 encoding and upload it again."
        ) from None


def _check_zip(data: bytes, title: str) -> str:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise UploadRefused(
            f"The zip cannot be read ({err}). Create it again and re-upload."
        ) from None
    if not members:
        raise UploadRefused("The zip is empty. Zip your bot's folder, with its bot.json inside.")
    if len(members) > settings.ARENA_UPLOAD_MAX_FILES:
        raise UploadRefused(
            f"The zip holds {len(members)} entries; at most {settings.ARENA_UPLOAD_MAX_FILES} "
            "are allowed. Leave out caches and data your bot does not need."
        )
    total = 0
    for member in members:
        _check_member(member)
        total += member.file_size
    if total > settings.ARENA_UPLOAD_MAX_UNPACKED_BYTES:
        raise UploadRefused(
            f"Unpacked, the zip would take {_size(total)}; at most "
            f"{_size(settings.ARENA_UPLOAD_MAX_UNPACKED_BYTES)} are allowed. Nothing was unpacked."
        )
    root = bot_root(members)
    inside = f" (inside its folder {root!r})" if root else ""
    names = {m.filename[len(root) :].rstrip("/") for m in members if not _is_litter(m.filename)}
    if MANIFEST not in names:
        try:
            entry, _ = conventional_entry(name for name in names if "/" not in name)
        except BotSpecError as err:
            raise UploadRefused(f"The zip{inside}: {err}.") from None
    else:
        entry = _entry_from_manifest(archive.read(root + MANIFEST), names, title, inside)
    for member in members:
        if member.filename.endswith(".py") and not _is_litter(member.filename):
            _check_text(archive.read(member), member.filename)
    return entry


def _entry_from_manifest(raw: bytes, names: set[str], title: str, inside: str) -> str:
    manifest = _read_manifest(raw)
    entry = manifest.get("entry")
    if not isinstance(entry, str) or not entry.strip():
        raise UploadRefused(f'{MANIFEST} names no entry point. Add "entry": "bot.py" to it.')
    entry = str(PurePosixPath(entry))
    if entry not in names:
        build = manifest.get("build")
        hint = f" Build it first ({build}) and zip the folder again." if build else ""
        raise UploadRefused(
            f"{MANIFEST} names the entry point {entry!r}, but the zip{inside} has no such "
            f"file.{hint}"
        )
    declared = manifest.get("title")
    if not isinstance(declared, str) or not declared:
        raise UploadRefused(f'{MANIFEST} names no title. Add "title": "{title}" to it.')
    if declared != title:
        raise UploadRefused(
            f"{MANIFEST} says this bot plays {declared!r}, but this bot is for {title!r}. "
            "Upload it to a bot of the right title, or fix the manifest."
        )
    return entry


def _is_litter(name: str) -> bool:
    return name.startswith(_ARCHIVER_LITTER[0]) or PurePosixPath(name).name in _ARCHIVER_LITTER


def bot_root(members: list[zipfile.ZipInfo]) -> str:
    """Where the bot's files sit in the zip: ``""`` (its top level) or ``"folder/"`` when
    everything (archivers' litter aside) is inside that one top-level folder."""
    tops = set()
    for member in members:
        if _is_litter(member.filename):
            continue
        first, slash, _ = member.filename.partition("/")
        tops.add(first + slash)
    if len(tops) == 1:
        (top,) = tops
        if top.endswith("/"):
            return top
    return ""


def _check_member(member: zipfile.ZipInfo) -> None:
    name = member.filename
    mode = member.external_attr >> 16
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise UploadRefused(
            f"The zip entry {name!r} has an absolute path. Zip the folder's contents with "
            "relative paths."
        )
    if ".." in PurePosixPath(name.replace("\\", "/")).parts:
        raise UploadRefused(
            f"The zip entry {name!r} points outside the bot's folder ('..'). Remove it."
        )
    if stat.S_ISLNK(mode):
        raise UploadRefused(
            f"The zip entry {name!r} is a symbolic link; links are not allowed. "
            "Put the real file in the zip instead."
        )
    if mode and (
        stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)
    ):
        raise UploadRefused(
            f"The zip entry {name!r} is a device or special file; only regular files and "
            "folders are allowed."
        )
    if member.compress_size and member.file_size / member.compress_size > MAX_COMPRESSION_RATIO:
        raise UploadRefused(
            f"The zip entry {name!r} would unpack to {_size(member.file_size)} from "
            f"{_size(member.compress_size)}: that looks like a zip bomb. Nothing was unpacked."
        )


def _read_manifest(raw: bytes) -> dict:
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UploadRefused(f"{MANIFEST} is not UTF-8 text. Save it as UTF-8.") from None
    except json.JSONDecodeError as err:
        raise UploadRefused(f"{MANIFEST} is not valid JSON: {err}.") from None
    if not isinstance(manifest, dict):
        raise UploadRefused(f'{MANIFEST} must be a JSON object such as {{"entry": "bot.py"}}.')
    return manifest


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} bytes"


# -- storage ---------------------------------------------------------------------------------


def artifact_path(sha256: str, artifact_format: str) -> Path:
    return Path(settings.MEDIA_ROOT) / "artifacts" / sha256[:2] / f"{sha256}.{artifact_format}"


def store_artifact(artifact: CheckedArtifact) -> tuple[Path, bool]:
    """Write the artifact under its sha256 (atomically); returns (path, newly written)."""
    path = artifact_path(artifact.sha256, artifact.artifact_format)
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".upload-")
    with os.fdopen(fd, "wb") as out:
        out.write(artifact.data)
    os.replace(tmp, path)
    return path, True


def _readable_by_the_sandbox(*paths: Path) -> None:
    """Folders and files the sandbox user can read (and enter, and run where the owner can):
    bubblewrap mounts them as they are, where it would copy unreadable ones for every game.
    Nothing here is secret from the worker machine's users; the sandbox shows a bot only its
    own folder."""
    for path in paths:
        if path.is_symlink():
            continue
        executable = path.is_dir() or path.stat().st_mode & stat.S_IXUSR
        path.chmod(0o755 if executable else 0o644)


def runnable_location(sha256: str, artifact_format: str) -> str:
    """Where :func:`runnable_path` puts the artifact on this machine (nothing is read)."""
    ready = os.path.join(settings.ARENA_BOT_CACHE, sha256)
    if artifact_format in SINGLE_FILE_FORMATS:
        return os.path.join(ready, f"bot.{artifact_format}")
    return ready


def _checked_copy(sha256: str, artifact_format: str, label: str) -> Path:
    """The artifact on this machine, its digest checked: downloaded from the web service
    (ARENA_ARTIFACT_URL set: a worker of another machine) or the stored file itself."""
    if not settings.ARENA_ARTIFACT_URL:
        return checked(artifact_path(sha256, artifact_format), sha256, label)
    source = Download(
        url=settings.ARENA_ARTIFACT_URL,
        secret=settings.ARENA_ARTIFACT_SECRET,
        cache=Path(settings.ARENA_BOT_CACHE) / "artifacts",
        max_bytes=settings.ARENA_UPLOAD_MAX_BYTES,
    )
    return fetched(sha256, artifact_format, label, source)


def runnable_path(sha256: str, artifact_format: str, entry: str, label: str = "") -> Path:
    """A path the match runner can start: the .py file, or the unpacked folder of a zip.

    The artifact comes from the platform's storage through ``workers.artifacts`` (downloaded
    and checked against its sha256 on a worker of another machine); ArtifactUnavailable
    (naming the version, ``label``) when it is missing or damaged there. Zips are unpacked
    once per sha256 into the bot cache (to a temporary folder, then renamed, so two workers
    never see a half-unpacked bot).
    """
    # Every seat of every game asks: where the bot is ready, one stat() and no pathlib.
    ready = os.path.join(settings.ARENA_BOT_CACHE, sha256)
    single = f"bot.{artifact_format}"
    if artifact_format in SINGLE_FILE_FORMATS:
        if os.path.exists(os.path.join(ready, single)):
            return Path(ready, single)
    elif os.path.isdir(ready):
        return Path(ready)
    # Not ready here yet (another worker may be readying it too: both end with one copy).
    stored = _checked_copy(sha256, artifact_format, label or f"the bot version {sha256[:12]}…")
    cache = Path(settings.ARENA_BOT_CACHE)
    folder = cache / sha256
    if artifact_format in SINGLE_FILE_FORMATS:
        target = folder / single
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".copy-")
        os.close(fd)
        shutil.copyfile(stored, tmp)
        _readable_by_the_sandbox(folder, Path(tmp))
        os.replace(tmp, target)
        return target
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=cache, prefix=".unpack-"))
    with zipfile.ZipFile(stored) as archive:
        _unpack(archive, tmp, entry)
    _readable_by_the_sandbox(tmp, *tmp.rglob("*"))
    try:
        os.rename(tmp, folder)
    except OSError:  # another worker unpacked it first
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def _unpack(archive: zipfile.ZipFile, target: Path, entry: str) -> None:
    """The bot's files into ``target``, its one top-level folder (if any) taken off; a file
    keeps the executable bit the zip recorded, and the entry always gets one (a binary zipped
    where files have no mode must still run)."""
    members = archive.infolist()
    root = bot_root(members)
    for member in members:
        _check_member(member)  # checked at upload; checked again before writing anything
        relative = member.filename[len(root) :]
        if _is_litter(member.filename) or not member.filename.startswith(root) or not relative:
            continue
        path = target / relative
        if not path.resolve().is_relative_to(target.resolve()):
            raise UploadRefused(f"The zip entry {member.filename!r} points outside the bot.")
        if member.is_dir():
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(member) as source, open(path, "wb") as out:
            shutil.copyfileobj(source, out)
        if (member.external_attr >> 16) & 0o111 or relative == entry:
            path.chmod(0o755)
