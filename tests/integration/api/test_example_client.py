"""The guide's example client (docs/api/example_client.py) runs end to end against the live
server and real Celery workers: upload, validation in the sandbox, a tournament, standings
and the games as CSV."""

import csv
import subprocess
import sys

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import RANDOM_BOT_SOURCE, make_builtin, make_user
from tests.support.platform import ROOT

pytestmark = [pytest.mark.sandbox, pytest.mark.django_db(transaction=True)]

CLIENT = ROOT / "docs" / "api" / "example_client.py"


def test_the_example_client_runs_a_tournament_end_to_end(
    live_server, celery_workers, toy_title, tmp_path
):
    house = make_user("house")
    for name in ("house-a", "house-b"):
        make_builtin(house, builtin="random", name=name)
    dora = make_user("dora")
    token = Token.objects.create(user=dora).key
    bot = tmp_path / "bot.py"
    bot.write_text(RANDOM_BOT_SOURCE)
    out = tmp_path / "games.csv"
    run = subprocess.run(
        [
            sys.executable, str(CLIENT), "--url", live_server.url, "--token", token,
            "--title", "toy", "--bot", str(bot), "--name", "doras-bot", "--out", str(out),
        ],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr + celery_workers.log()[-3000:]
    assert "validation passed" in run.stdout
    assert "dora/doras-bot v1" in run.stdout
    rows = list(csv.DictReader(out.open()))
    assert rows and {r["status"] for r in rows} == {"finished"}
    assert any(r["bot"] == "dora/doras-bot v1" for r in rows)
    assert f"saved {len(rows)} rows" in run.stdout
