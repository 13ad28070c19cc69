"""The REST API against the ORM alone: p50 / p95 of three reads over 10,000 stored games.

    ARENA_DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena_bench .venv/bin/python bench/api.py

The database (PostgreSQL; it is migrated, and filled once with a bench tournament of
``--games`` synthetic finished games of four seats, their ratings and rating history) must be
one you can spare. Each read is timed ``--runs`` times through Django's full request path
(URL routing, token authentication, throttles, filters, pagination, serializers, JSON), and
the same rows are read as often through the ORM alone (the API's own queryset, filters as
ORM expressions, a slice for the page, the same serializer), the two in turn run after run:

- the games list: one page of 50 filtered by tournament and status, and by tournament, status
  and a bot (in about half the games), pages spread over the whole list;
- a tournament's standings (first page: the tournament, the count, the page);
- a bot version's rating history (one page of 50).

It prints p50 and p95 of each, the API's p50 over the ORM's, the same for this process's CPU
time (less disturbed by a shared machine's load, printed at the start and end), and the
number of SQL statements
each list endpoint runs for a tournament of 1/10 the games and for the whole one (they should
be equal: no statement per row).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
os.environ.setdefault("ARENA_DEBUG", "false")
os.environ.setdefault("ARENA_SECRET_KEY", "bench-only-" + "x" * 40)
os.environ.setdefault("ARENA_ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Exists, OuterRef  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from arena.api.serializers import GameSerializer, RatingChangeSerializer, RatingSerializer  # noqa: E402
from arena.api.views import GameViewSet  # noqa: E402
from arena.bots.models import Bot, BotVersion  # noqa: E402
from arena.games.models import Game, GameSeat  # noqa: E402
from arena.ratings.models import Rating, RatingChange  # noqa: E402
from arena.tournaments.models import Entrant, Tournament  # noqa: E402

BENCH = "API bench"
SEATS = 4
ENTRANTS = 8


def fill(name: str, games: int) -> Tournament:
    """A finished tournament of ``games`` synthetic games (made once, then reused)."""
    found = Tournament.objects.filter(name=name).first()
    if found is not None and found.games.count() == games:
        return found
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="bench")
    rng = random.Random(7)
    with transaction.atomic():
        Tournament.objects.filter(name=name).delete()
        versions = []
        for i in range(ENTRANTS):
            bot, _ = Bot.objects.get_or_create(owner=user, title="citadels", name=f"bench-{i}")
            version = bot.versions.first() or BotVersion.objects.create(
                bot=bot, number=1, kind="builtin", builtin_name="random", status="ready"
            )
            versions.append(version)
        t = Tournament.objects.create(
            organiser=user, name=name, title="citadels", seats=SEATS, status="finished"
        )
        Entrant.objects.bulk_create(Entrant(tournament=t, bot_version=v) for v in versions)
        ratings = Rating.objects.bulk_create(
            Rating(tournament=t, bot_version=v, mu=25, sigma=8.3, ordinal=0) for v in versions
        )
        now = timezone.now()
        rows = Game.objects.bulk_create(
            Game(
                tournament=t, number=n, seed=n, status="finished", attempts=1, match_ms=40,
                finished_at=now, rated=True, engine_version="bench", rules_version="1",
            )
            for n in range(1, games + 1)
        )  # fmt: skip
        seats, changes = [], []
        for game in rows:
            table = rng.sample(range(ENTRANTS), SEATS)
            scores = [rng.randrange(10, 40) for _ in table]
            for seat, entrant in enumerate(table):
                rank = 1 + sum(s > scores[seat] for s in scores)
                seats.append(
                    GameSeat(
                        game=game, seat=seat, bot_version=versions[entrant],
                        score=scores[seat], rank=rank, rating_rank=rank, winner=rank == 1,
                    )
                )  # fmt: skip
                changes.append(
                    RatingChange(
                        rating=ratings[entrant], game=game, mu_before=25, sigma_before=8,
                        mu=25, sigma=8, ordinal=1,
                    )
                )  # fmt: skip
        GameSeat.objects.bulk_create(seats, batch_size=5000)
        RatingChange.objects.bulk_create(changes, batch_size=5000)
        for rating in ratings:
            rating.games = sum(1 for c in changes if c.rating is rating)
        Rating.objects.bulk_update(ratings, ["games"])
    return t


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def orm_games(t, version, page):
    games = GameViewSet.queryset.filter(tournament=t, status="finished")  # the API's own
    if version is not None:
        played = GameSeat.objects.filter(game=OuterRef("pk"), bot_version__bot_id=version.bot_id)
        games = games.filter(Exists(played))
    count = games.count()
    return count, GameSerializer(list(games[page * 50 : page * 50 + 50]), many=True).data


def orm_standings(tournament_id: int):
    """What the standings answer holds: the tournament (or a 404), the count, a page."""
    tournament = Tournament.objects.get(pk=tournament_id)
    ratings = Rating.objects.filter(tournament=tournament)
    page = ratings.select_related("bot_version__bot__owner").order_by("-ordinal", "bot_version_id")
    return ratings.count(), RatingSerializer(list(page[:50]), many=True).data


def timed_pair(first, second, runs: int) -> tuple[list[float], ...]:
    """Both reads timed in turn, run after run, so that the load of a shared machine falls
    on both alike: wall ms of each, then this process's CPU ms of each (the database
    server's CPU is not in it; waiting for a core is not either)."""
    samples: tuple[list[float], ...] = ([], [], [], [])
    for i in range(runs):
        for n, read in enumerate((first, second)):
            start, cpu = time.perf_counter(), time.process_time()
            read(i)
            samples[n].append((time.perf_counter() - start) * 1000)
            samples[n + 2].append((time.process_time() - cpu) * 1000)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("set ARENA_DATABASE_URL to a PostgreSQL database you can spare", file=sys.stderr)
        return 2
    call_command("migrate", verbosity=0)
    settings.ARENA_THROTTLE_RATES = {k: "100000000/second" for k in settings.ARENA_THROTTLE_RATES}
    t = fill(BENCH, args.games)
    small = fill(BENCH + " (1/10)", args.games // 10)
    with connection.cursor() as cursor:  # as autovacuum would: plans from real statistics
        cursor.execute("ANALYZE")
    version = t.entries.first().bot_version
    rating = Rating.objects.get(tournament=t, bot_version=version)
    pages = max(1, Game.objects.filter(tournament=t, seats__bot_version=version).count() // 50)
    client = Client()
    token = Token.objects.get_or_create(user=t.organiser)[0].key
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}

    def api(path):
        response = client.get(path, **auth)
        assert response.status_code == 200, response.content[:300]
        return response.content

    def games_url(tournament, page, bot=True):
        url = f"/api/v1/games/?tournament={tournament.pk}&status=finished&page={page + 1}"
        return url + f"&bot={version.bot_id}" if bot else url

    cases = {
        "games list (tournament, status)": (
            lambda i: api(games_url(t, i % pages, bot=False)),
            lambda i: orm_games(t, None, i % pages),
        ),
        "games list (tournament, status, bot)": (
            lambda i: api(games_url(t, i % pages)),
            lambda i: orm_games(t, version, i % pages),
        ),
        "standings": (
            lambda i: api(f"/api/v1/tournaments/{t.pk}/standings/"),
            lambda i: orm_standings(t.pk),
        ),
        "rating history (page of 50)": (
            lambda i: api(f"/api/v1/ratings/{rating.pk}/history/?page={1 + i % 20}"),
            lambda i: (
                RatingChange.objects.filter(rating=rating).count(),
                RatingChangeSerializer(
                    list(
                        RatingChange.objects.filter(rating=rating)
                        .select_related("game")
                        .order_by("game__number")[(i % 20) * 50 : (i % 20) * 50 + 50]
                    ),
                    many=True,
                ).data,
            ),
        ),
    }
    load = os.getloadavg()[0]
    print(
        f"{args.games} stored games, {args.runs} runs each; load average {load:.2f} on "
        f"{os.cpu_count()} CPUs (a shared machine: wall times are noisy, ratios less so)"
    )
    print(
        f"{'read (wall, then CPU of this process)':<36}{'API p50':>9}{'p95':>9}{'ORM p50':>9}"
        f"{'p95':>9}{'API/ORM':>9}{'API cpu':>9}{'ORM cpu':>9}{'ratio':>9}"
    )
    for name, (through_api, through_orm) in cases.items():
        through_api(0), through_orm(0)  # warm caches and connections
        api_wall, orm_wall, api_cpu, orm_cpu = timed_pair(through_api, through_orm, args.runs)
        api_p50, api_p95 = percentiles(api_wall)
        orm_p50, orm_p95 = percentiles(orm_wall)
        cpu_api, cpu_orm = percentiles(api_cpu)[0], percentiles(orm_cpu)[0]
        print(
            f"{name:<36}{api_p50:>7.1f}ms{api_p95:>7.1f}ms{orm_p50:>7.1f}ms{orm_p95:>7.1f}ms"
            f"{api_p50 / orm_p50:>8.2f}x{cpu_api:>7.1f}ms{cpu_orm:>7.1f}ms"
            f"{cpu_api / cpu_orm:>8.2f}x"
        )
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    print("SQL statements per request, 1/10 of the games vs all of them:")
    small_rating = Rating.objects.get(tournament=small, bot_version__bot=version.bot)
    for label, make in [
        ("games list", lambda tt, rr: games_url(tt, 0)),
        ("games list (no filter)", lambda tt, rr: "/api/v1/games/"),
        ("standings", lambda tt, rr: f"/api/v1/tournaments/{tt.pk}/standings/"),
        ("rating history", lambda tt, rr: f"/api/v1/ratings/{rr.pk}/history/"),
        ("ratings", lambda tt, rr: f"/api/v1/ratings/?tournament={tt.pk}"),
        ("tournaments", lambda tt, rr: "/api/v1/tournaments/"),
        ("bots", lambda tt, rr: "/api/v1/bots/"),
        ("bot versions", lambda tt, rr: "/api/v1/bot-versions/"),
    ]:
        counts = []
        for tt, rr in ((small, small_rating), (t, rating)):
            with CaptureQueriesContext(connection) as queries:
                api(make(tt, rr))
            counts.append(len(queries))
        print(f"  {label:<24}{counts[0]:>4} vs {counts[1]:>4}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
