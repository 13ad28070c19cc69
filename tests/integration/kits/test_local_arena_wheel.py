"""The local arena as a wheel (issue 29): built by the project, versioned as the engine, served
on Getting started, installed into an empty virtualenv with nothing but a kit zip beside it, and
playing from the kit's folder in the servers' sandbox; each kit README's first block runs as
written against a running site."""

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest

from engine import ENGINE_VERSION
from workers.wheel import wheel_bytes, wheel_name

from .conftest import KIT_NAMES, REPO
from .test_readme_commands import _clean, shell_blocks


def person_env(home: Path, **changes) -> dict:
    """This machine's environment as a person's shell has it: no path into the checkout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return {**env, "HOME": str(home), **changes}


@pytest.fixture(scope="module")
def outside():
    """A folder outside the checkout that the sandbox user can read (as a person's home is)."""
    root = Path(tempfile.mkdtemp(prefix="arena-wheel-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def arena_venv(outside):
    """An empty Python 3.11 virtualenv with the wheel that `make wheel` builds installed from
    that file alone (``--no-index``: it needs nothing from a package index)."""
    built = subprocess.run(
        ["python3.11", "-m", "workers.wheel", "--out", str(outside / "dist")],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    venv = outside / "venv"
    subprocess.run(["python3.11", "-m", "venv", str(venv)], check=True)
    deps = outside / "deps"  # what the wheel requires, fetched once by name
    subprocess.run(
        [venv / "bin/pip", "download", "--quiet", "--no-deps", "-d", deps,
         "openskill>=6.2,<7", "pyseccomp>=0.1.2,<0.2"],
        check=True,
    )  # fmt: skip
    subprocess.run(
        [venv / "bin/pip", "install", "--quiet", "--no-index", "--find-links", deps, built],
        check=True,
        cwd=outside,
    )
    return venv


def unzip_kit(zip_bytes: bytes, into: Path, name: str) -> Path:
    """The kit unzipped as a person would, readable by the sandbox user."""
    zipfile.ZipFile(io.BytesIO(zip_bytes)).extractall(into)
    for item in [into, *into.rglob("*")]:
        item.chmod(0o755 if item.is_dir() or os.access(item, os.X_OK) else 0o644)
    return into / name


def test_make_wheel_builds_what_the_site_serves(arena_venv, outside):
    built = outside / "dist" / wheel_name()
    assert built.read_bytes() == wheel_bytes()  # the same checkout, the same bytes


def test_the_wheel_is_named_and_versioned_as_the_engine_and_holds_the_runner_only():
    archive = zipfile.ZipFile(io.BytesIO(wheel_bytes()))
    names = set(archive.namelist())
    assert wheel_name() == f"meeple_arena_local-{ENGINE_VERSION}-py3-none-any.whl"
    info = f"meeple_arena_local-{ENGINE_VERSION}.dist-info"
    assert f"Version: {ENGINE_VERSION}" in archive.read(f"{info}/METADATA").decode()
    assert {
        "workers/play.py",
        "workers/sandbox.py",
        "workers/protocol.py",
        "engine/cli.py",
    } <= names
    assert (
        "engine/praga/data/player_board.json" in names and "engine/core/viewer/viewer.js" in names
    )
    assert not {"workers/tasks.py", "workers/celery.py", "workers/artifacts.py"} & names
    assert not any(n.startswith(("platform/", "arena/", "dashboards/")) for n in names)
    for line in archive.read(f"{info}/RECORD").decode().splitlines():  # PEP 376 hashes hold
        path, digest, size = line.rsplit(",", 2)
        if digest:
            data = archive.read(path)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={want}", len(data)), path


@pytest.mark.parametrize("kit", ["citadels-python", "praga-python"])
def test_the_installed_wheel_plays_a_kit_outside_the_checkout_in_the_sandbox(
    client, arena_venv, outside, kit
):
    folder = unzip_kit(client.get(f"/getting-started/kits/{kit}.zip").content, outside / kit, kit)
    title = kit.split("-")[0]
    played = subprocess.run(
        [arena_venv / "bin/python", "-m", "workers.play", "--title", title, "--bot", ".",
         "--vs", "random,random", "--games", "2", "--out", "out", "--no-progress"],
        cwd=folder, capture_output=True, text=True, env=person_env(outside),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert re.search(r"^you +2 ", played.stdout, re.M), played.stdout
    record = (folder / "out" / "game-0001.json").read_text()
    assert f'"engine_version": "{ENGINE_VERSION}"' in record and '"sandbox": "bwrap"' in record
    where = subprocess.run(
        [arena_venv / "bin/python", "-c", "import engine, workers; print(engine.__file__)"],
        cwd=folder, capture_output=True, text=True, check=True, env=person_env(outside),
    ).stdout  # fmt: skip
    assert where.startswith(str(arena_venv))  # the wheel's engine, not the checkout's


def test_the_installed_wheel_runs_a_round_robin_of_local_bots_with_a_leaderboard(
    client, arena_venv, outside
):
    for kit in ("citadels-python", "citadels-js"):
        zipped = client.get(f"/getting-started/kits/{kit}.zip").content
        unzip_kit(zipped, outside / "league", kit)
    played = subprocess.run(
        [arena_venv / "bin/python", "-m", "workers.play", "--title", "citadels", "--round-robin",
         "citadels-python,citadels-js,builder", "--players", "3", "--games", "2", "--no-progress"],
        cwd=outside / "league", capture_output=True, text=True, env=person_env(outside),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    board = played.stdout[played.stdout.index("leaderboard") :].splitlines()
    assert "μ − 3σ" in board[1] and "fault rate" in board[1]
    assert {line.split()[1] for line in board[3:]} == {
        "citadels-python#1", "citadels-js#2", "builder",
    }  # fmt: skip


def test_without_bubblewrap_the_installed_runner_says_so_and_plays_unsandboxed_on_request(
    client, arena_venv, outside
):
    kit = "citadels-python"
    folder = unzip_kit(
        client.get(f"/getting-started/kits/{kit}.zip").content, outside / "nobwrap", kit
    )
    tools = outside / "bin-without-bwrap"
    tools.mkdir(exist_ok=True)
    if not (tools / "prlimit").exists():  # the runner's one other tool; bots run /usr/bin's
        (tools / "prlimit").symlink_to(shutil.which("prlimit"))
    argv = [arena_venv / "bin/python", "-m", "workers.play", "--title", "citadels", "--bot", ".",
            "--vs", "random,random", "--games", "1", "--no-progress"]  # fmt: skip
    env = person_env(outside, PATH=str(tools))
    refused = subprocess.run(argv, cwd=folder, capture_output=True, text=True, env=env)
    assert refused.returncode == 2
    assert "bubblewrap is not installed" in refused.stderr and "--no-sandbox" in refused.stderr
    unsandboxed = subprocess.run(
        [*argv, "--no-sandbox"], cwd=folder, capture_output=True, text=True, env=env
    )
    assert unsandboxed.returncode == 0, unsandboxed.stderr
    assert "WITHOUT isolation" in unsandboxed.stderr
    assert re.search(r"^you +1 ", unsandboxed.stdout, re.M)


def test_getting_started_links_the_wheel_it_serves(client):
    page = client.get("/getting-started/").content.decode()
    href = re.search(r'<a id="arena-wheel" href="([^"]+\.whl)"', page).group(1)
    assert href.endswith("/" + wheel_name())
    response = client.get(href)
    assert response.status_code == 200 and response.content == wheel_bytes()
    assert (
        client.get("/getting-started/meeple_arena_local-0.0.1-py3-none-any.whl").status_code == 404
    )


@pytest.fixture(scope="module")
def person_home(tmp_path_factory):
    """The home of the person who tries the kits one after the other (the tests that use it
    run on one xdist worker, ``tests/conftest.py``): the first README run makes
    ``~/.meeple-arena`` (a new virtualenv, the wheel and what it requires installed from the
    site), the next ones run the same commands over it, as that person does. Making a
    virtualenv (pip installed into it) is most of a run's CPU."""
    home = tmp_path_factory.mktemp("person-home")
    home.chmod(0o755)
    return home


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kit", KIT_NAMES)
def test_the_kit_readmes_first_block_runs_as_written_against_the_site(
    live_server, kit, tmp_path, person_home
):
    import urllib.request

    with urllib.request.urlopen(f"{live_server.url}/getting-started/kits/{kit}.zip") as response:
        zipped = response.read()
    root = tmp_path / "person"
    folder = unzip_kit(zipped, root, kit)
    readme = (folder / "README.md").read_text()
    assert readme.split("\n")[2] == "```"  # the title, then the block
    block = shell_blocks(readme)[0]
    assert f"{live_server.url}/getting-started/{wheel_name()}" in "\n".join(block)
    tmp_path.chmod(0o755)
    done = subprocess.run(
        ["bash", "-euc", "\n".join(block)], cwd=folder, capture_output=True, text=True,
        timeout=900, env=person_env(person_home),
    )  # fmt: skip
    assert done.returncode == 0, f"{block}\n{done.stdout}\n{done.stderr}"
    assert re.search(r"^you +3 ", done.stdout, re.M) and _clean(done.stdout), done.stdout
