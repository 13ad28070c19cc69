"""Uploading bot versions on the web form: good files are stored once, bad ones refused."""

import io
import shutil
import stat
import tempfile
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.bots.artifacts import artifact_path
from arena.bots.models import BotVersion
from tests.factories import RANDOM_BOT_SOURCE, make_bot, make_user, zip_bytes

pytestmark = pytest.mark.django_db

MANIFEST = {"title": "citadels", "entry": "bot.py"}


@pytest.fixture
def alice_bot(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    alice = make_user("alice")
    client.force_login(alice)
    return make_bot(alice, title="citadels", name="thinker")


def upload(client, bot, name: str, data: bytes):
    response = client.post(
        f"/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile(name, data)}, follow=True
    )
    assert response.status_code == 200
    return [str(m) for m in response.context["messages"]]


def assert_refused(client, bot, name, data, *words):
    messages = upload(client, bot, name, data)
    assert len(messages) == 1 and messages[0].startswith("Upload refused:"), messages
    for word in words:
        assert word in messages[0]
    assert not BotVersion.objects.filter(bot=bot).exists()
    assert not [p for p in settings.MEDIA_ROOT.rglob("*") if p.is_file()]  # nothing half-stored
    return messages[0]


def _entry(name: str, mode: int, content: bytes = b"x") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.json", '{"entry": "bot.py"}')
        archive.writestr("bot.py", RANDOM_BOT_SOURCE)
        info = zipfile.ZipInfo(name)
        info.external_attr = mode << 16
        archive.writestr(info, content)
    return buffer.getvalue()


def test_it_stores_a_single_py_file_as_a_pending_version(
    client, alice_bot, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        messages = upload(client, alice_bot, "bot.py", RANDOM_BOT_SOURCE.encode())
    version = BotVersion.objects.get(bot=alice_bot)
    assert "Version 1 uploaded" in messages[0]
    assert version.status == BotVersion.Status.PENDING
    assert version.artifact_format == "py"
    assert artifact_path(version.sha256, "py").read_bytes() == RANDOM_BOT_SOURCE.encode()
    assert len(callbacks) == 1  # validation is sent only once the upload is committed


def test_it_stores_a_zip_with_a_manifest(client, alice_bot):
    data = zip_bytes(
        {"bot.py": RANDOM_BOT_SOURCE, "lib/util.py": "X = 1\n"},
        manifest={"entry": "bot.py", "title": "citadels"},
    )
    upload(client, alice_bot, "bot.zip", data)
    version = BotVersion.objects.get(bot=alice_bot)
    assert (version.artifact_format, version.entry) == ("zip", "bot.py")


def test_it_recognises_the_same_artifact_uploaded_twice(client, alice_bot):
    upload(client, alice_bot, "bot.py", RANDOM_BOT_SOURCE.encode())
    messages = upload(client, alice_bot, "again.py", RANDOM_BOT_SOURCE.encode())
    assert "same file as version 1" in messages[0]
    assert BotVersion.objects.filter(bot=alice_bot).count() == 1


def test_it_refuses_an_empty_file(client, alice_bot):
    assert_refused(client, alice_bot, "bot.py", b"", "empty")


def test_it_refuses_a_file_over_the_size_limit(client, alice_bot, settings):
    settings.ARENA_UPLOAD_MAX_BYTES = 2048
    assert_refused(client, alice_bot, "bot.py", b"#" * 4096, "is 4.0 KiB", "at most 2.0 KiB")


def test_it_refuses_a_py_file_that_is_not_utf8(client, alice_bot):
    assert_refused(client, alice_bot, "bot.py", "print('héllo')".encode("latin-1"), "not UTF-8")


def test_it_refuses_a_zip_with_a_py_file_that_is_not_utf8(client, alice_bot):
    data = zip_bytes({"bot.py": "x = 'é'".encode("latin-1")}, manifest=MANIFEST)
    assert_refused(client, alice_bot, "bot.zip", data, "bot.py is not UTF-8")


def test_it_refuses_a_zip_with_path_traversal(client, alice_bot):
    data = zip_bytes({"bot.py": RANDOM_BOT_SOURCE, "../evil.py": "x"}, manifest=MANIFEST)
    assert_refused(client, alice_bot, "bot.zip", data, "'../evil.py'", "outside")


def test_it_refuses_a_zip_with_an_absolute_path(client, alice_bot):
    data = zip_bytes({"bot.py": RANDOM_BOT_SOURCE, "/etc/cron.d/evil": "x"}, manifest=MANIFEST)
    assert_refused(client, alice_bot, "bot.zip", data, "absolute path")


def test_it_refuses_a_zip_with_a_symlink(client, alice_bot):
    data = _entry("secrets", stat.S_IFLNK | 0o777, b"/etc/passwd")
    assert_refused(client, alice_bot, "bot.zip", data, "symbolic link")


def test_it_refuses_a_zip_with_a_device_file(client, alice_bot):
    data = _entry("null", stat.S_IFCHR | 0o666)
    assert_refused(client, alice_bot, "bot.zip", data, "device or special file")


def test_it_refuses_a_zip_bomb_before_unpacking(client, alice_bot, settings):
    bomb = zip_bytes(
        {"bot.py": RANDOM_BOT_SOURCE, "data.bin": b"\0" * (30 * 1024 * 1024)},
        manifest=MANIFEST,
    )
    assert len(bomb) < settings.ARENA_UPLOAD_MAX_BYTES  # small on the wire
    assert_refused(client, alice_bot, "bot.zip", bomb, "zip bomb", "Nothing was unpacked")


def test_it_refuses_a_zip_that_unpacks_too_large(client, alice_bot, settings):
    settings.ARENA_UPLOAD_MAX_UNPACKED_BYTES = 4096
    data = zip_bytes(
        {"bot.py": RANDOM_BOT_SOURCE, "notes.txt": bytes(range(256)) * 40},
        manifest=MANIFEST,
    )
    assert_refused(client, alice_bot, "bot.zip", data, "Unpacked, the zip would take")


def test_it_refuses_a_zip_with_too_many_files(client, alice_bot, settings):
    settings.ARENA_UPLOAD_MAX_FILES = 5
    files = {f"f{i}.py": "x = 1\n" for i in range(10)}
    assert_refused(
        client,
        alice_bot,
        "bot.zip",
        zip_bytes(files, manifest={"entry": "f1.py", "title": "citadels"}),
        "at most 5",
    )


def test_it_refuses_a_zip_without_a_manifest_or_an_obvious_entry_naming_what_it_expected(
    client, alice_bot
):
    data = zip_bytes({"strategy.py": RANDOM_BOT_SOURCE})
    assert_refused(
        client, alice_bot, "bot.zip", data, "no bot.json", "bot.py, main.py, bot.js or main.js"
    )


def test_it_refuses_a_zip_without_a_manifest_and_two_possible_entries(client, alice_bot):
    data = zip_bytes({"mybot/bot.py": RANDOM_BOT_SOURCE, "mybot/main.py": RANDOM_BOT_SOURCE})
    assert_refused(
        client, alice_bot, "bot.zip", data, "inside its folder 'mybot/'", "bot.py and main.py"
    )


def test_a_missing_compiled_entry_is_refused_naming_the_build_command(client, alice_bot):
    manifest = {"title": "citadels", "entry": "bot", "language": "executable", "build": "make"}
    data = zip_bytes({"bot.cpp": "int main() {}\n"}, manifest=manifest)
    assert_refused(client, alice_bot, "bot.zip", data, "'bot'", "Build it first (make)")


def test_it_refuses_a_manifest_naming_a_missing_entry_point(client, alice_bot):
    data = zip_bytes({"main.py": RANDOM_BOT_SOURCE}, manifest=MANIFEST)
    assert_refused(client, alice_bot, "bot.zip", data, "'bot.py'", "no such file")


def test_it_refuses_a_manifest_without_a_title(client, alice_bot):
    data = zip_bytes({"bot.py": RANDOM_BOT_SOURCE}, manifest={"entry": "bot.py"})
    assert_refused(client, alice_bot, "bot.zip", data, "names no title", '"title": "citadels"')


def test_it_refuses_a_bot_for_the_wrong_title(client, alice_bot):
    data = zip_bytes({"bot.py": RANDOM_BOT_SOURCE}, manifest={"entry": "bot.py", "title": "praga"})
    assert_refused(client, alice_bot, "bot.zip", data, "'praga'", "'citadels'")


def test_it_refuses_a_file_that_is_neither_python_nor_zip(client, alice_bot):
    assert_refused(
        client, alice_bot, "bot.exe", b"MZ\x90\x00", "neither a .py or .js file nor a zip"
    )


def test_it_refuses_a_corrupt_zip(client, alice_bot):
    assert_refused(client, alice_bot, "bot.zip", b"PK\x03\x04 not really", "cannot be read")


def test_it_refuses_a_huge_upload_before_reading_it(client, alice_bot, settings):
    settings.ARENA_UPLOAD_MAX_BYTES = 2048
    big = SimpleUploadedFile("bot.py", b"#" * (200 * 1024))
    response = client.post(f"/bots/{alice_bot.pk}/upload/", {"file": big}, follow=True)
    messages = [str(m) for m in response.context["messages"]]
    assert len(messages) == 1 and messages[0].startswith("Upload refused: This upload is 200.")
    assert "uploads may be at most 2.0 KiB" in messages[0]
    assert not BotVersion.objects.filter(bot=alice_bot).exists()


def _random_bot(kind: str) -> bytes:
    """The random bot as a single .py file or as a zip with its manifest."""
    if kind == "py":
        return RANDOM_BOT_SOURCE.encode()
    manifest = '{"title": "citadels", "entry": "bot.py"}'
    return zip_bytes({"bot.json": manifest, "bot.py": RANDOM_BOT_SOURCE})


@pytest.mark.parametrize("kind", ["py", "zip"])
def test_a_runnable_bot_is_readable_by_the_sandbox_user_so_it_is_never_copied(
    alice_bot, settings, kind
):
    from arena.bots.services import seat_spec, upload_version
    from workers.launch import start_bot
    from workers.limits import Limits
    from workers.manifest import load_bot

    # A cache the sandbox user can reach (pytest's own temporary folders are private).
    cache = Path(tempfile.mkdtemp(prefix="arena-test-cache-"))
    cache.chmod(0o755)
    settings.ARENA_BOT_CACHE = cache
    version = upload_version(bot=alice_bot, filename=f"bot.{kind}", data=_random_bot(kind))
    path = seat_spec(version).path
    root = cache / version.sha256
    for item in [root, *root.rglob("*")]:
        need = stat.S_IROTH | (stat.S_IXOTH if item.is_dir() else 0)
        assert item.stat().st_mode & need == need, item
    process = start_bot(load_bot(path), Limits())
    try:
        assert process._staging_dir is None  # mounted where it is, not staged per game
    finally:
        process.release()
        shutil.rmtree(cache)


@pytest.mark.parametrize("kind", ["py", "zip"])
def test_a_bot_is_readied_once_per_worker_cache_and_again_if_the_cache_lost_it(
    alice_bot, settings, tmp_path, kind
):
    from arena.bots.artifacts import runnable_path
    from arena.bots.services import upload_version

    settings.ARENA_BOT_CACHE = tmp_path / "cache"
    version = upload_version(bot=alice_bot, filename=f"bot.{kind}", data=_random_bot(kind))
    first = runnable_path(version.sha256, version.artifact_format, version.entry)
    bot_file = (first if kind == "py" else first / "bot.py").stat()
    again = runnable_path(version.sha256, version.artifact_format, version.entry)
    assert again == first
    assert (again if kind == "py" else again / "bot.py").stat().st_ino == bot_file.st_ino
    shutil.rmtree(settings.ARENA_BOT_CACHE / version.sha256)  # an operator cleared the cache
    readied = runnable_path(version.sha256, version.artifact_format, version.entry)
    assert readied == first
    assert (readied if kind == "py" else readied / "bot.py").read_text() == RANDOM_BOT_SOURCE


# -- what people actually make: a folder zipped whole, no manifest, other languages ----------


def readied(version) -> Path:
    from arena.bots.services import seat_spec

    return Path(seat_spec(version).path)


@pytest.mark.parametrize(
    ("files", "entry", "language"),
    [
        ({"mybot/bot.json": '{"title": "citadels", "entry": "bot.py"}'}, "bot.py", "python"),
        ({}, "bot.py", "python"),
        ({"__MACOSX/mybot/._bot.py": "x", "mybot/.DS_Store": "x"}, "bot.py", "python"),
    ],
    ids=["with-manifest", "without-manifest", "with-macos-litter"],
)
def test_a_zip_of_a_whole_folder_is_read_inside_that_folder(
    alice_bot, settings, tmp_path, files, entry, language
):
    from arena.bots.services import upload_version
    from workers.manifest import load_bot

    settings.ARENA_BOT_CACHE = tmp_path / "cache"
    data = zip_bytes({"mybot/bot.py": RANDOM_BOT_SOURCE, "mybot/lib/util.py": "X = 1\n", **files})
    version = upload_version(bot=alice_bot, filename="mybot.zip", data=data)
    assert version.entry == entry
    folder = readied(version)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["bot.py", "lib"] + (["bot.json"] if "mybot/bot.json" in files else [])
    )  # the folder's files, the folder itself and the litter taken off
    bot = load_bot(folder, "citadels")
    assert (bot.entry, bot.language) == (entry, language)


def test_a_zip_without_a_manifest_with_bot_js_runs_with_node(alice_bot, settings, tmp_path):
    from arena.bots.services import upload_version
    from workers.manifest import load_bot

    settings.ARENA_BOT_CACHE = tmp_path / "cache"
    data = zip_bytes({"bot.js": "// a bot\n", "README.md": "mine\n"})
    version = upload_version(bot=alice_bot, filename="js.zip", data=data)
    assert version.entry == "bot.js"
    assert load_bot(readied(version), "citadels").language == "node"


def test_a_single_js_file_is_a_bot_version(alice_bot, settings, tmp_path):
    from arena.bots.services import upload_version
    from workers.manifest import load_bot

    settings.ARENA_BOT_CACHE = tmp_path / "cache"
    version = upload_version(bot=alice_bot, filename="foxy.js", data=b"// a bot\n")
    assert (version.artifact_format, version.entry) == ("js", "foxy.js")
    bot = load_bot(readied(version))
    assert (bot.single_file, bot.language, bot.entry) == (True, "node", "bot.js")


def test_an_executable_entry_runs_even_from_a_zip_that_recorded_no_file_modes(
    alice_bot, settings, tmp_path
):
    from arena.bots.services import upload_version
    from workers.manifest import load_bot

    settings.ARENA_BOT_CACHE = tmp_path / "cache"
    manifest = {"title": "citadels", "entry": "run.sh", "language": "executable"}
    data = zip_bytes({"run.sh": "#!/bin/sh\nexec cat\n", "data.txt": "1\n"}, manifest=manifest)
    version = upload_version(bot=alice_bot, filename="sh.zip", data=data)
    folder = readied(version)
    assert load_bot(folder, "citadels").language == "executable"  # it checks the bit itself
    assert folder.joinpath("run.sh").stat().st_mode & 0o111
    assert not folder.joinpath("data.txt").stat().st_mode & 0o111


def test_a_file_the_zip_marks_executable_stays_executable(alice_bot, settings, tmp_path):
    from arena.bots.services import upload_version

    settings.ARENA_BOT_CACHE = tmp_path / "cache"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.py", RANDOM_BOT_SOURCE)
        info = zipfile.ZipInfo("tools/helper")
        info.external_attr = 0o755 << 16
        archive.writestr(info, "#!/bin/sh\n")
    version = upload_version(bot=alice_bot, filename="b.zip", data=buffer.getvalue())
    assert readied(version).joinpath("tools/helper").stat().st_mode & 0o111
