"""The Getting started page, and a new bot author's first hour through it: download a kit,
(build it), upload it as it is, and see it pass the smoke game in the real sandbox."""

import io
import json
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest

import engine
from arena.bots import services as bot_services
from arena.bots.artifacts import UploadRefused
from arena.bots.models import BotVersion
from tests.factories import make_bot, make_user
from workers.wheel import wheel_name

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

KITS = Path(__file__).resolve().parents[3] / "starter-kits"
KIT_NAMES = sorted(p.name for p in KITS.iterdir() if (p / "bot.json").is_file())


@pytest.fixture
def sandbox_cache(settings, tmp_path):
    """Media where the test writes, and a bot cache the sandbox user can read."""
    settings.MEDIA_ROOT = tmp_path / "media"
    cache = Path(tempfile.mkdtemp(prefix="arena-test-cache-"))
    cache.chmod(0o755)
    settings.ARENA_BOT_CACHE = cache
    yield cache
    shutil.rmtree(cache, ignore_errors=True)


def download(client, name: str) -> zipfile.ZipFile:
    response = client.get(f"/getting-started/kits/{name}.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == f'attachment; filename="{name}.zip"'
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_the_page_offers_every_kit_the_protocol_the_runner_and_the_upload(client):
    page = client.get("/getting-started/").content.decode()
    for name in KIT_NAMES:
        assert f'href="/getting-started/kits/{name}.zip"' in page
    for language in ("Python 3", "JavaScript (Node.js)", "C++"):
        assert language in page
    assert '{"type": "act", "id": 17, "choice": 0}' in page
    assert "python -m workers.play --title citadels --bot starter-kits/citadels-python" in page
    assert "/api/v1/bot-versions/" in page and "python3 -m zipfile -c my-bot.zip" in page
    assert 'href="/getting-started/docs/bot-protocol.md"' in page


def test_the_home_page_and_the_navigation_link_to_it(client):
    home = client.get("/").content.decode()
    assert home.count('href="/getting-started/"') == 2  # the navigation and the welcome text
    assert 'href="/getting-started/"' in client.get("/tournaments/").content.decode()


def test_the_bot_documents_are_served_as_text_and_nothing_else_is(client):
    response = client.get("/getting-started/docs/bot-protocol.md")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode().startswith("# The bot protocol")
    for title_id in engine.titles():
        assert client.get(f"/getting-started/docs/{title_id}.md").status_code == 200
    assert client.get("/getting-started/docs/architecture.md").status_code == 404
    assert client.get("/getting-started/kits/nothing.zip").status_code == 404


def test_a_download_is_the_kit_as_the_checkout_has_it_inside_one_folder(client):
    for name in KIT_NAMES:
        archive = download(client, name)
        manifest = json.loads((KITS / name / "bot.json").read_text())
        names = archive.namelist()
        assert all(n.startswith(f"{name}/") for n in names)
        expected = {
            "bot.json",
            "README.md",
            "cards.json" if "citadels" in name else "components.json",
        }
        assert expected <= {n.split("/", 1)[1] for n in names}
        for member in names:
            checkout = (KITS / member).read_bytes()
            if member.endswith("/README.md"):  # it installs the local arena from this site
                site = f"http://testserver/getting-started/{wheel_name()}"
                checkout = re.sub(
                    rb"http://127\.0\.0\.1:8000/getting-started/\S+\.whl", site.encode(), checkout
                )
                assert site.encode() in archive.read(member)
            assert archive.read(member) == checkout
        if manifest.get("build"):  # the built program is the author's own, never shipped
            assert f"{name}/{manifest['entry']}" not in names


def upload_and_validate(bot, filename: str, data: bytes) -> BotVersion:
    version = bot_services.upload_version(bot=bot, filename=filename, data=data)
    bot_services.validate_version(version.pk)
    version.refresh_from_db()
    return version


def zip_of_folder(folder: Path) -> bytes:
    """The folder zipped as the kits' READMEs say (``python3 -m zipfile -c``)."""
    target = folder.parent / f"{folder.name}.zip"
    subprocess.run(
        ["python3", "-m", "zipfile", "-c", str(target), folder.name], cwd=folder.parent, check=True
    )
    return target.read_bytes()


@pytest.mark.parametrize("name", KIT_NAMES)
def test_a_downloaded_kit_uploads_as_it_is_and_passes_the_smoke_game(
    client, sandbox_cache, tmp_path, name
):
    manifest = json.loads((KITS / name / "bot.json").read_text())
    bot = make_bot(make_user("newcomer"), title=manifest["title"], name="first")
    data = client.get(f"/getting-started/kits/{name}.zip").content
    if manifest.get("build"):
        with pytest.raises(UploadRefused, match=r"Build it first \(make\)"):
            bot_services.upload_version(bot=bot, filename=f"{name}.zip", data=data)
        zipfile.ZipFile(io.BytesIO(data)).extractall(tmp_path)
        subprocess.run(manifest["build"], shell=True, cwd=tmp_path / name, check=True)
        data = zip_of_folder(tmp_path / name)
    version = upload_and_validate(bot, f"{name}.zip", data)
    assert version.status == BotVersion.Status.READY, (version.reason, version.validation_stderr)
    assert "game over, my rank:" in version.validation_stderr


SINGLE_FILE_KITS = [n for n in KIT_NAMES if not (KITS / n / "Makefile").exists()]


@pytest.mark.parametrize("name", SINGLE_FILE_KITS)
def test_a_kits_bot_file_uploaded_on_its_own_passes_the_smoke_game_as_its_readme_says(
    client, sandbox_cache, name
):
    # issue 29: the kits say "a single bot.py also works"; the file alone used to die on
    # FileNotFoundError '/bot/cards.json' in the smoke game
    manifest = json.loads((KITS / name / "bot.json").read_text())
    entry = manifest["entry"]
    with zipfile.ZipFile(
        io.BytesIO(client.get(f"/getting-started/kits/{name}.zip").content)
    ) as kit:
        data = kit.read(f"{name}/{entry}")
    assert f"A single `{entry}` also works" in (KITS / name / "README.md").read_text()
    bot = make_bot(make_user("single-file"), title=manifest["title"], name="alone")
    version = upload_and_validate(bot, entry, data)
    assert version.status == BotVersion.Status.READY, (version.reason, version.validation_stderr)
    assert "beside " + entry in version.validation_stderr  # it says what it plays without
    assert "game over, my rank:" in version.validation_stderr
