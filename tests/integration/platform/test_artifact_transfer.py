"""Bot artifacts reach workers over the network from the platform's storage, by sha256:
the signed endpoint /internal/artifacts/<sha256> (this test process's live server is the
web service), the worker's checked cache, and games whose artifact is missing or damaged
failing at once with a reason that says so."""

from __future__ import annotations

import shutil
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.db import transaction

from arena.bots.artifacts import artifact_path, runnable_path
from arena.games.models import Game
from arena.tournaments import services as tournaments
from arena.tournaments.models import Tournament
from tests.factories import (
    RANDOM_BOT_SOURCE,
    make_builtin,
    make_ready_upload,
    make_tournament,
    make_user,
)
from tests.support.platform import wait_for
from workers.artifacts import signed_headers
from workers.errors import ArtifactUnavailable

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "a-secret-both-sides-know"


@pytest.fixture
def web_storage(settings, live_server, tmp_path):
    """The live server as the web service with its storage; this process, with a cache of
    its own and no way to its MEDIA_ROOT but the endpoint, as a worker machine."""
    settings.MEDIA_ROOT = tmp_path / "web-media"
    settings.ARENA_ARTIFACT_SECRET = SECRET
    settings.ARENA_ARTIFACT_URL = live_server.url
    settings.ARENA_BOT_CACHE = tmp_path / "worker-cache"
    return live_server.url


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {})) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_a_worker_downloads_an_artifact_once_checks_it_and_keeps_it_by_sha256(
    web_storage, settings, toy_title
):
    version = make_ready_upload(make_user("alice"))
    path = runnable_path(version.sha256, "py", version.entry, version.label)
    assert path.read_text().startswith(RANDOM_BOT_SOURCE)
    cached = Path(settings.ARENA_BOT_CACHE) / "artifacts" / f"{version.sha256}.py"
    assert cached.read_bytes() == artifact_path(version.sha256, "py").read_bytes()
    # The web's copy gone and the unpacked bot cleared: the cache still has the artifact.
    artifact_path(version.sha256, "py").unlink()
    shutil.rmtree(Path(settings.ARENA_BOT_CACHE) / version.sha256)
    again = runnable_path(version.sha256, "py", version.entry, version.label)
    assert again == path and again.read_text().startswith(RANDOM_BOT_SOURCE)


def test_the_endpoint_serves_only_signed_requests_and_is_off_without_its_secret(
    web_storage, settings, toy_title
):
    version = make_ready_upload(make_user("alice"))
    url = f"{web_storage}/internal/artifacts/{version.sha256}"
    stored = artifact_path(version.sha256, "py").read_bytes()
    assert get(url, signed_headers(SECRET, version.sha256)) == (200, stored)
    assert get(url)[0] == 403
    assert get(url, signed_headers("another secret", version.sha256))[0] == 403
    assert get(url, signed_headers(SECRET, "0" * 64))[0] == 403  # signs another digest
    expired = signed_headers(SECRET, version.sha256, now=time.time() - 3600)
    assert get(url, expired)[0] == 403
    unknown = "f" * 64
    assert (
        get(f"{web_storage}/internal/artifacts/{unknown}", signed_headers(SECRET, unknown))[0]
        == 404
    )
    assert get(f"{web_storage}/internal/artifacts/not-a-digest")[0] == 404
    settings.ARENA_ARTIFACT_SECRET = ""
    assert get(url, signed_headers(SECRET, version.sha256))[0] == 404


def test_a_missing_or_damaged_artifact_is_a_permanent_error_naming_the_version(
    web_storage, toy_title
):
    alice = make_user("alice")
    missing, damaged = make_ready_upload(alice, name="gone"), make_ready_upload(alice, name="bad")
    artifact_path(missing.sha256, "py").unlink()
    artifact_path(damaged.sha256, "py").write_text("print('not what was uploaded')\n")
    with pytest.raises(ArtifactUnavailable, match="is missing from the platform's storage"):
        runnable_path(missing.sha256, "py", missing.entry, missing.label)
    with pytest.raises(ArtifactUnavailable, match="alice/bad v1 is damaged"):
        runnable_path(damaged.sha256, "py", damaged.entry, damaged.label)


def test_a_version_whose_artifact_is_missing_is_rejected_with_that_reason(web_storage, toy_title):
    from arena.bots.services import upload_version, validate_version
    from tests.factories import make_bot

    bot = make_bot(make_user("alice"), name="vanished")
    # Content of its own, so no worker holds it in a cache by sha256; the file goes before the
    # upload's validation message is sent (on commit), which a session worker of this run may
    # take before this test validates: either way the version is rejected.
    source = RANDOM_BOT_SOURCE + f"\n# {uuid.uuid4()}\n"
    with transaction.atomic():
        version = upload_version(bot=bot, filename="bot.py", data=source.encode())
        artifact_path(version.sha256, "py").unlink()
    if validate_version(version.pk) is None:
        wait_for(
            lambda: (
                type(version).objects.get(pk=version.pk).status not in ("pending", "validating")
            ),
            timeout=60,
            what="the version's validation",
        )
    version.refresh_from_db()
    assert version.status == "rejected"
    assert "alice/vanished v1" in version.reason
    assert "is missing from the platform's storage" in version.reason


@pytest.mark.slow
def test_workers_with_no_shared_folder_play_uploads_and_fail_games_whose_artifact_is_bad(
    web_storage, far_side, toy_title
):
    """A real worker process whose media and bot cache are its own (empty) folders: an
    uploaded bot's games are played from the downloaded artifact; a tournament with a
    damaged one fails each of its games at once, with the reason, on the first attempt."""
    alice = make_user("alice")
    good = [make_ready_upload(alice, name="good"), make_builtin(alice), make_builtin(alice)]
    bad = make_ready_upload(alice, name="bad")
    artifact_path(bad.sha256, "py").write_text("print('not what was uploaded')\n")
    worker_files = Path(tempfile.mkdtemp(prefix="arena-far-worker-"))  # the sandbox reads it
    worker_files.chmod(0o755)
    far_side.env.update(
        ARENA_MEDIA_ROOT=str(worker_files / "media"),
        ARENA_BOT_CACHE=str(worker_files / "bot-cache"),
        ARENA_ARTIFACT_URL=web_storage,
        ARENA_ARTIFACT_SECRET=SECRET,
    )
    try:
        far_side.start_worker()
        played = make_tournament(alice, good, name="Good cup")
        failing = make_tournament(alice, [bad, *good[1:]], name="Bad cup")
        tournaments.start_tournament(played.pk)
        tournaments.start_tournament(failing.pk)
        wait_for(
            lambda: (
                set(
                    Tournament.objects.filter(pk__in=[played.pk, failing.pk]).values_list(
                        "status", flat=True
                    )
                )
                == {"finished"}
            ),
            timeout=120,
            what="both tournaments to end",
        )
        assert set(Game.objects.filter(tournament=played).values_list("status", flat=True)) == {
            "finished"
        }, far_side.logs()
        failed = Game.objects.filter(tournament=failing, seats__bot_version=bad)
        assert failed.exists()
        for game in failed:
            assert (game.status, game.attempts) == ("failed", 1)
            assert "The stored file of alice/bad v1 is damaged" in game.error
        assert not (worker_files / "media").exists()  # nothing came from a shared folder
        assert (worker_files / "bot-cache" / "artifacts" / f"{good[0].sha256}.py").exists()
    finally:
        far_side.stop()
        shutil.rmtree(worker_files, ignore_errors=True)
