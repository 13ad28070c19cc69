"""Safe defaults: DEBUG off unless asked for, no web service without a real secret key,
`check --deploy` clean with the production environment of deploy/env.example, and gunicorn
serving pages and static files (whitenoise) with the HTTPS switches as set there."""

import re
import secrets
import subprocess
import sys

import pytest

from arena.processes import stop_process_group
from arena.security import secret_key_problem
from engine.core import signatures
from tests.support.platform import ROOT

from .conftest import (
    VENV_BIN,
    fetch,
    free_port,
    manage,
    operator_env,
    production_env_in,
    read_env_file,
    wait_for_port,
)

pytestmark = pytest.mark.slow  # manage.py and gunicorn processes

HOST = {"Host": "arena.example.org"}


def test_debug_is_off_when_nobody_asks_for_it(tmp_path):
    env = operator_env(ARENA_VAR_DIR=str(tmp_path))
    shown = manage(env, "shell", "-c", "from django.conf import settings; print(settings.DEBUG)")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[-1] == "False"


@pytest.mark.parametrize(
    "key",
    ["", "dev-only-insecure-key-change-me", "change-me-to-a-long-random-string", "x" * 60],
)
def test_the_web_service_refuses_to_start_without_a_real_secret_key(tmp_path, key):
    env = operator_env(ARENA_VAR_DIR=str(tmp_path), ARENA_SECRET_KEY=key)
    started = subprocess.run(
        [sys.executable, "-c", "import arena.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert started.returncode != 0
    assert "ARENA_SECRET_KEY is not fit for production" in started.stderr


def test_the_web_service_refuses_to_sign_records_with_the_development_key(tmp_path):
    env = operator_env(ARENA_VAR_DIR=str(tmp_path), ARENA_SECRET_KEY=secrets.token_urlsafe(50))
    started = subprocess.run(
        [sys.executable, "-c", "import arena.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert started.returncode != 0
    assert "ARENA_RECORD_SIGNING_KEY is not set" in started.stderr
    env["ARENA_RECORD_SIGNING_KEY"] = signatures.new_private_key_text()
    started = subprocess.run(
        [sys.executable, "-c", "import arena.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr


def test_a_development_machine_may_sign_with_the_development_key(tmp_path):
    env = operator_env(ARENA_VAR_DIR=str(tmp_path), ARENA_DEBUG="true")
    started = subprocess.run(
        [sys.executable, "-c", "import arena.wsgi"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr


def test_a_long_random_key_is_accepted():
    assert secret_key_problem("kQ3v9-Zr7wYpL2sXb8NfT6mJ4hD1cGe0aUoRiWlEtSyVxBnMqPkHjF") is None


def test_env_example_lists_every_variable_the_settings_read():
    source = (ROOT / "platform" / "arena" / "settings.py").read_text()
    read = set(re.findall(r"\(\s*\"(ARENA_[A-Z0-9_]+)\"", source))
    assert len(read) > 30
    assert read <= set(read_env_file(ROOT / "deploy" / "env.example")), read


def test_check_deploy_is_clean_with_the_production_environment(production_env):
    checked = manage(production_env, "check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_check_deploy_names_each_https_switch_left_off(production_env):
    for name in ("ARENA_HTTPS", "ARENA_SSL_REDIRECT", "ARENA_SECURE_COOKIES"):
        production_env[name] = "false"
    production_env["ARENA_HSTS_SECONDS"] = "0"
    checked = manage(production_env, "check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode != 0
    for check_id in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check_id in checked.stderr, checked.stderr


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    """gunicorn as deploy/ runs it, on a free port, after collectstatic."""
    production_env = production_env_in(tmp_path_factory.mktemp("gunicorn"))
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        done = manage(production_env, *step)
        assert done.returncode == 0, done.stdout + done.stderr
    port = free_port()
    command = [
        str(VENV_BIN / "gunicorn"), "arena.wsgi",
        "--config", str(ROOT / "deploy" / "gunicorn.conf.py"),
        "--bind", f"127.0.0.1:{port}", "--workers", "1",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, env=production_env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process_group(process, grace_seconds=10)


def test_gunicorn_sends_plain_http_to_https(gunicorn):
    status, headers, _ = fetch(f"{gunicorn}/login/", HOST)
    assert status == 301
    assert headers["Location"] == "https://arena.example.org/login/"


def test_behind_the_proxy_pages_carry_hsts_and_secure_cookies(gunicorn):
    status, headers, body = fetch(f"{gunicorn}/login/", {**HOST, "X-Forwarded-Proto": "https"})
    assert status == 200, body[:500]
    assert "includeSubDomains" in headers["Strict-Transport-Security"]
    cookie = headers["Set-Cookie"]
    assert cookie.startswith("csrftoken=") and "Secure" in cookie


def test_static_files_are_served_with_debug_off(gunicorn):
    proxied = {**HOST, "X-Forwarded-Proto": "https", "Accept-Encoding": "gzip"}
    status, headers, body = fetch(f"{gunicorn}/static/admin/css/base.css", proxied)
    assert status == 200
    assert headers["Content-Encoding"] == "gzip" and len(body) > 100


def test_an_unknown_page_shows_no_debug_information(gunicorn):
    proxied = {**HOST, "X-Forwarded-Proto": "https"}
    status, _, body = fetch(f"{gunicorn}/no-such-page/", proxied)
    assert status == 404
    assert b"URLconf" not in body and b"Traceback" not in body


def test_a_worker_told_where_artifacts_are_but_not_the_secret_refuses_to_start(tmp_path):
    env = operator_env(ARENA_VAR_DIR=str(tmp_path), ARENA_ARTIFACT_URL="http://web:8000")
    shown = manage(env, "check")
    assert shown.returncode != 0
    assert "ARENA_ARTIFACT_URL is set but ARENA_ARTIFACT_SECRET is not" in shown.stderr


def test_the_gunicorn_site_answers_artifact_downloads_without_a_redirect(gunicorn):
    """The HTTPS redirect spares /internal/: workers inside the network may use plain HTTP
    (the download is signed and checked against its digest). Unsigned, it is refused."""
    status, _, body = fetch(f"{gunicorn}/internal/artifacts/{'a' * 64}", HOST)
    assert status == 403, body
