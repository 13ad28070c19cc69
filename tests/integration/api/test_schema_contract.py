"""schemathesis against the schema the live server serves (real PostgreSQL): every operation,
every check, anonymous and with a token, and sequences of calls along the schema's links;
any failure fails the test.

How hard it tries follows ARENA_FUZZ_PERCENT (tests/support/budget.py): a plain run sends
each operation a fifth of FULL_EXAMPLES generated requests; ``make fuzz`` (100 %) sends
FULL_EXAMPLES and adds schemathesis's coverage phase (every boundary and wrong type of every
parameter: a fixed few hundred requests a run, which no count bounds; with a token it took
five times the rest of this file at load 13).
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from rest_framework.authtoken.models import Token

from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating, RatingChange
from tests.factories import make_builtin, make_tournament, make_user
from tests.support.budget import FULL, cases
from tests.support.platform import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]

FULL_EXAMPLES = 25
# A loaded machine (other suites running) once took more than schemathesis's default 10 s
# to answer; a slow answer is not what these tests look for.
SETTINGS = """
request-timeout = 120
"""
# The project's schemathesis settings (which operations may answer schema-valid data 400),
# shared with `schemathesis run` from the project root.
OPERATIONS = (ROOT / "schemathesis.toml").read_text()
TOKEN = {}  # the fixture's token, for the signed-in run


@pytest.fixture
def served_schema(live_server, toy_title, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    # Generated requests come by the hundred; the limits themselves are tested elsewhere.
    settings.ARENA_THROTTLE_RATES = {k: "100000/minute" for k in settings.ARENA_THROTTLE_RATES}
    alice = make_user("alice")
    versions = [make_builtin(alice, name=f"bot-{i}") for i in range(2)]
    # Rows written directly, not played: a session's Celery workers, started by another test
    # of this process, would take games this live-server test commits.
    played = make_tournament(alice, versions, name="Contract cup")
    game = Game.objects.create(
        tournament=played, number=1, seed=1, status="finished", record={"title": "toy"}
    )
    for seat, version in enumerate(versions):
        GameSeat.objects.create(
            game=game, seat=seat, bot_version=version, score=seat, rank=2 - seat
        )
        rating = Rating.objects.create(
            tournament=played, bot_version=version, mu=25, sigma=8, ordinal=1, games=1
        )
        RatingChange.objects.create(
            rating=rating, game=game, mu_before=25, sigma_before=8, mu=25, sigma=8, ordinal=1
        )
    make_tournament(alice, versions, name="Draft cup")
    phases = f"[phases.coverage]\nenabled = {str(FULL).lower()}\n"
    config = schemathesis.config.SchemathesisConfig.from_str(SETTINGS + phases + OPERATIONS)
    schema = schemathesis.openapi.from_url(live_server.url + "/api/v1/schema/", config=config)
    TOKEN["key"] = Token.objects.create(user=alice).key
    return schema


schema = schemathesis.pytest.from_fixture("served_schema")
# Derandomized: a failure shows again on the next run instead of by chance.
generated = settings(
    max_examples=cases(FULL_EXAMPLES),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)


@schema.parametrize()
@generated
def test_every_operation_holds_to_the_schema_anonymously(case):
    case.call_and_validate()


@schema.exclude(path_regex="/token/(rotate|revoke)/").parametrize()
@generated
def test_every_operation_holds_to_the_schema_with_a_token(case):
    # The token's replacement and revocation are left out: they would end the run's token.
    case.call_and_validate(headers={"Authorization": f"Token {TOKEN['key']}"})


def test_sequences_of_calls_along_the_schemas_links_hold_to_it(served_schema):
    """The stateful phase: creates followed along their links (a tournament to its start,
    pause, resume and cancel), signed in as alice, who has ready bots."""
    machine = served_schema.exclude(path_regex="/token/(rotate|revoke)/").as_state_machine()

    class SignedIn(machine):
        def get_call_kwargs(self, case):
            return {"headers": {"Authorization": f"Token {TOKEN['key']}"}}

    run_state_machine_as_test(
        SignedIn,
        settings=settings(
            max_examples=cases(FULL_EXAMPLES),
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            stateful_step_count=6,
        ),
    )
