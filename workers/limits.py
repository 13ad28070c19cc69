"""Limits for bot processes: time control, resources and stream caps, with defaults in one place.

Every limit has an ``ARENA_BOT_*`` environment variable; :meth:`Limits.from_env` reads them
(the platform settings call it once) and refuses malformed values with a message naming the
variable. Tests and the local runner build ``Limits(...)`` directly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace


@dataclass(frozen=True)
class Limits:
    """What one bot process may use in one game."""

    #: Time for one decision; time beyond it is drawn from the bank.
    decision_ms: int = 1000
    #: Extra time for the whole game, spent by decisions that take longer than ``decision_ms``.
    bank_ms: int = 10000
    #: From process start to the ``ready`` message (imports, loading data).
    startup_ms: int = 10000
    #: After ``end``: time to exit on its own before the process is killed.
    shutdown_ms: int = 500
    #: Faults (timeouts, protocol errors, illegal choices) before the seat is disqualified.
    max_faults: int = 3
    #: Address space of each process of the bot (RLIMIT_AS).
    memory_mb: int = 1024
    #: CPU seconds of each process for the whole game (RLIMIT_CPU), a safety net.
    cpu_seconds: int = 300
    #: Processes and threads the bot may run at once (RLIMIT_NPROC, counted in its namespace).
    processes: int = 32
    #: Open file descriptors per process (RLIMIT_NOFILE).
    open_files: int = 64
    #: Largest file the bot may write (RLIMIT_FSIZE).
    file_size_mb: int = 16
    #: Size of the private writable /tmp.
    tmp_mb: int = 64
    #: Longest line the bot may write on stdout; a longer line ends the bot.
    line_bytes: int = 1 << 20
    #: Stderr kept per bot per game (the first half and the last half are kept).
    stderr_bytes: int = 64 << 10

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(
                    f"limit {f.name} must be a non-negative whole number, not {value!r}"
                )
        if self.max_faults < 1:
            raise ValueError("limit max_faults must be at least 1")

    def replace(self, **changes) -> Limits:
        """A copy with some limits changed."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def env_names(cls) -> dict[str, str]:
        """Limit name -> environment variable, e.g. ``decision_ms`` -> ``ARENA_BOT_DECISION_MS``."""
        return {f.name: f"ARENA_BOT_{f.name.upper()}" for f in fields(cls)}

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """Defaults overridden by ``ARENA_BOT_*`` variables; ValueError names a bad variable."""
        environ = os.environ if environ is None else environ
        values = {}
        for name, var in cls.env_names().items():
            raw = environ.get(var)
            if raw is None or raw.strip() == "":
                continue
            try:
                values[name] = int(raw.strip().replace("_", ""))
            except ValueError:
                raise ValueError(f"{var} must be a whole number, not {raw!r}") from None
        try:
            return cls(**values)
        except ValueError as err:
            raise ValueError(f"{err} (from the ARENA_BOT_* environment variables)") from None


DEFAULT_LIMITS = Limits()
