"""The bubblewrap command line: every isolation flag the design promises is there."""

from pathlib import Path

from workers.limits import Limits
from workers.manifest import load_bot
from workers.sandbox import bot_command, bwrap_arguments

BOT = Path(__file__).resolve().parents[2] / "fixtures" / "bots" / "polite.py"


def arguments(**limits):
    bot = load_bot(BOT)
    return bwrap_arguments(BOT.parent, bot, Limits(**limits), status_fd=7, seccomp_fd=8)


def test_namespaces_privileges_and_lifetime():
    args = arguments()
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                 "--new-session", "--clearenv"):  # fmt: skip
        assert flag in args
    assert args[args.index("--cap-drop") + 1] == "ALL"
    assert args[args.index("--seccomp") + 1] == "8"
    assert args[args.index("--json-status-fd") + 1] == "7"
    assert "--share-net" not in args


def test_only_tmp_is_writable_and_it_is_capped():
    args = arguments(tmp_mb=8)
    tmp = args.index("/tmp", args.index("--tmpfs"))
    assert args[tmp - 3 : tmp] == ["--size", str(8 << 20), "--tmpfs"]  # for the next tmpfs
    remounted = [args[i + 1] for i, a in enumerate(args) if a == "--remount-ro"]
    # (a tmpfs of 4 KB hides the host's /proc/pressure, read-only like the rest)
    assert remounted[-2:] == ["/dev", "/"] and set(remounted[:-2]) <= {"/proc/pressure"}
    binds = [args[i + 2] for i, a in enumerate(args) if a == "--bind"]
    assert binds == []  # nothing of the host is mounted writable


def test_a_single_file_bot_sees_only_its_file_at_bot():
    args = arguments()
    i = args.index("/bot/polite.py")
    assert args[i - 2 : i] == ["--ro-bind", str(BOT.parent / "polite.py")]
    assert args[args.index("--chdir") + 1] == "/bot"


def test_the_environment_is_only_what_a_bot_needs():
    args = arguments()
    names = [args[i + 1] for i, a in enumerate(args) if a == "--setenv"]
    assert names == ["PATH", "HOME", "TMPDIR", "LANG"]


def test_limits_are_set_by_prlimit_inside_the_sandbox():
    command = bot_command(load_bot(BOT), Limits(memory_mb=256, processes=16), inside=True)
    assert command[0].endswith("prlimit")
    for flag in ("--as=268435456", "--nproc=16", "--nofile=64", "--core=0", "--cpu=300:301"):
        assert flag in command
    assert command[-6:] == [command[-6], "-E", "-s", "-S", "-B", "/bot/polite.py"]


def test_a_warm_starts_holder_is_the_sandboxs_pid_1_in_the_same_sandbox():
    bot = load_bot(BOT)
    holder = bwrap_arguments(BOT.parent, bot, Limits(), 7, 8, command=["/usr/bin/cat"])
    cold = arguments()
    assert holder[-3:] == ["--as-pid-1", "--", "/usr/bin/cat"]
    assert holder[: holder.index("--as-pid-1")] == cold[: cold.index("--")]
