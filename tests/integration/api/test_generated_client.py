"""A client generated from the served schema by openapi-python-client runs the whole workflow
with no hand-written call: a token, a kit's zip uploaded and validated in the sandbox, a
tournament created and started, its games played by real workers, standings and CSV."""

import csv
import importlib
import io
import subprocess
import sys
import time

import pytest
import requests

from tests.factories import PASSWORD, RANDOM_BOT_SOURCE, make_builtin, make_user, zip_bytes

pytestmark = [pytest.mark.sandbox, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def arena_client(live_server, tmp_path):
    """The package openapi-python-client generates from /api/v1/schema/, imported."""
    schema = tmp_path / "schema.json"
    answer = requests.get(
        f"{live_server.url}/api/v1/schema/", headers={"Accept": "application/json"}, timeout=30
    )
    schema.write_bytes(answer.content)
    generator = [sys.executable, "-m", "openapi_python_client", "generate", "--path",
                 str(schema), "--meta", "none", "--output-path", str(tmp_path / "arena_client")]  # fmt: skip
    done = subprocess.run(generator, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield lambda name: importlib.import_module(f"arena_client.{name}")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("arena_client")]:
            del sys.modules[name]


def test_a_generated_client_runs_the_whole_workflow(
    live_server, celery_workers, toy_title, arena_client
):
    house = make_user("house")
    others = [make_builtin(house, builtin="random", name=f"house-{i}") for i in range(2)]
    make_user("dora")
    client, models, types = (arena_client(n) for n in ("client", "models", "types"))
    anonymous = client.Client(base_url=live_server.url)
    token_create = arena_client("api.token.token_create")
    token = token_create.sync(
        client=anonymous, body=models.TokenRequestRequest(username="dora", password=PASSWORD)
    )
    assert isinstance(token, models.Token), token
    dora = client.AuthenticatedClient(base_url=live_server.url, token=token.token, prefix="Token")

    bot = arena_client("api.bots.bots_create").sync(
        client=dora, body=models.BotRequest(title=models.TitleEnum("toy"), name="generated")
    )
    assert isinstance(bot, models.Bot), bot
    kit = zip_bytes({"bot.py": RANDOM_BOT_SOURCE})
    upload = models.BotVersionRequest(
        bot=bot.id, file=types.File(payload=io.BytesIO(kit), file_name="kit.zip")
    )
    version = arena_client("api.bot_versions.bot_versions_create").sync(client=dora, body=upload)
    assert isinstance(version, models.BotVersion), version
    retrieve = arena_client("api.bot_versions.bot_versions_retrieve")
    deadline = time.monotonic() + 300
    while version.status in ("pending", "validating") and time.monotonic() < deadline:
        time.sleep(1)
        version = retrieve.sync(client=dora, id=version.id)
    assert version.status == "ready", version

    body = models.TournamentRequest(
        name="Generated cup",
        title=models.TitleEnum("toy"),
        seats=2,
        entrants=[version.id, *(v.pk for v in others)],
    )
    tournament = arena_client("api.tournaments.tournaments_create").sync(client=dora, body=body)
    assert isinstance(tournament, models.Tournament), tournament
    started = arena_client("api.tournaments.tournaments_start_create").sync(
        client=dora, id=tournament.id
    )
    assert isinstance(started, models.Tournament), started
    progress = arena_client("api.tournaments.tournaments_progress_retrieve")
    deadline = time.monotonic() + 300
    while (state := progress.sync(client=dora, id=tournament.id)).status != "finished":
        assert time.monotonic() < deadline, state
        time.sleep(1)
    standings = arena_client("api.tournaments.tournaments_standings_list").sync(
        client=dora, id=tournament.id
    )
    assert {row.bot for row in standings.results} >= {"dora/generated v1"}
    table = arena_client("api.games.games_csv_retrieve").sync(client=dora, tournament=tournament.id)
    rows = list(csv.DictReader(io.StringIO(table)))
    assert rows and {r["status"] for r in rows} == {"finished"}
