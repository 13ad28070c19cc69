"""Writes that span bots, versions and stored artifacts."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction

import engine
from arena import leases, pagecache
from arena.queue import enqueue_validation, enqueue_validations
from workers.errors import PermanentGameError
from workers.match import SeatSpec, ValidationReport, validate_bot

from .artifacts import (
    UploadRefused,
    check_upload,
    runnable_location,
    runnable_path,
    store_artifact,
)
from .models import Bot, BotVersion

log = logging.getLogger("arena.bots")


def create_bot(
    *, owner, title: str, name: str, description: str = "", decision_logs_public: bool = False
) -> Bot:
    """A new bot of ``owner`` for ``title``; ValueError with a message when it cannot be."""
    if title not in engine.titles():
        raise ValueError(f"Unknown title {title!r}; titles are {', '.join(engine.titles())}.")
    name = name.strip()
    if not name:
        raise ValueError("Give the bot a name.")
    if Bot.objects.filter(owner=owner, title=title, name=name).exists():
        raise ValueError(f"You already have a {title} bot named {name!r}; pick another name.")
    return Bot.objects.create(
        owner=owner,
        title=title,
        name=name,
        description=description,
        decision_logs_public=decision_logs_public,
    )


def upload_version(*, bot: Bot, filename: str, data: bytes) -> BotVersion:
    """Check, store and record a new version, and send it for validation on commit.

    Raises UploadRefused (nothing stored) when the upload is refused or is the same artifact
    as an earlier version of this bot.
    """
    artifact = check_upload(filename, data, title=bot.title)
    earlier = bot.versions.filter(sha256=artifact.sha256).first()
    if earlier is not None:
        raise UploadRefused(
            f"This is the same file as version {earlier.number} (sha256 {artifact.sha256[:12]}…); "
            "nothing new was stored."
        )
    path, written = store_artifact(artifact)
    try:
        with transaction.atomic():
            Bot.objects.select_for_update().get(pk=bot.pk)  # serialise version numbers
            version = BotVersion.objects.create(
                bot=bot,
                number=bot.next_version_number(),
                kind=BotVersion.Kind.UPLOAD,
                sha256=artifact.sha256,
                filename=artifact.filename,
                size=len(artifact.data),
                artifact_format=artifact.artifact_format,
                entry=artifact.entry,
            )
            enqueue_validation(version.pk)
    except IntegrityError:
        if written and not BotVersion.objects.filter(sha256=artifact.sha256).exists():
            path.unlink(missing_ok=True)
        raise UploadRefused(
            "This file was uploaded twice at the same moment; it is stored once."
        ) from None
    except BaseException:
        if written and not BotVersion.objects.filter(sha256=artifact.sha256).exists():
            path.unlink(missing_ok=True)
        raise
    log.info("bot.version.uploaded %s", {"bot_id": bot.pk, "version_id": version.pk})
    return version


def add_builtin_version(*, bot: Bot, builtin_name: str) -> BotVersion:
    """A version that runs one of the engine's built-in bots (ready at once: it is trusted)."""
    if builtin_name not in engine.bots(bot.title):
        raise ValueError(
            f"{bot.title} has no built-in bot {builtin_name!r}; "
            f"there are {', '.join(engine.bots(bot.title))}."
        )
    with transaction.atomic():
        Bot.objects.select_for_update().get(pk=bot.pk)
        return BotVersion.objects.create(
            bot=bot,
            number=bot.next_version_number(),
            kind=BotVersion.Kind.BUILTIN,
            builtin_name=builtin_name,
            status=BotVersion.Status.READY,
            reason="built-in bot of the engine",
        )


@dataclass(frozen=True)
class StoredArtifact:
    """An uploaded version's artifact, to ready on this machine before its game is played
    (:func:`ready_artifacts`): where its seat's ``path`` points once readied."""

    sha256: str
    artifact_format: str
    entry: str
    label: str


def planned_seat(version) -> SeatSpec:
    """How the match runner seats a bot version, reading nothing: a built-in bot by name,
    or the version's artifact as a process, at the path :func:`ready_artifacts` readies it
    to. ``version`` is a BotVersion, or anything with its ``kind``, ``builtin_name``,
    ``sha256``, ``artifact_format`` and ``label`` (a worker's claim reads them without the
    ORM)."""
    if version.kind == BotVersion.Kind.BUILTIN:
        return SeatSpec("builtin", version.builtin_name)
    path = runnable_location(version.sha256, version.artifact_format)
    return SeatSpec("process", version.label, path)


def stored_artifact(version) -> StoredArtifact | None:
    """The artifact to ready before ``version`` (as for :func:`planned_seat`) plays; None
    for a built-in bot."""
    if version.kind == BotVersion.Kind.BUILTIN:
        return None
    return StoredArtifact(version.sha256, version.artifact_format, version.entry, version.label)


def ready_artifacts(artifacts: Iterable[StoredArtifact]) -> None:
    """Make every uploaded bot's artifact runnable where its seat says (fetched and checked
    once per machine: ``arena.bots.artifacts.runnable_path``). Raises ArtifactUnavailable
    (a permanent error: the game fails with its reason) when one is missing or damaged."""
    for artifact in artifacts:
        runnable_path(artifact.sha256, artifact.artifact_format, artifact.entry, artifact.label)


def seat_spec(version) -> SeatSpec:
    """:func:`planned_seat`, readied."""
    artifact = stored_artifact(version)
    ready_artifacts([artifact] if artifact else [])
    return planned_seat(version)


def _take_back_validation(version_id: int, now) -> str | None:
    version = (
        BotVersion.objects.select_for_update()
        .filter(
            pk=version_id,
            status=BotVersion.Status.VALIDATING,
            validation_started_at__lt=now - leases.validation_lease(),
        )
        .first()
    )
    if version is None:
        return None  # finished meanwhile
    if leases.gives_up(version.validation_attempts):
        BotVersion.objects.filter(pk=version.pk).update(
            status=BotVersion.Status.REJECTED,
            reason=(
                f"The smoke game was interrupted {version.validation_attempts} times "
                "(a worker stopped while running it). Upload the version again; if "
                "this repeats, ask an organiser to look at the workers."
            ),
            validated_at=now,
        )
        pagecache.changed(bots=(version.bot_id,))
        return "rejected"
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.PENDING, queued_at=now)
    pagecache.changed(bots=(version.bot_id,))
    enqueue_validation(version.pk)
    return "requeued"


VALIDATIONS = leases.LeasedWork(
    name="bot.validations",
    lost=lambda now: BotVersion.objects.filter(
        status=BotVersion.Status.VALIDATING,
        validation_started_at__lt=now - leases.validation_lease(),
    ),
    waiting=lambda stale: BotVersion.objects.filter(
        status=BotVersion.Status.PENDING, queued_at__lt=stale
    ),
    take_back=_take_back_validation,
    enqueue=enqueue_validations,
    outcomes=("requeued", "rejected"),
)


def sweep_validations() -> dict[str, int]:
    """One sweep over validations (``arena.leases``), beside the games': a version whose
    worker was lost (``validating`` beyond its lease) is sent again, or rejected with the
    reason after ARENA_GAME_MAX_ATTEMPTS attempts; a ``pending`` version nobody took is sent
    again."""
    return leases.sweep(VALIDATIONS)


# Uploaded bots never run outside bubblewrap; ARENA_SANDBOX=none is for built-in bots only.
UNSANDBOXED = (
    "This server runs with ARENA_SANDBOX=none, so uploaded bots are never run here; "
    "the operator must install bubblewrap and set ARENA_SANDBOX=bwrap."
)


def refuse_unsandboxed(seats: list[SeatSpec]) -> None:
    """RuntimeError (UNSANDBOXED) when a bot process would run without the sandbox."""
    if settings.ARENA_SANDBOX != "bwrap" and any(s.kind != "builtin" for s in seats):
        raise RuntimeError(UNSANDBOXED)


def smoke_game(title: str, path: str) -> ValidationReport:
    """The match runner's smoke game for an uploaded bot, in the platform's sandbox with
    the platform's limits (``settings.ARENA_BOT_LIMITS``)."""
    if settings.ARENA_SANDBOX != "bwrap":
        return ValidationReport(False, UNSANDBOXED)
    return validate_bot(
        title, path, limits=settings.ARENA_BOT_LIMITS, sandbox=settings.ARENA_SANDBOX
    )


def review_reason(refused: list[str]) -> str:
    """Why a version whose smoke game made refused system calls is flagged ("" if none)."""
    if not refused:
        return ""
    calls = ", ".join(dict.fromkeys(refused))
    return f"its smoke game made system calls the sandbox refuses ({calls})"


def validate_version(version_id: int) -> BotVersion | None:
    """pending -> validating -> ready | rejected, with the smoke game's reason and stderr
    (:func:`smoke_game`: one game in the sandbox against built-in bots). Returns None when
    the version is gone or another worker has it already."""
    version = BotVersion.objects.select_related("bot", "bot__owner").filter(pk=version_id).first()
    if version is None or not version.claim_for_validation():
        log.info("bot.validation.skipped %s", {"version_id": version_id})
        return None
    review = ""
    try:
        report = smoke_game(version.bot.title, seat_spec(version).path)
        ok, reason, stderr = bool(report.ok), report.reason or "", report.stderr or ""
        review = review_reason(report.refused)
    except PermanentGameError as err:  # its artifact is missing or damaged in storage
        ok, reason, stderr = False, str(err), ""
    except Exception as err:  # the validator itself broke: say so, and let the owner retry
        log.exception("bot.validation.error %s", {"version_id": version_id})
        ok, reason, stderr = False, f"The validator failed ({err!r}); upload again later.", ""
    cap = settings.ARENA_BOT_LIMITS.stderr_bytes
    version.finish_validation(
        ok=ok,
        reason=(reason or ("passed a smoke game" if ok else "failed the smoke game"))[:4000],
        stderr=stderr[-cap:] if cap else "",
        review=review,
    )
    log.info("bot.validation.finished %s", {"version_id": version_id, "ok": ok})
    if review:
        log.warning("bot.validation.flagged %s", {"version_id": version_id, "review": review})
    version.refresh_from_db()
    return version
