"""Standing ladders: a ladder per title and player count that never closes, which every bot's
newest ready version joins, with the house bots as yardsticks; matchmaking tops it up a
window at a time; challenges go ahead of its own games; a bot whose games keep faulting is
suspended. See docs/ladders.md.

Every change to a ladder's entrants or games takes the tournament's row lock first, as the
stores and the sweeper do."""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q, Sum
from django.urls import reverse
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat, undone_games
from arena.ratings.models import Rating
from arena.ratings.services import ensure_ratings
from arena.sql import RoundTrip, rewrite

from . import matchmaking, queueing, scheduling
from .models import Challenge, Entrant, Tournament

log = logging.getLogger("arena.ladders")

SEATED = (Entrant.Status.ACTIVE, Entrant.Status.SUSPENDED, Entrant.Status.WITHDRAWN)


# A ladder's player count, on the web form and over the API (the title's range applies too).
PLAYERS_MIN, PLAYERS_MAX = 2, 12


class LadderError(ValueError):
    """A ladder request that is refused; the message says why and what to do, and ``field``
    names the argument at fault (``bot``, ``opponents``, ``games``)."""

    def __init__(self, message: str, field: str = "bot"):
        super().__init__(message)
        self.field = field


class ChallengeLimit(LadderError):
    """The player has asked for as many challenge games as the day allows."""


def policy() -> matchmaking.Policy:
    return matchmaking.Policy(
        settled_sigma=settings.ARENA_LADDER_SETTLED_SIGMA,
        neighbours=settings.ARENA_LADDER_NEIGHBOURS,
        exploration=settings.ARENA_LADDER_EXPLORATION_PERCENT / 100,
    )


def standing_ladders(title_id: str | None = None):
    ladders = Tournament.objects.filter(standing=True).exclude(
        status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
    )
    return ladders.filter(title=title_id) if title_id else ladders


# -- joining, withdrawing, suspension ----------------------------------------------------------


def join_ladders(version: BotVersion) -> list[int]:
    """A version that has just become ready joins every open standing ladder of its title,
    taking over from its bot's previous version there (whose games and ratings stay, as
    ``replaced``); a suspension or withdrawal of the bot ends with it. Returns the ladders'
    ids."""
    if version.status != BotVersion.Status.READY:
        return []
    joined = []
    for ladder_id in standing_ladders(version.bot.title).values_list("id", flat=True):
        with transaction.atomic():
            ladder = Tournament.objects.select_for_update().get(pk=ladder_id)
            if ladder.entries.filter(bot_version=version).exists():
                continue
            now = timezone.now()
            ladder.entries.filter(bot_version__bot=version.bot_id, status__in=SEATED).update(
                status=Entrant.Status.REPLACED,
                reason=f"replaced by v{version.number}",
                left_at=now,
            )
            Entrant.objects.create(tournament=ladder, bot_version=version, joined_at=now)
            ensure_ratings(ladder)
            top_up(ladder)
            joined.append(ladder_id)
    if joined:
        log.info("ladder.joined %s", {"version_id": version.pk, "ladders": joined})
    return joined


def withdraw(ladder: Tournament, bot: Bot) -> Entrant:
    """The owner takes the bot off the ladder: its current version plays no new ladder game
    (games already queued finish); a new version of the bot joins again."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=ladder.pk)
        entrant = (
            ladder.entries.filter(bot_version__bot=bot)
            .exclude(status=Entrant.Status.REPLACED)
            .order_by("-id")
            .first()
        )
        if entrant is None or entrant.status == Entrant.Status.WITHDRAWN:
            raise LadderError(f"{bot.name} is not on {ladder.name}.")
        entrant.status, entrant.reason = Entrant.Status.WITHDRAWN, "withdrawn by its owner"
        entrant.left_at = timezone.now()
        entrant.save(update_fields=["status", "reason", "left_at"])
    return entrant


def suspend_faulting(ladder: Tournament, versions: tuple[int, ...]) -> list[Entrant]:
    """Suspend each uploaded version of ``versions`` (they faulted in the game just stored)
    whose last ARENA_LADDER_SUSPEND_AFTER_FAULTS ladder games all faulted (a crash, a
    time-out, a failed start); its owner is told by e-mail once the transaction commits."""
    needed = settings.ARENA_LADDER_SUSPEND_AFTER_FAULTS
    suspended = []
    entrants = ladder.entries.filter(
        bot_version__in=versions, status=Entrant.Status.ACTIVE, bot_version__kind="upload"
    ).select_related("bot_version__bot__owner")
    for entrant in entrants:
        last = list(
            GameSeat.objects.filter(
                game__tournament=ladder,
                bot_version=entrant.bot_version_id,
                game__status=Game.Status.FINISHED,
            )
            .order_by("-game__finished_at", "-game_id")
            .values_list("status", flat=True)[:needed]
        )
        if len(last) < needed or GameSeat.Status.OK in last:
            continue
        entrant.status = Entrant.Status.SUSPENDED
        entrant.reason = (
            f"its last {needed} games on this ladder all faulted (a crash, a time-out or a "
            "failed start); read their stderr logs, fix the bot and upload a new version, "
            "which lifts the suspension"
        )
        entrant.left_at = timezone.now()
        entrant.save(update_fields=["status", "reason", "left_at"])
        transaction.on_commit(_Notice(entrant.pk))
        suspended.append(entrant)
        log.warning("ladder.suspended %s", {"entrant_id": entrant.pk, "ladder": ladder.pk})
    return suspended


class _Notice:
    """The e-mail to a suspended bot's owner, sent after commit (a failed send is logged:
    the bot page says the same)."""

    def __init__(self, entrant_id: int):
        self.entrant_id = entrant_id

    def __call__(self) -> None:
        entrant = Entrant.objects.select_related("tournament", "bot_version__bot__owner").get(
            pk=self.entrant_id
        )
        owner = entrant.bot_version.bot.owner
        if not owner.email:
            return
        bot_url = reverse("bot", args=[entrant.bot_version.bot_id])
        try:
            send_mail(
                f"{entrant.bot_version.label} is suspended from {entrant.tournament.name}",
                f"Your bot {entrant.bot_version.label} was suspended from "
                f"{entrant.tournament.name}: {entrant.reason}.\n\nIts page: {bot_url}\n",
                None,
                [owner.email],
            )
        except Exception:  # the mail server is down: the bot page still says it
            log.exception("ladder.notice.failed %s", {"entrant_id": self.entrant_id})


# -- challenges --------------------------------------------------------------------------------


def create_challenge(
    *, requester, ladder: Tournament, bot: Bot, opponents: list[Bot], games: int
) -> Challenge:
    """``games`` games now on the ladder between ``bot``'s current version and the
    ``opponents``' (each table: the bot and ``seats - 1`` of them, in turn), queued ahead of
    the ladder's own games. LadderError says why one is refused (not the owner, not on the
    ladder, opted out, over the per-player limit)."""
    if not bot.can_edit(requester):
        raise LadderError("Only the bot's owner may challenge with it.")
    if not 1 <= games <= settings.ARENA_CHALLENGE_MAX_GAMES:
        raise LadderError(f"Ask for 1 to {settings.ARENA_CHALLENGE_MAX_GAMES} games.", "games")
    if bot in opponents or len(set(opponents)) != len(opponents):
        raise LadderError("Name each opponent once, and not the challenging bot.", "opponents")
    if len(opponents) < ladder.seats - 1:
        raise LadderError(
            f"{ladder.seats}-player games need at least {ladder.seats - 1} opponents.",
            "opponents",
        )
    for opponent in opponents:
        if not (opponent.accepts_challenges or opponent.owner_id == requester.pk):
            raise LadderError(f"{opponent.name} does not accept challenges.", "opponents")
    _within_daily_limit(requester, games)
    with transaction.atomic():
        ladder = _running(ladder)
        seated = {e.bot_version.bot_id: e for e in _active(ladder)}
        for b in [bot, *opponents]:
            if b.pk not in seated:
                raise LadderError(
                    f"{b.name} has no active version on {ladder.name}.",
                    "bot" if b == bot else "opponents",
                )
        entrants = [seated[bot.pk]] + [seated[o.pk] for o in opponents]
        return _queue_challenge(ladder, requester, entrants, games)


def challenge_previous_version(*, requester, ladder: Tournament, bot: Bot, games: int) -> Challenge:
    """ "Did my change help?": ``games`` challenge games on the ladder between ``bot``'s
    current version and its previous version there (the newest older one rated in a game on
    the ladder, its rating there carried on, though it was replaced), with the challenge's
    every other rule. On a ladder of more than two seats, the others are the active bots
    nearest the current version's rating that accept challenges, the same at every table.
    LadderError says why one is refused."""
    if not bot.can_edit(requester):
        raise LadderError("Only the bot's owner may challenge with it.")
    if not 1 <= games <= settings.ARENA_CHALLENGE_MAX_GAMES:
        raise LadderError(f"Ask for 1 to {settings.ARENA_CHALLENGE_MAX_GAMES} games.", "games")
    _within_daily_limit(requester, games)
    with transaction.atomic():
        ladder = _running(ladder)
        active = _active(ladder)
        current = next((e for e in active if e.bot_version.bot_id == bot.pk), None)
        if current is None:
            raise LadderError(f"{bot.name} has no active version on {ladder.name}.")
        previous = (
            ladder.entries.filter(
                bot_version__bot=bot,
                bot_version__number__lt=current.bot_version.number,
                bot_version__status=BotVersion.Status.READY,
                bot_version__ratings__tournament=ladder,
                bot_version__ratings__games__gt=0,
            )
            .select_related("bot_version")
            .order_by("-bot_version__number")
            .first()
        )
        if previous is None:
            raise LadderError(
                f"{bot.name} has no earlier version that played on {ladder.name}.", "opponents"
            )
        ratings = dict(
            Rating.objects.filter(tournament=ladder).values_list("bot_version_id", "ordinal")
        )
        mine = ratings.get(current.bot_version_id, 0.0)
        willing = set(
            Bot.objects.filter(Q(accepts_challenges=True) | Q(owner=requester))
            .filter(pk__in=[e.bot_version.bot_id for e in active])
            .exclude(pk=bot.pk)
            .values_list("pk", flat=True)
        )
        others = sorted(
            (e for e in active if e.bot_version.bot_id in willing),
            key=lambda e: (abs(ratings.get(e.bot_version_id, 0.0) - mine), e.pk),
        )[: ladder.seats - 2]
        if len(others) < ladder.seats - 2:
            raise LadderError(
                f"{ladder.seats}-player games need {ladder.seats - 2} more bots that accept "
                "challenges beside the two versions.",
                "opponents",
            )
        return _queue_challenge(ladder, requester, [current, previous, *others], games)


def _within_daily_limit(requester, games: int) -> None:
    since = timezone.now() - timedelta(days=1)
    recent = (
        Challenge.objects.filter(requester=requester, created__gte=since).aggregate(
            n=Sum("game_count")
        )["n"]
        or 0
    )
    allowed = settings.ARENA_CHALLENGE_GAMES_PER_DAY
    if recent + games > allowed:
        raise ChallengeLimit(
            f"Challenges are limited to {allowed} games a day per player; you asked for "
            f"{recent} in the last 24 hours, so {max(0, allowed - recent)} more can run now."
        )


def _running(ladder: Tournament) -> Tournament:
    """The ladder's row, locked; refused unless it is running."""
    ladder = Tournament.objects.select_for_update().get(pk=ladder.pk)
    if ladder.status != Tournament.Status.RUNNING:
        raise LadderError(f"{ladder.name} is {ladder.status}; challenges need it running.")
    return ladder


def _queue_challenge(ladder, requester, entrants: list[Entrant], games: int) -> Challenge:
    """The challenge of ``entrants[0]`` against the others: each table seats it and
    ``seats - 1`` of them, in turn; its games queued ahead of the ladder's own."""
    opponents = len(entrants) - 1
    challenge = Challenge.objects.create(
        tournament=ladder,
        requester=requester,
        bot_version=entrants[0].bot_version,
        game_count=games,
    )
    challenge.opponents.set([e.bot_version for e in entrants[1:]])
    tables = []
    for k in range(games):
        rivals = [1 + (k + j) % opponents for j in range(ladder.seats - 1)]
        tables.append([0, *rivals])
    ids = _plan(ladder, entrants, tables, send=False)
    challenge.games.set(ids)
    top_up(ladder)  # queues the first of them now, ahead of any new ladder game
    log.info("ladder.challenge %s", {"challenge_id": challenge.pk, "games": games})
    return challenge


# -- matchmaking ----------------------------------------------------------------------------------


def _active(ladder: Tournament) -> list[Entrant]:
    """The entrants matchmaking seats: active, with a version still ready (one its owner
    withdrew through the versions' API plays no new game)."""
    return list(
        ladder.entries.filter(
            status=Entrant.Status.ACTIVE, bot_version__status=BotVersion.Status.READY
        )
        .select_related("bot_version")
        .order_by("id")
    )


def top_up(ladder: Tournament, *, faulted: tuple[int, ...] = ()) -> int:
    """Fill the ladder's window (ARENA_LADDER_IN_FLIGHT games queued or running): first
    with scheduled challenge games, lowest number first, then with new games drawn by
    :mod:`matchmaking` among the active entrants; once every one of them has settled, new
    games only at the background rate (:func:`idle_room`). Called with the ladder's row
    locked (after each stored game: ``faulted``, the versions whose seat in it faulted, may
    be suspended). Returns how many games it sent."""
    if ladder.status != Tournament.Status.RUNNING:
        return 0
    if faulted:
        suspend_faulting(ladder, faulted)
    # Two probes of small indexes rather than one pass over every game the ladder played:
    # the games still to play (game_undone_seed), the last number (game_number_unique).
    in_flight = ladder.games.filter(
        undone_games(), status__in=[Game.Status.QUEUED, Game.Status.RUNNING]
    ).count()
    last = ladder.games.aggregate(last=Max("number"))["last"]
    room = queueing.window(ladder) - in_flight
    if room <= 0:
        return 0
    with RoundTrip() as trip:
        queued = queueing.queue_next_game(trip, ladder.pk, games=room)
    sent = queueing.send_queued(queued)
    room -= sent
    entrants = _active(ladder)
    if room <= 0 or len(entrants) < ladder.seats:
        return sent
    ratings = {
        r.bot_version_id: r
        for r in Rating.objects.filter(
            tournament=ladder, bot_version__in=[e.bot_version_id for e in entrants]
        )
    }
    if settled(ratings.values()):
        room = min(room, idle_room(ladder, in_flight + sent))
        if room <= 0:
            return sent
    contenders = [
        matchmaking.Contender(
            mu=ratings[e.bot_version_id].mu,
            sigma=ratings[e.bot_version_id].sigma,
            planned_games=e.planned_games,
            seat_games=tuple(e.seat_games),
        )
        for e in entrants
    ]
    first = (last or 0) + 1  # after every game, challenge games scheduled included
    rules = policy()
    tables = []
    for number in range(first, first + room):
        rng = random.Random(scheduling.game_seed(ladder.seed, "ladder", number))
        seating = matchmaking.pick_table(contenders, ladder.seats, rng, rules)
        tables.append(seating)
        for seat, i in enumerate(seating):
            contenders[i] = _planned(contenders[i], seat, ladder.seats)
    _plan(ladder, entrants, tables, send=True, balanced=True, first=first)
    return sent + len(tables)


def settled(ratings) -> bool:
    """Whether every rating (of a ladder's active entrants) has settled: σ at most
    ARENA_LADDER_SETTLED_SIGMA, the threshold matchmaking's provisional rule uses too."""
    return all(r.sigma <= settings.ARENA_LADDER_SETTLED_SIGMA for r in ratings)


def idle_room(ladder: Tournament, in_flight: int) -> int:
    """New games a settled ladder may draw now: one, when none is queued or running and
    the last was queued at least an hour / ARENA_LADDER_IDLE_GAMES_PER_HOUR ago; none at a
    rate of 0. More games would only confirm ratings that no longer move."""
    rate = settings.ARENA_LADDER_IDLE_GAMES_PER_HOUR
    if rate == 0 or in_flight:
        return 0
    last = ladder.games.order_by("-number").values_list("queued_at", flat=True).first()
    if last is not None and timezone.now() - last < timedelta(hours=1) / rate:
        return 0
    return 1


def pace_idle_ladders() -> int:
    """The beat's tick for ladders with nothing in flight (settled ones, at their background
    rate): each running standing ladder without a game queued or running is topped up.
    Returns the games sent."""
    busy = Game.objects.filter(
        undone_games(),
        tournament=OuterRef("pk"),
        status__in=[Game.Status.QUEUED, Game.Status.RUNNING],
    )
    idle = standing_ladders().filter(status=Tournament.Status.RUNNING).exclude(Exists(busy))
    sent = 0
    for ladder_id in list(idle.values_list("id", flat=True)):
        with transaction.atomic():
            sent += top_up(Tournament.objects.select_for_update().get(pk=ladder_id))
    return sent


def _planned(contender: matchmaking.Contender, seat: int, seats: int) -> matchmaking.Contender:
    counts = list(contender.seat_games) + [0] * (seats - len(contender.seat_games))
    counts[seat] += 1
    return replace(contender, planned_games=contender.planned_games + 1, seat_games=tuple(counts))


def _plan(
    ladder, entrants, tables, *, send: bool, balanced: bool = False, first: int | None = None
) -> list[int]:
    """Create the games of ``tables`` (entrant indexes; seated as given when ``balanced``,
    else balanced over the entrants' seats here) numbered after the ladder's last, and count
    them in the entrants' planned games (``first``: the next free number, when known). Their
    ids."""
    if first is None:
        first = (ladder.games.aggregate(last=Max("number"))["last"] or 0) + 1
    counts = {
        i: list(e.seat_games) + [0] * (ladder.seats - len(e.seat_games))
        for i, e in enumerate(entrants)
    }
    planned = []
    for k, table in enumerate(tables):
        number = first + k
        if not balanced:
            rng = random.Random(scheduling.game_seed(ladder.seed, "seats", number))
            table = matchmaking.balance_seats([counts[i] for i in table], table, rng)
        for seat, i in enumerate(table):
            counts[i][seat] += 1
        planned.append(
            scheduling.PlannedGame(
                number, scheduling.game_seed(ladder.seed, "game", number), tuple(table)
            )
        )
    versions = [e.bot_version for e in entrants]
    ids = queueing.create_games(ladder, planned, versions, first_number=first, send=send)
    changed = []
    for i, entrant in enumerate(entrants):
        if counts[i] != list(entrant.seat_games) + [0] * (ladder.seats - len(entrant.seat_games)):
            entrant.planned_games += sum(counts[i]) - sum(entrant.seat_games)
            entrant.seat_games = counts[i]
            changed.append(entrant)
    rewrite(Entrant, changed, ["planned_games", "seat_games"])
    return ids
