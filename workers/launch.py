"""Starting a bot for a game: unsandboxed (backend ``none``), or under bubblewrap, warm
(forked into its sandbox from the zygote, ``workers/warm_start.py``) when it can be, cold
(bubblewrap runs the bot's command, ``workers/sandbox.py``) otherwise. The warm start builds
on the sandbox, so the choice between them lives above both.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from . import warm_start
from .limits import Limits
from .manifest import BotFiles
from .sandbox import (
    BOT_ENV,
    BotProcess,
    bot_command,
    check_backend,
    claim_uid,
    readable_by_others,
    stage_bot_files,
    start_in_bwrap,
)


def start_bot(
    bot: BotFiles, limits: Limits, backend: str = "bwrap", *, warm: bool | None = None
) -> BotProcess:
    """Start ``bot`` in the sandbox ``backend``; its stdin/stdout/stderr are pipes to us.

    A bot under bubblewrap starts warm (forked into its sandbox from this process's zygote)
    unless ``warm`` is False or ``ARENA_BOT_WARM_START=0``; a warm start that fails falls
    back to a cold start (bubblewrap runs the bot's command).
    """
    return begin_bot(bot, limits, backend, warm=warm).finish()


class Starting:
    """A bot on its way: a warm start's sandbox being built (the other starts are done at
    once). :meth:`finish` waits for it and returns the running bot; :meth:`abandon` stops
    it. A game begins every seat's start before it finishes any: the sandboxes are built
    at the same time, not one after the other."""

    def __init__(self, process: BotProcess, claim=None, warm=None):
        self._process = process
        self._claim = claim
        self._warm = warm  # (zygote, bot, limits, uid, bot_dir, staging) of a warm start

    def finish(self) -> BotProcess:
        process, warm, self._warm = self._process, self._warm, None
        if warm is not None:
            zygote, bot, limits, uid, bot_dir, staging = warm
            try:
                try:
                    process = warm_start.complete(zygote, process, bot, limits, uid, staging)
                except warm_start.ZygoteError as err:  # a cold start is as safe, only slower
                    warm_start.drop(f"warm start failed ({err}); bots start cold in this process")
                    process = start_in_bwrap(bot, limits, uid, bot_dir, staging, None)
            except BaseException:
                self._process = None
                _undo(staging, self._claim)
                raise
        process.uid_claim = self._claim  # released once the sandbox is gone
        self._process = None
        return process

    def abandon(self) -> None:
        """Stop a start that will not be finished (another seat's failed)."""
        if self._process is not None:
            self._process.release()
            self._process = None
            staging = self._warm[5] if self._warm is not None else None
            _undo(staging, self._claim)


def begin_bot(
    bot: BotFiles, limits: Limits, backend: str = "bwrap", *, warm: bool | None = None
) -> Starting:
    """Begin to start ``bot`` (see :func:`start_bot`); :meth:`Starting.finish` ends it."""
    check_backend(backend)
    if backend == "none":
        popen = subprocess.Popen(
            bot_command(bot, limits, inside=False),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(bot.root.parent if bot.single_file else bot.root),
            env=dict(BOT_ENV, HOME=tempfile.gettempdir(), TMPDIR=tempfile.gettempdir()),
            start_new_session=True,
            close_fds=True,
        )
        return Starting(BotProcess(popen, "none"))

    claim = claim_uid()  # a host uid no other live sandbox has (when the runner is root)
    uid = None if claim is None else claim.uid
    staging = None
    bot_dir = bot.root.parent if bot.single_file else bot.root
    try:
        if uid is not None and not readable_by_others(bot, bot_dir):
            staging = stage_bot_files(bot)
            bot_dir = Path(staging) / "bot"
        if warm is None:
            warm = warm_start.enabled()
        zygote = warm_start.zygote_for() if warm else None
        if zygote is not None:
            holder = warm_start.begin(bot, limits, uid, bot_dir)
            return Starting(holder, claim, (zygote, bot, limits, uid, bot_dir, staging))
        return Starting(start_in_bwrap(bot, limits, uid, bot_dir, staging, None), claim)
    except BaseException:
        _undo(staging, claim)
        raise


def _undo(staging: str | None, claim) -> None:
    if staging:
        shutil.rmtree(staging, ignore_errors=True)
    if claim is not None:
        claim.release()
