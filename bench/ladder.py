"""Standing ladders: how fast a new version gets its first games, how busy the workers stay,
and how well the leaderboard orders bots of known strength.

    .venv/bin/python bench/ladder.py [--title citadels] [--players 4] [--bots 20]
                                     [--first-games 20] [--games 2000] [--part both|workers|order]

Needs PostgreSQL and Redis on 127.0.0.1. It drops and makes again the database
``ARENA_BENCH_DATABASE`` (default ``arena_ladder_bench``) and uses Redis database
``ARENA_BENCH_REDIS_DB`` (default 9).

1. **Workers** (real: a Celery worker with 2 processes, the sandbox, PostgreSQL, Redis). A
   standing ladder of ``--bots`` bots (the house bots and copies of the built-ins) plays until
   40 games are stored, so the workers are busy. Then the Python starter kit is uploaded as
   a new bot. The bench prints the time from the upload to its ``--first-games``-th stored
   game (validation included; target ≤ 2 min) and, over that same stretch, the worker
   utilisation (target ≥ 90 %): the share of the two pool processes' time spent inside a
   task, from the ``succeeded in`` times in the worker's log. Beside it, the shares spent
   holding a game (claim to the store's first statement) and in the match runner.
2. **Order** (in-process, no sandbox, no database: quick). ``--games`` ladder games among
   bots of known strength: the built-in ``builder`` bot, and copies that play a uniformly random
   option with probability p (0.1, 0.2, … up to 1, which is the random bot: 11 bots), so a higher p is
   a weaker bot. Tables are drawn by the ladder's own matchmaking (``pick_table``) and rated
   by its own rating update (``arena.ratings.services._rate_game``). Ratings lag by the
   ladder's window (ARENA_LADDER_IN_FLIGHT games planned before the oldest is rated), as on
   the workers. It prints Kendall τ between the leaderboard's order (μ − 3σ) and the known
   order (target ≥ 0.9).

The machine may be shared with other work, so part 1's figures depend on what that work
leaves free: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections import deque
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("ARENA_BENCH_DATABASE", "arena_ladder_bench")
os.environ.setdefault("ARENA_BENCH_REDIS_DB", "9")

import platform_path as shared  # noqa: E402  (sets the settings' environment first)

WARM_UP_GAMES = 40
WEAKENED = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def main() -> int:
    args = _parser().parse_args()
    shared._fresh_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared)")
    if args.part in ("both", "workers"):
        _workers_part(args)
    if args.part in ("both", "order"):
        _order_part(args)
    return 0


# -- 1. a new version on a busy ladder, real workers --------------------------------------------


def _workers_part(args) -> None:
    import redis
    from django.contrib.auth import get_user_model

    import engine
    from arena.bots import services as bots
    from arena.games.models import Game, GameSeat
    from arena.tournaments import house_ladders
    from arena.tournaments.services import cancel_tournament
    from arena.web.kits import find_kit, kit_zip

    redis.Redis.from_url(os.environ["ARENA_BROKER_URL"]).flushdb()
    owner = get_user_model().objects.create_user("bench")
    # The quick built-ins only: a search bot (about 1 s a decision) would slow every table.
    builtins = engine.bots(args.title, thinking=False)
    house = len(house_ladders.house_versions(args.title, args.players, thinking=False))
    for i in range(args.bots - house):
        bot = bots.create_bot(owner=owner, title=args.title, name=f"copy-{i}")
        bots.add_builtin_version(bot=bot, builtin_name=builtins[i % len(builtins)])
    ladder = house_ladders.create_ladder(
        organiser=owner,
        name="bench ladder",
        title=args.title,
        players=args.players,
        thinking=False,
    )
    print(
        f"1. {ladder.entries.count()} bots on a {args.players}-player {args.title} ladder, "
        "a Celery worker with 2 processes"
    )
    with shared._worker(2):
        finished = ladder.games.filter(status=Game.Status.FINISHED)
        _wait(lambda: finished.count() >= WARM_UP_GAMES, "the warm-up games")
        bot = bots.create_bot(owner=owner, title=args.title, name="newcomer")
        uploaded = time.monotonic()
        data = kit_zip(find_kit(f"{args.title}-python"))
        version = bots.upload_version(bot=bot, filename="kit.zip", data=data)
        start = version.created
        seats = GameSeat.objects.filter(
            bot_version=version, game__tournament=ladder, game__status=Game.Status.FINISHED
        )
        _wait(lambda: seats.count() >= args.first_games, "the new version's games", 900)
        waited = time.monotonic() - uploaded
        last = max(
            s.game.finished_at
            for s in seats.select_related("game").order_by("game__finished_at")[: args.first_games]
        )
        version.refresh_from_db()
        holding = _holding_seconds(ladder, version, start, last)
        in_match = _match_seconds(ladder, start, last)
        cancel_tournament(ladder.pk)
    busy = _task_seconds(shared.ROOT / "var" / "bench" / "worker.log", start, last)
    window = (last - start).total_seconds()
    print(
        f"   new version: validated in {(version.validated_at - start).total_seconds():.1f} s, "
        f"its first {args.first_games} games stored {window:.1f} s after the upload "
        f"(bench's clock: {waited:.1f} s; target <= 120 s)"
    )
    share = 100 / (2 * window)
    print(
        f"   worker utilisation over that time: {share * busy:.1f} % of the 2 processes' time "
        f"inside a task (Celery's task times; target >= 90 %; load average "
        f"{os.getloadavg()[0]:.1f})"
    )
    print(
        f"   of which holding a game from claim to store {share * holding:.1f} %, in the match "
        f"runner {share * in_match:.1f} % (the rest: the store's ratings and top-up, the claim)"
    )


def _task_seconds(log_path: Path, start, end) -> float:
    """Seconds the worker's pool processes spent inside tasks within [start, end], from the
    ``succeeded in`` lines of its log (their stamps are the machine's local time)."""
    done = re.compile(r"^\[(\S+ \S+): INFO/ForkPoolWorker-\d+\] Task .* succeeded in ([0-9.e-]+)s")
    total = 0.0
    for line in log_path.read_text(errors="replace").splitlines():
        found = done.match(line)
        if not found:
            continue
        finish = datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S,%f").astimezone()
        begin = finish - timedelta(seconds=float(found.group(2)))
        total += max(0.0, (min(finish, end) - max(begin, start)).total_seconds())
    return total


def _match_seconds(ladder, start, end) -> float:
    """Seconds in the match runner of the ladder's games stored within [start, end]."""
    games = ladder.games.filter(finished_at__gte=start, finished_at__lte=end)
    return sum(g.match_ms or 0 for g in games) / 1000


def _holding_seconds(ladder, version, start, end) -> float:
    """Seconds the worker processes held a ladder game (claim to the store's first
    statement) or the version's validation within [start, end]."""
    spans = [
        (g.started_at, g.finished_at or end)
        for g in ladder.games.filter(started_at__lt=end).exclude(finished_at__lt=start)
    ]
    if version.validation_started_at and version.validated_at:
        spans.append((version.validation_started_at, version.validated_at))
    total = timedelta()
    for begin, finish in spans:
        total += max(timedelta(), min(finish, end) - max(begin, start))
    return total.total_seconds()


def _wait(predicate, what: str, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what} after {timeout} s")
        time.sleep(0.5)


# -- 2. leaderboard order after many games, in-process -------------------------------------------


class Weakened:
    """A built-in bot that plays a uniformly random option with probability ``p``."""

    def __init__(self, inner, p: float, seed: int):
        self.inner, self.p, self.rng = inner, p, random.Random(seed)

    def choose(self, observation, kind, options):
        if self.rng.random() < self.p:
            return self.rng.randrange(len(options))
        return self.inner.choose(observation, kind, options)


def _order_part(args) -> None:
    from django.conf import settings

    import engine
    from arena.games.models import GameSeat
    from arena.ratings.services import MODEL, RatedSeat, RatingRow, _rate_game, rating_ranks
    from arena.tournaments import ladders
    from arena.tournaments.matchmaking import Contender, pick_table
    from engine.core.play import play_out
    from engine.core.rng import derive_seed

    strengths = (0.0, *WEAKENED)  # p of each bot; a lower p is a stronger bot
    prior = MODEL.rating()
    ratings = {
        i: RatingRow(i, 0, i, prior.mu, prior.sigma, prior.mu - 3 * prior.sigma, 0, 0, 0, 0)
        for i in range(len(strengths))
    }
    planned = [0] * len(strengths)
    seat_games = [[0] * args.players for _ in strengths]
    policy = ladders.policy()
    title = engine.title(args.title)
    lag = deque()
    started = time.monotonic()

    def plan(number: int) -> None:
        contenders = [
            Contender(ratings[i].mu, ratings[i].sigma, planned[i], tuple(seat_games[i]))
            for i in range(len(strengths))
        ]
        seating = pick_table(contenders, args.players, random.Random(number), policy)
        for seat, i in enumerate(seating):
            planned[i] += 1
            seat_games[i][seat] += 1
        lag.append((number, seating))

    for number in range(settings.ARENA_LADDER_IN_FLIGHT):
        plan(number)
    for number in range(args.games):
        game, seating = lag.popleft()
        seed = derive_seed(7, "bench", game)
        bots = [
            Weakened(
                engine.make_bot(args.title, "builder", derive_seed(seed, "bot", s)),
                strengths[i],
                derive_seed(seed, "weak", s),
            )
            for s, i in enumerate(seating)
        ]
        state = play_out(title.new_game(args.players, None, seed), bots)
        result = state.result()
        seats = [
            _Seat(GameSeat.Status.OK, rank) for rank in result["ranks"]
        ]  # built-in bots never fault
        ranks = rating_ranks(seats)
        _rate_game(
            game,
            [
                RatedSeat(i, ranks[s], s in result["winners"], 0, "ok")
                for s, i in enumerate(seating)
            ],
            ratings,
        )
        plan(args.games + number + settings.ARENA_LADDER_IN_FLIGHT)
    board = sorted(ratings, key=lambda i: -ratings[i].ordinal)
    tau = _kendall_tau(board, sorted(ratings, key=lambda i: strengths[i]))
    seconds = time.monotonic() - started
    print(
        f"2. {args.games} {args.players}-player {args.title} ladder games in-process "
        f"(no sandbox, no database) among builder and copies random with p = "
        f"{', '.join(f'{p:g}' for p in WEAKENED)}: {seconds:.0f} s"
    )
    for rank, i in enumerate(board, start=1):
        r = ratings[i]
        print(
            f"   {rank:2}. p = {strengths[i]:<4g} μ−3σ {r.ordinal:6.2f}  μ {r.mu:6.2f}  "
            f"σ {r.sigma:4.2f}  games {r.games:4}  seats {seat_games[i]}"
        )
    print(f"   Kendall tau, leaderboard vs known order: {tau:.3f} (target >= 0.9)")


class _Seat:
    def __init__(self, status: str, rank: int):
        self.status, self.rank = status, rank


def _kendall_tau(order_a: list[int], order_b: list[int]) -> float:
    """Kendall's τ between two orders of the same items (no ties)."""
    pos_a = {x: k for k, x in enumerate(order_a)}
    pos_b = {x: k for k, x in enumerate(order_b)}
    items = list(pos_a)
    concordant = discordant = 0
    for i, x in enumerate(items):
        for y in items[i + 1 :]:
            same = (pos_a[x] - pos_a[y]) * (pos_b[x] - pos_b[y])
            concordant += same > 0
            discordant += same < 0
    return (concordant - discordant) / (concordant + discordant)


def _parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", default="citadels")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--first-games", type=int, default=20)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--part", choices=["both", "workers", "order"], default="both")
    return parser


if __name__ == "__main__":
    (shared.ROOT / "var" / "bench").mkdir(parents=True, exist_ok=True)
    sys.exit(main())
