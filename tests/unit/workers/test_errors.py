"""Which runner errors fail a game at once, and what the public is told about them."""

from engine import ConfigError
from workers.errors import UNRUNNABLE_BOT, PermanentGameError, public_reason
from workers.manifest import BotSpecError
from workers.sandbox import SandboxError


def test_a_permanent_error_says_its_own_first_line():
    err = PermanentGameError("The artefact of alice/bot v2 is corrupt.\nsha256 mismatch")
    assert public_reason(err) == "The artefact of alice/bot v2 is corrupt."


def test_an_engine_refusal_is_permanent_and_named():
    reason = public_reason(ConfigError("unknown bot 'builder' for toy; built-in bots are random"))
    assert (
        reason
        == "The game cannot be set up: unknown bot 'builder' for toy; built-in bots are random"
    )


def test_an_unrunnable_bot_is_permanent_without_its_server_path():
    reason = public_reason(BotSpecError("bot path '/srv/arena/var/bot-cache/ab12' does not exist"))
    assert reason == UNRUNNABLE_BOT and "/srv" not in reason


def test_a_workers_own_trouble_is_not_permanent():
    assert public_reason(SandboxError("bubblewrap is not installed")) is None
    assert public_reason(OSError("No space left on device")) is None
