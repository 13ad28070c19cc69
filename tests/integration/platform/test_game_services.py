"""Claim, store, release and sweep, one step at a time, on PostgreSQL (no worker needed)."""

import logging
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from arena.games import services
from arena.games.models import AnalyticsFact, AnalyticsSeat, Game, GameSeat
from arena.games.tasks import run_job
from arena.ratings.models import Rating, RatingChange
from arena.ratings.services import rating_ranks
from arena.tournaments import services as tournaments
from arena.tournaments.models import Tournament
from engine.core import records
from tests.factories import make_builtin, make_tournament, make_user
from tests.support.platform import sent_ids
from workers.limits import Limits
from workers.match import SeatSpec

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(toy_title):
    alice = make_user("alice")
    versions = [make_builtin(alice) for _ in range(3)]
    tournament = make_tournament(alice, versions, seats=2, rounds=1)
    tournaments.start_tournament(tournament.pk)
    return Tournament.objects.get(pk=tournament.pk)


def play(job):
    return run_job(job)


def test_starting_a_tournament_sends_its_games_only_after_commit(
    toy_title, django_capture_on_commit_callbacks
):
    alice = make_user("alice")
    tournament = make_tournament(alice, [make_builtin(alice) for _ in range(3)], seats=2)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        tournaments.start_tournament(tournament.pk)
        assert Game.objects.filter(tournament=tournament, status=Game.Status.QUEUED).count() == 3
    assert len(sent_ids(callbacks)) == 3  # one play_game per game, none sent inside the transaction


def test_starting_a_tournament_creates_the_planned_games_and_seats(toy_title, settings):
    settings.ARENA_GAMES_IN_FLIGHT = 4
    alice = make_user("alice")
    versions = [make_builtin(alice) for _ in range(3)]
    tournament = make_tournament(alice, versions, seats=2, rounds=3)
    planned = tournaments.plan_games(tournament)
    tournaments.start_tournament(tournament.pk)
    games = list(tournament.games.order_by("number"))
    assert [(g.number, g.table, g.seed) for g in games] == [
        (i + 1, p.table, p.seed) for i, p in enumerate(planned)
    ]
    # a game plays its tournament's options, which it does not copy (Game.rule_options)
    assert all(g.options is None and g.rule_options() == tournament.options for g in games)
    assert all(g.stats == {} for g in games)
    assert [g.status for g in games] == ["queued"] * 4 + ["scheduled"] * (len(planned) - 4)
    assert [g.queued_at is not None for g in games] == [g.status == "queued" for g in games]
    for game, plan in zip(games, planned, strict=True):
        seats = list(game.seats.order_by("seat"))
        assert [s.bot_version_id for s in seats] == [versions[e].pk for e in plan.seating]
        assert all(s.status == GameSeat.Status.OK and s.faults == [] for s in seats)


def test_a_second_claim_of_the_same_game_finds_nothing(started):
    game = started.games.first()
    assert services.claim_game(game.pk, worker="w1") is not None
    assert services.claim_game(game.pk, worker="w2") is None
    game.refresh_from_db()
    assert (game.status, game.worker, game.attempts) == (Game.Status.RUNNING, "w1", 1)


def test_storing_a_result_twice_changes_nothing_the_second_time(started):
    game = started.games.first()
    job = services.claim_game(game.pk, worker="w1")
    outcome = play(job)
    assert services.store_game_result(job, outcome) is True
    seats_before = list(GameSeat.objects.filter(game=game).values())
    changes_before = RatingChange.objects.count()
    assert services.store_game_result(job, outcome) is False
    assert list(GameSeat.objects.filter(game=game).values()) == seats_before
    assert RatingChange.objects.count() == changes_before == 2


@pytest.mark.parametrize("title", ["citadels", "praga"])
def test_a_stored_game_keeps_its_length_as_its_record_seal_says(title):
    """The dashboards' game lengths read Game.actions, never the record: the store writes
    the seal's count, and a game not yet stored has none."""
    alice = make_user("alice")
    versions = [make_builtin(alice, title=title) for _ in range(2)]
    tournament = make_tournament(alice, versions, title=title, seats=2, rounds=1)
    tournaments.start_tournament(tournament.pk)
    game, waiting = Game.objects.filter(tournament=tournament).order_by("number")[:2]
    job = services.claim_game(game.pk, worker="w")
    assert services.store_game_result(job, play(job)) is True
    game.refresh_from_db()
    waiting.refresh_from_db()
    assert game.actions == game.record["final"]["actions"] == records.action_count(game.record)
    assert game.actions > 0
    assert waiting.actions is None


@pytest.mark.parametrize("title", ["citadels", "praga"])
def test_a_second_store_of_a_real_title_rolls_back_its_analytics_rows_too(title):
    """The store writes seats and analytics rows before it reads whether the game was still
    running; a second delivery must roll all of that back and fail on none of it."""
    alice = make_user("alice")
    versions = [make_builtin(alice, title=title) for _ in range(4)]
    tournament = make_tournament(alice, versions, title=title, seats=4, rounds=1)
    tournaments.start_tournament(tournament.pk)
    game = Game.objects.filter(tournament=tournament).first()
    job = services.claim_game(game.pk, worker="w")
    outcome = play(job)
    assert services.store_game_result(job, outcome) is True
    tables = [GameSeat, RatingChange, AnalyticsSeat, AnalyticsFact]
    before = [list(model.objects.order_by("pk").values()) for model in tables]
    assert before[2] and before[3]  # the game's analytics rows exist
    assert services.store_game_result(job, outcome) is False
    assert [list(model.objects.order_by("pk").values()) for model in tables] == before


def test_deleting_a_game_deletes_its_character_rows_though_the_database_does_not_check_them():
    """The rows have no foreign-key constraint in the database (the store writes them only
    for the game it holds): Django's cascade is what removes them with their game."""
    alice = make_user("alice")
    versions = [make_builtin(alice, title="citadels") for _ in range(4)]
    tournament = make_tournament(alice, versions, title="citadels", seats=4, rounds=1)
    tournaments.start_tournament(tournament.pk)
    stored, kept = Game.objects.filter(tournament=tournament).order_by("number")[:2]
    for game in (stored, kept):
        job = services.claim_game(game.pk, worker="w")
        assert services.store_game_result(job, play(job)) is True
    assert AnalyticsFact.objects.filter(game=stored).count() >= 4
    kept_rows = AnalyticsFact.objects.filter(game=kept).count()
    stored.delete()
    assert not AnalyticsFact.objects.filter(game_id=stored.pk).exists()
    assert AnalyticsFact.objects.filter(game=kept).count() == kept_rows > 0


def test_ratings_wait_for_earlier_games_and_apply_in_game_order(started):
    first, second, third = started.games.order_by("number")
    jobs = {g.number: services.claim_game(g.pk, worker="w") for g in (first, second, third)}
    services.store_game_result(jobs[3], play(jobs[3]))
    services.store_game_result(jobs[2], play(jobs[2]))
    assert not RatingChange.objects.exists()  # game 1 is still running
    services.store_game_result(jobs[1], play(jobs[1]))
    rated = list(RatingChange.objects.order_by("id").values_list("game__number", flat=True))
    assert rated == [1, 1, 2, 2, 3, 3]
    started.refresh_from_db()
    assert started.status == Tournament.Status.FINISHED


def test_a_faulted_seat_ranks_below_every_clean_seat_for_ratings(started):
    game = started.games.first()
    job = services.claim_game(game.pk, worker="w")
    outcome = play(job)
    winner = outcome.result["ranks"].index(1)
    outcome.faults[winner] = [{"kind": "timeout", "decision": 3, "message": "took 2 s"}]
    outcome.seat_status[winner] = "faulted"
    services.store_game_result(job, outcome)
    seat = GameSeat.objects.get(game=game, seat=winner)
    assert (seat.rank, seat.status, seat.rating_rank) == (1, "faulted", 2)
    rating = Rating.objects.get(tournament=started, bot_version=seat.bot_version)
    assert rating.mu < 25  # rated as the loser although it scored best
    assert rating.faulted_games == 1


def test_rating_ranks_put_faults_last_and_keep_ties():
    seats = [
        GameSeat(seat=0, rank=1, status="faulted"),
        GameSeat(seat=1, rank=2, status="ok"),
        GameSeat(seat=2, rank=2, status="ok"),
        GameSeat(seat=3, rank=4, status="disqualified"),
    ]
    assert rating_ranks(seats) == [3, 1, 1, 4]


def test_the_sweeper_requeues_an_expired_lease_and_fails_after_k_attempts(
    started, settings, django_capture_on_commit_callbacks
):
    settings.ARENA_GAME_MAX_ATTEMPTS = 2
    game = started.games.first()
    services.claim_game(game.pk, worker="lost")
    Game.objects.filter(pk=game.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks() as sent:
        assert services.sweep_games()["requeued"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.QUEUED and "lease expired on worker lost" in game.error
    assert len(sent_ids(sent)) == 1
    services.claim_game(game.pk, worker="lost-again")
    Game.objects.filter(pk=game.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    assert services.sweep_games()["failed"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FAILED
    assert game.error.startswith("gave up after 2 attempts")


def test_the_sweeper_resends_a_queued_game_nobody_claimed(
    started, settings, django_capture_on_commit_callbacks
):
    Game.objects.filter(tournament=started).update(queued_at=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks() as sent:
        assert services.sweep_games()["resent"] == 3
    assert len(sent_ids(sent)) == 3


def test_a_paused_tournament_gives_workers_nothing_to_claim(started):
    tournaments.pause_tournament(started.pk)
    game = started.games.first()
    assert services.claim_game(game.pk, worker="w") is None
    tournaments.resume_tournament(started.pk)
    assert services.claim_game(game.pk, worker="w") is not None


def test_cancelling_voids_games_not_started_and_keeps_played_ones(started):
    first = started.games.order_by("number").first()
    job = services.claim_game(first.pk, worker="w")
    services.store_game_result(job, play(job))
    tournaments.cancel_tournament(started.pk)
    statuses = list(started.games.order_by("number").values_list("status", flat=True))
    assert statuses == ["finished", "void", "void"]


def test_uploaded_bots_never_run_without_the_sandbox(settings, tmp_path):
    from arena.bots.services import smoke_game

    settings.ARENA_SANDBOX = "none"
    bot = tmp_path / "bot.py"
    bot.write_text("print('hello')\n")
    report = smoke_game("praga", str(bot))
    assert not report.ok and "ARENA_SANDBOX=none" in report.reason
    plan = [SeatSpec("process", "upload", str(bot)), SeatSpec("builtin", "random")]
    with pytest.raises(RuntimeError, match="never run here"):
        run_job(services.MatchJob(0, "praga", plan, 1, {}, Limits(decision_ms=100)))


@pytest.mark.django_db(transaction=True)
def test_a_store_outside_a_transaction_commits_and_leaves_the_connection_idle(toy_title):
    """Outside a test's transaction the store's writes are committed when it returns (what
    another connection sees), and the connection is back in autocommit."""
    import psycopg

    alice = make_user("alice")
    tournament = make_tournament(alice, [make_builtin(alice) for _ in range(2)], seats=2)
    first, second, _ = _queued_without_messages(tournament, games=3)
    for game in (first, second):
        job = services.claim_game(game.pk, worker="w")
        assert services.store_game_result(job, play(job)) is True
        assert connection.get_autocommit() and not connection.in_atomic_block
        assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    db = connection.settings_dict
    params = {"host": db["HOST"], "port": db["PORT"], "user": db["USER"], "dbname": db["NAME"]}
    with psycopg.connect(**params) as other:  # what another connection sees: committed rows
        rows = other.execute(
            "SELECT number, status, rated FROM games_game WHERE tournament_id = %s ORDER BY number",
            [tournament.pk],
        ).fetchall()
        changes = other.execute("SELECT count(*) FROM ratings_ratingchange").fetchone()[0]
    assert rows == [(1, "finished", True), (2, "finished", True), (3, "queued", False)]
    assert changes == 4


def _queued_without_messages(tournament, *, games: int) -> list[Game]:
    """The tournament running with queued games whose messages were never sent, so that a
    worker started for other tests in this process cannot take them."""
    from arena.ratings.services import ensure_ratings

    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    ensure_ratings(tournament)
    versions = [e.bot_version for e in tournament.entries.order_by("id")]
    made = []
    for number in range(1, games + 1):
        game = Game.objects.create(
            tournament=tournament, number=number, seed=number, status="queued",
            queued_at=timezone.now(),
        )  # fmt: skip
        for seat, version in enumerate(versions):
            GameSeat.objects.create(game=game, seat=seat, bot_version=version)
        made.append(game)
    return made


def test_a_store_reports_rated_games_that_do_not_form_a_prefix(started, caplog):
    """Ratings are applied in game order; a rated game after an unrated one means something
    rated out of order, which the store's ratable read notices and logs as critical."""
    first, second, third = started.games.order_by("number")
    Game.objects.filter(pk=third.pk).update(rated=True)  # as a bug would leave it
    job = services.claim_game(first.pk, worker="w")
    with caplog.at_level("CRITICAL", logger="arena.ratings"):
        services.store_game_result(job, play(job))
    assert any(r.levelno == logging.CRITICAL for r in caplog.records)  # an operator's alert
    from arena.ratings.services import check_invariants

    assert check_invariants(started.pk) is False


def test_the_claim_is_prepared_once_per_connection(started):
    """PostgreSQL parses and plans the claim once per connection, not once per game: a
    connection's prepared statements do not grow from one claim to the next."""

    def prepared() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_prepared_statements")
            return cursor.fetchone()[0]

    first, *others = started.games.order_by("number")
    assert services.claim_game(first.pk, worker="w") is not None
    after_one = prepared()
    for game in others:
        assert services.claim_game(game.pk, worker="w") is not None
    assert prepared() == after_one >= 1


def test_prepared_statements_can_be_turned_off_for_a_connection_pooler(monkeypatch):
    from arena.settings import database_from_url

    url = "postgres://arena@db.example:5432/arena"
    assert database_from_url(url)["OPTIONS"]["prepare_threshold"] == 5
    monkeypatch.setenv("ARENA_DB_PREPARED_STATEMENTS", "false")
    assert database_from_url(url)["OPTIONS"]["prepare_threshold"] is None


def test_worker_connections_commit_without_waiting_for_the_disk_unless_told(settings):
    """ARENA_WORKER_SYNCHRONOUS_COMMIT sets PostgreSQL's synchronous_commit on each
    connection a worker process opens (a lost commit means a game played again)."""
    from arena.worker import apply_worker_session_settings

    def current() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0]

    assert settings.ARENA_WORKER_SYNCHRONOUS_COMMIT == "off"  # the default
    apply_worker_session_settings(connection=connection)
    assert current() == "off"
    settings.ARENA_WORKER_SYNCHRONOUS_COMMIT = "on"
    apply_worker_session_settings(connection=connection)
    assert current() == "on"
