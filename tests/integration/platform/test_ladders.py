"""Standing ladders on real workers (Redis broker, PostgreSQL, bubblewrap): uploads join and
play, end ordered by strength, a new version takes over, a crashing one is suspended and its
owner told, challenges go first within their throttle, seats stay balanced, a settled ladder
idles and a new version wakes it."""

import time
from collections import Counter

import pytest

from arena.bots.models import Bot, BotVersion
from arena.bots.services import upload_version
from arena.games.models import Game, GameSeat
from arena.ratings.lines import rating_lines
from arena.ratings.models import Rating, TitleRating
from arena.tournaments import house_ladders, ladders
from arena.tournaments.leaderboard import leaderboard
from arena.tournaments.matchmaking import SEAT_TOLERANCE
from arena.tournaments.models import Entrant, Tournament
from tests.factories import make_user
from tests.integration.platform.ladder_bots import CRASHES_AT_SMALL_TABLES, MEDIUM, STRONG, WEAK
from tests.support.platform import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def upload(owner, name: str, source: bytes) -> BotVersion:
    bot, _ = Bot.objects.get_or_create(owner=owner, title="toy", name=name)
    return upload_version(bot=bot, filename="bot.py", data=source)


def entrant(ladder, version) -> Entrant | None:
    return Entrant.objects.filter(tournament=ladder, bot_version=version).first()


def rated_games(ladder, version) -> int:
    rating = Rating.objects.filter(tournament=ladder, bot_version=version).first()
    return rating.games if rating else 0


def uploads_in_board_order(ladder, versions) -> list[BotVersion]:
    return [row.version for row in leaderboard(ladder) if row.version in versions]


def pause(ladder):
    """Stop the ladder and wait for its running games, so the test reads settled rows."""
    from arena.tournaments.services import pause_tournament

    pause_tournament(ladder.pk)
    wait_for(
        lambda: not ladder.games.filter(status__in=["queued", "running"]).exists(),
        what="the ladder's running games to finish",
    )


@pytest.fixture
def ladder(toy_title):
    """The toy's two-player standing ladder; cancelled at the end, once its running games are
    stored, so the workers leave the database alone while the test's rows are flushed."""
    from arena.tournaments.services import cancel_tournament

    ladder = house_ladders.ensure_standing_ladders(titles=["toy"], players=[2])[0]
    yield ladder
    cancel_tournament(ladder.pk)
    wait_for(
        lambda: not ladder.games.filter(status__in=["queued", "running"]).exists(),
        what="the ladder's running games to finish",
    )


def test_uploads_join_play_and_end_ordered_by_strength_and_a_new_version_takes_over(
    celery_workers, ladder
):
    assert ladder.standing and ladder.status == Tournament.Status.RUNNING
    house = list(ladder.entries.values_list("bot_version__bot__owner__username", flat=True))
    assert house == ["arena", "arena"]  # the built-in random bot, and a copy to fill a table
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    strong, medium, weak = (
        upload(alice, "s", STRONG),
        upload(bob, "m", MEDIUM),
        upload(carol, "w", WEAK),
    )
    for version in (strong, medium, weak):
        wait_for(lambda v=version: entrant(ladder, v), what=f"{version} to join the ladder")
    wait_for(
        lambda: all(rated_games(ladder, v) >= 16 for v in (strong, medium, weak)),
        timeout=240,
        what="16 rated games for every upload",
    )
    # The board settles as games go on; 16 games each almost always suffice, and a rare unlucky
    # run gets until the deadline to come right. A ladder that does not converge still fails.
    wait_for(
        lambda: uploads_in_board_order(ladder, (strong, medium, weak)) == [strong, medium, weak],
        timeout=240,
        what="the board to order the uploads strong, medium, weak",
    )

    better = upload(carol, "w", STRONG + b"# v2\n")
    wait_for(lambda: entrant(ladder, better), what="the new version to join")
    old = entrant(ladder, weak)
    assert old.status == Entrant.Status.REPLACED and "v2" in old.reason
    wait_for(lambda: rated_games(ladder, better) >= 5, what="the new version's first games")
    pause(ladder)
    assert rated_games(ladder, weak) >= 16  # its history stays
    board = leaderboard(ladder)
    assert weak not in [row.version for row in board]
    history = rating_lines([weak.bot_id], tournament=ladder.pk, most=None)
    assert {p["version"] for p in history} == {1, 2}
    assert [p["new_version"] for p in history].count(True) == 2  # a marker at each version
    title = TitleRating.objects.get(bot=weak.bot, players=2)
    assert title.games == rated_games(ladder, weak) + rated_games(ladder, better)
    # Seats: every bot within the stated tolerance over its games (two seats here).
    per_seat = Counter(
        GameSeat.objects.filter(game__tournament=ladder).values_list("bot_version", "seat")
    )
    for entry in ladder.entries.all():
        counts = [per_seat[(entry.bot_version_id, s)] for s in range(2)]
        assert max(counts) - min(counts) <= SEAT_TOLERANCE, (entry, counts)


def test_a_crashing_version_is_suspended_and_its_owner_told(
    celery_workers, ladder, arena_files, client
):
    dave = make_user("dave")
    dave.email = "dave@example.org"
    dave.save()
    version = upload(dave, "fragile", CRASHES_AT_SMALL_TABLES)
    suspended = wait_for(
        lambda: Entrant.objects.filter(
            tournament=ladder, bot_version=version, status=Entrant.Status.SUSPENDED
        ).first(),
        timeout=180,
        what="the crashing version's suspension",
    )
    assert "5 games" in suspended.reason
    seats = GameSeat.objects.filter(game__tournament=ladder, bot_version=version)
    assert seats.exclude(status="ok").count() >= 5
    # The file backend creates a message's file before it writes it: wait for the message.
    assert wait_for(
        lambda: any(
            "dave@example.org" in m and "suspended" in m
            for m in (p.read_text() for p in (arena_files / "mail").glob("*.log"))
        ),
        what="the e-mail to the owner",
    )
    page = client.get(f"/bots/{version.bot_id}/").content.decode()
    assert "v1 is suspended from" in page and "upload a new version" in page
    played = seats.count()
    fixed = upload(dave, "fragile", STRONG)
    wait_for(lambda: rated_games(ladder, fixed) >= 3, what="the fixed version's games")
    assert entrant(ladder, fixed).status == Entrant.Status.ACTIVE  # a new version lifts it
    assert seats.count() - played <= 8  # the suspended version got at most its window's games


def test_challenges_go_ahead_of_ladder_games_and_are_throttled(celery_workers, ladder, settings):
    settings.ARENA_CHALLENGE_GAMES_PER_DAY = 10
    erin = make_user("erin")
    mine = upload(erin, "mine", MEDIUM)
    wait_for(lambda: entrant(ladder, mine), what="the upload to join")
    house = Bot.objects.get(owner__username="arena", title="toy", name="random")
    challenge = ladders.create_challenge(
        requester=erin, ladder=ladder, bot=mine.bot, opponents=[house], games=6
    )
    wait_for(
        lambda: not challenge.games.exclude(status="finished").exists(),
        what="the challenge's games",
    )
    numbers = sorted(challenge.games.values_list("number", flat=True))
    assert numbers == list(range(numbers[0], numbers[0] + 6))
    # No ladder game was sent before the last of the challenge's: they ran ahead.
    last_sent = max(challenge.games.values_list("queued_at", flat=True))
    later = ladder.games.filter(number__gt=numbers[-1])
    assert later.exists() and all(g.queued_at >= last_sent for g in later)
    seats = GameSeat.objects.filter(game__in=challenge.games.all())
    seated = set(seats.values_list("bot_version__bot", flat=True))
    assert seated == {mine.bot_id, house.pk}
    with pytest.raises(ladders.LadderError, match="10 games a day"):
        ladders.create_challenge(
            requester=erin, ladder=ladder, bot=mine.bot, opponents=[house], games=5
        )
    house.accepts_challenges = False
    house.save()
    with pytest.raises(ladders.LadderError, match="does not accept challenges"):
        ladders.create_challenge(
            requester=erin, ladder=ladder, bot=mine.bot, opponents=[house], games=1
        )
    assert Game.objects.filter(challenges__isnull=False).count() == 6


def test_a_settled_ladder_idles_and_wakes_for_a_new_version(celery_workers, ladder):
    """The workers run with the shipped settings (settled at σ 3.0; then a game at most every
    5 minutes, drawn by the beat, which does not run here): the two house bots settle, the
    games in flight finish and no new one is drawn, until an upload joins."""

    def idle():
        settled = not Rating.objects.filter(tournament=ladder, sigma__gt=3.0).exists()
        return settled and not ladder.games.filter(status__in=["queued", "running"]).exists()

    wait_for(idle, timeout=300, what="the house bots to settle and their games to finish")
    played = ladder.games.count()
    time.sleep(3)  # workers that kept drawing would have queued games by now
    assert ladder.games.count() == played and idle()

    newcomer = upload(make_user("fay"), "newcomer", MEDIUM)
    wait_for(lambda: rated_games(ladder, newcomer) >= 20, what="the new version's 20 games")
    assert ladder.games.count() >= played + 20
