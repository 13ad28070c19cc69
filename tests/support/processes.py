"""Looking at processes from outside, for the sandbox's tests."""

import contextlib
from pathlib import Path


def cmdline(pid: int) -> bytes:
    """The command line of ``pid`` (NUL-separated), or b"" once it is gone."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    return b""


def running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie waiting to be reaped."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z"
    return False
