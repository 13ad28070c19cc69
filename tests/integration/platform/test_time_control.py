"""One source of the time control's defaults: the platform's limits (ARENA_BOT_DECISION_MS,
ARENA_BOT_BANK_MS, read once into settings.ARENA_BOT_LIMITS), whether a tournament comes from
the web form, the API, the demo's seeding or the model itself."""

import json
import os
import subprocess
import sys

import pytest

from arena.tournaments import services
from arena.tournaments.models import Tournament
from tests.factories import make_builtin, make_user
from tests.support.platform import ROOT

pytestmark = pytest.mark.django_db


def test_a_tournament_created_without_a_time_control_gets_the_platforms(settings, toy_title):
    settings.ARENA_BOT_LIMITS = settings.ARENA_BOT_LIMITS.replace(decision_ms=1234, bank_ms=5678)
    alice = make_user("alice")
    made = services.create_tournament(  # as seed_demo and the history do
        organiser=alice, name="cup", title="toy", seats=2,
        entrants=[make_builtin(alice), make_builtin(alice)],
    )  # fmt: skip
    assert (made.decision_ms, made.bank_ms) == (1234, 5678)
    bare = Tournament.objects.create(organiser=alice, name="bare", title="toy", seats=2)
    assert (bare.decision_ms, bare.bank_ms) == (1234, 5678)


THE_FORMS_DEFAULTS = """
import json, django
django.setup()
from arena.tournaments import spec
print(json.dumps([spec.FIELDS["decision_ms"].default, spec.FIELDS["bank_ms"].default]))
"""


def test_the_web_form_and_the_api_offer_the_time_control_the_environment_sets(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DJANGO_"))}
    env.update(
        ARENA_VAR_DIR=str(tmp_path),
        ARENA_BOT_DECISION_MS="1234",
        ARENA_BOT_BANK_MS="5678",
        DJANGO_SETTINGS_MODULE="arena.settings",
        PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
    )
    done = subprocess.run(
        [sys.executable, "-c", THE_FORMS_DEFAULTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == [1234, 5678]
