"""A version whose smoke game makes system calls the sandbox refuses is flagged for review:
it still plays, its owner and the staff see why."""

import pytest

from arena.bots import services as bot_services
from arena.bots.models import BotVersion
from tests.factories import RANDOM_BOT_SOURCE, make_bot, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.sandbox]

# The random bot, after a look at the kernel's keyring (keyctl: refused in the sandbox).
KEYRING_PEEK = (
    "import ctypes\n"
    "ctypes.CDLL(None, use_errno=True).syscall(250, 0, -4, 0)  # KEYCTL_GET_KEYRING_ID\n"
    + RANDOM_BOT_SOURCE
)


def test_a_version_making_refused_calls_is_ready_but_flagged_for_its_owner_and_staff(
    client, toy_title
):
    alice, bob = make_user("alice"), make_user("bob", staff=True)
    bot = make_bot(alice, title="toy", name="peeker")
    version = bot_services.upload_version(bot=bot, filename="bot.py", data=KEYRING_PEEK.encode())
    bot_services.validate_version(version.pk)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.READY
    assert version.review_reason == "its smoke game made system calls the sandbox refuses (keyctl)"
    flag = "Flagged for review: its smoke game made system calls the sandbox refuses (keyctl)"
    for who, sees in ((alice, True), (bob, True), (make_user("carol"), False)):
        client.force_login(who)
        assert (flag in client.get(f"/bots/{bot.pk}/").content.decode()) == sees


def test_a_clean_version_is_not_flagged(toy_title):
    bot = make_bot(make_user("alice"), title="toy", name="clean")
    data = RANDOM_BOT_SOURCE.encode()
    version = bot_services.upload_version(bot=bot, filename="bot.py", data=data)
    bot_services.validate_version(version.pk)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.READY and version.review_reason == ""
