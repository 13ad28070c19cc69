"""/api/v1/bot-versions/: upload (multipart), status and validation log, size limits."""

import socket
from urllib.parse import urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token

from arena.bots.models import BotVersion
from tests.factories import RANDOM_BOT_SOURCE, make_bot, make_user

from .conftest import ALLOWED, PEOPLE, error_of


def upload(api, bot, data: bytes = RANDOM_BOT_SOURCE.encode(), name: str = "bot.py"):
    return api.post(
        "/api/v1/bot-versions/",
        {"bot": bot.pk, "file": SimpleUploadedFile(name, data)},
        format="multipart",
    )


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_only_the_owner_and_staff_upload_a_version(as_, people, media, toy_title, who):
    bot = make_bot(people["alice"])
    response = upload(as_(who), bot)
    if who in ALLOWED:
        assert response.status_code == 201, response.content
        assert response.json()["status"] == "pending" and response.json()["number"] == 1
    else:
        error_of(response, 401 if who == "anonymous" else 403)
        assert not bot.versions.exists()


@pytest.mark.django_db
def test_a_refused_upload_is_a_400_on_the_file_field(as_, people, media, toy_title):
    bot = make_bot(people["alice"])
    error = error_of(upload(as_("alice"), bot, b""), 400)
    assert "empty" in error["fields"]["file"][0]


@pytest.mark.django_db
def test_an_oversize_file_is_a_413_that_gives_its_real_size(as_, people, media, settings):
    settings.ARENA_UPLOAD_MAX_BYTES = 2048
    bot = make_bot(people["alice"], title="citadels")
    error = error_of(upload(as_("alice"), bot, b"#" * 4096), 413)
    assert "The file is 4.0 KiB; uploads may be at most 2.0 KiB" in error["message"]
    assert not bot.versions.exists()


@pytest.mark.django_db
def test_the_web_form_gives_an_oversize_files_real_size(client, people, media, settings):
    settings.ARENA_UPLOAD_MAX_BYTES = 2048
    bot = make_bot(people["alice"], title="citadels")
    client.force_login(people["alice"])
    big = SimpleUploadedFile("bot.py", b"#" * 4096)
    response = client.post(f"/bots/{bot.pk}/upload/", {"file": big}, follow=True)
    messages = [str(m) for m in response.context["messages"]]
    assert messages == [
        "Upload refused: The file is 4.0 KiB; uploads may be at most 2.0 KiB. "
        "Leave out data files your bot does not need."
    ]


@pytest.mark.django_db
def test_the_web_upload_still_checks_csrf(people, media, toy_title):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(people["alice"])
    bot = make_bot(people["alice"])
    response = strict.post(
        f"/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("bot.py", b"print(1)")}
    )
    assert response.status_code == 403
    assert not bot.versions.exists()


@pytest.mark.django_db
def test_the_owner_reads_the_validation_log_and_others_do_not(as_, people, versions):
    version = versions[0]
    BotVersion.objects.filter(pk=version.pk).update(validation_stderr="traceback here")
    for who in PEOPLE:
        shown = as_(who).get(f"/api/v1/bot-versions/{version.pk}/").json()["validation_stderr"]
        assert (shown == "traceback here") == (who in ALLOWED), who


def _raw_request(live_server, head: str) -> bytes:
    """Send only the head of a request and read the whole answer (the body never comes: a
    server that waited for it would never answer, and the read would time out)."""
    url = urlsplit(live_server.url)
    with socket.create_connection((url.hostname, url.port), timeout=60) as conn:
        conn.sendall(head.encode())
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer) < _answer_length(answer):
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer


def _answer_length(answer: bytes) -> int:
    head, _, _ = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return len(answer) + 1  # no length: read until the server closes


@pytest.mark.django_db(transaction=True)
def test_an_oversize_upload_is_refused_from_its_content_length_unread(live_server, media):
    alice = make_user("alice")
    token = Token.objects.create(user=alice)
    bot = make_bot(alice, title="citadels")
    answer = _raw_request(
        live_server,
        "POST /api/v1/bot-versions/ HTTP/1.1\r\n"
        f"Host: {urlsplit(live_server.url).netloc}\r\n"
        f"Authorization: Token {token.key}\r\n"
        "Content-Type: multipart/form-data; boundary=xyz\r\n"
        f"Content-Length: {100 * 1024 * 1024}\r\n"
        "Connection: close\r\n\r\n",
    )
    status_line, _, rest = answer.partition(b"\r\n")
    assert b" 413 " in status_line, answer[:300]
    assert b"This upload is 100.0 MiB; uploads may be at most 2.0 MiB" in rest
    assert not bot.versions.exists()
