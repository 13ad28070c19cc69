"""Limits: defaults in one place, ARENA_BOT_* overrides, malformed values refused."""

import pytest

from workers.limits import Limits


def test_defaults_hold_without_environment():
    assert Limits.from_env({}) == Limits()
    assert Limits().decision_ms == 1000 and Limits().bank_ms == 10000


def test_every_limit_has_an_environment_variable():
    limits = Limits.from_env({"ARENA_BOT_DECISION_MS": "250", "ARENA_BOT_TMP_MB": "16"})
    assert limits.decision_ms == 250 and limits.tmp_mb == 16
    assert Limits.env_names()["stderr_bytes"] == "ARENA_BOT_STDERR_BYTES"
    assert len(Limits.env_names()) == len(Limits().to_json())


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"ARENA_BOT_BANK_MS": "ten"}, "ARENA_BOT_BANK_MS must be a whole number, not 'ten'"),
        ({"ARENA_BOT_MEMORY_MB": "-5"}, "limit memory_mb must be a non-negative whole number"),
        ({"ARENA_BOT_MAX_FAULTS": "0"}, "limit max_faults must be at least 1"),
    ],
)
def test_malformed_values_name_the_variable_or_limit(environ, message):
    with pytest.raises(ValueError, match=message):
        Limits.from_env(environ)


def test_replace_makes_a_changed_copy():
    assert Limits().replace(bank_ms=0).bank_ms == 0
