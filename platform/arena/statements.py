"""The worker's SQL statements, in one place: claim a game, store it, rate it, queue the next.

Each statement is written with the models' table and column names (``arena.sql.build``) and
their status constants, and its rows are read as the named tuple beside it. They are raw
SQL because every game runs each of them once or more, inside a pipelined round trip
(``arena.sql.RoundTrip``) where the ORM's statements, which read their results back at
once, would each cost a round trip of their own; ``bench/platform_path.py`` measures what
that saves (see docs/performance.md). Work that runs once per tournament, or only for its
last game, goes through the ORM instead.

The functions that run them belong to the app whose table they change: ``claim_game`` and
``finish_game`` in ``arena.games.services``, ``lock_for_store`` and ``queue_next_game`` in
``arena.tournaments.services``, the ratable read and the title ratings in
``arena.ratings.services``.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model

from arena.bots.models import Bot, BotVersion
from arena.games.models import Game, GameSeat
from arena.ratings.models import Rating, RatingChange, TitleRating, TitleRatingChange
from arena.sql import Statement, build, columns, for_update, literals
from arena.tournaments.models import Tournament

QUEUED, RUNNING = literals([Game.Status.QUEUED]), literals([Game.Status.RUNNING])
NAMES = {
    "game": Game,
    "seat": GameSeat,
    "tournament": Tournament,
    "version": BotVersion,
    "bot": Bot,
    "user": get_user_model(),
    "rating": Rating,
    "title": TitleRating,
    "point": TitleRatingChange,
    "queued": QUEUED,
    "running": RUNNING,
    "finished": literals([Game.Status.FINISHED]),
    "scheduled": literals([Game.Status.SCHEDULED]),
    "done": literals(Game.DONE),
    "tournament_running": literals([Tournament.Status.RUNNING]),
}


# -- claim -----------------------------------------------------------------------------

CLAIM_UPDATE = build(
    """
    UPDATE {game}
    SET {game.status} = {running}, {game.worker} = %s, {game.lease_until} = %s,
        {game.attempts} = {game.attempts} + 1, {game.started_at} = %s, {game.progress} = NULL
    WHERE {game.id} = %s AND {game.status} = {queued}
    RETURNING {game.id}, {game.tournament}, {game.seed}, {game.options}
""",
    **NAMES,
)
"""queued -> running with a lease, only if still queued (0 rows: another worker has it)."""


class ClaimedSeat(NamedTuple):
    """A seat of a claimed game, with what its game and tournament say (the same in every
    seat's row): no replay record, stats or stderr."""

    tournament_id: int
    seed: int
    options: Any  # JSON text
    title: str
    decision_ms: int
    bank_ms: int
    bot_version_id: int
    kind: str
    builtin_name: str
    sha256: str
    artifact_format: str
    entry: str
    number: int
    bot_name: str
    username: str

    @property
    def label(self) -> str:
        return BotVersion.make_label(self.username, self.bot_name, self.number)


_CLAIMED = """
    SELECT g.{game.tournament}, g.{game.seed},
           COALESCE(g.{game.options}, t.{tournament.options}), t.{tournament.title},
           t.{tournament.decision_ms}, t.{tournament.bank_ms}, v.{version.id},
           v.{version.kind}, v.{version.builtin_name}, v.{version.sha256},
           v.{version.artifact_format}, v.{version.entry}, v.{version.number}, b.{bot.name},
           u.{user.username}
    FROM {seat} s
    JOIN {claimed} g ON g.{game.id} = s.{seat.game}
    JOIN {tournament} t ON t.{tournament.id} = g.{game.tournament}
    JOIN {version} v ON v.{version.id} = s.{seat.bot_version}
    JOIN {bot} b ON b.{bot.id} = v.{version.bot}
    JOIN {user} u ON u.{user.id} = b.{bot.owner}
    WHERE s.{seat.game} = %s
    ORDER BY s.{seat.seat}
"""
CLAIMED_READ = Statement(build(_CLAIMED, claimed=Game._meta.db_table, **NAMES), ClaimedSeat)
"""What a claim reads of a game it claimed, seat by seat (after CLAIM_UPDATE, on SQLite)."""
CLAIM = Statement(
    f"WITH claimed AS ({CLAIM_UPDATE}) " + build(_CLAIMED, claimed="claimed", **NAMES),
    ClaimedSeat,
)
"""CLAIM_UPDATE and the read joined to the row it returned, in one statement (PostgreSQL;
SQLite's UPDATE cannot sit in a WITH): a claim is one round trip, and reads nothing when it
claims nothing. Parameters: worker, lease_until, now, game id, game id."""


# -- store -------------------------------------------------------------------------------


class LockedTournament(NamedTuple):
    format: str


_LOCK_TOURNAMENT = build(
    "SELECT {tournament.format} FROM {tournament} WHERE {tournament.id} = %s", **NAMES
)


def lock_tournament() -> Statement:
    """The tournament's row, locked (``FOR UPDATE`` where the database locks rows): every
    writer of a running game's tournament takes this lock first, so stores and the sweeper
    never deadlock."""
    return _locking(for_update())


@functools.cache
def _locking(lock: str) -> Statement:
    return Statement(_LOCK_TOURNAMENT + lock, LockedTournament)


class FinishedGame(NamedTuple):
    id: int


FINISH_GAME = Statement(
    build(
        """
    UPDATE {game}
    SET {game.status} = {finished}, {game.finished_at} = %s, {game.lease_until} = NULL,
        {game.record} = %s, {game.engine_version} = %s,
        {game.rules_version} = %s, {game.match_ms} = %s, {game.error} = '',
        {game.error_detail} = '', {game.actions} = %s, {game.progress} = NULL
    WHERE {game.id} = %s AND {game.status} = {running} AND {game.worker} = %s
    RETURNING {game.id}
""",
        **NAMES,
    ),
    FinishedGame,
)
"""running -> finished with its record (its statistics and the seats' score details are
read from the record: arena.games.results); no row when it is no longer running on this worker
(stored already, or taken back by the sweeper and maybe claimed by another worker), and then
the store rolls back."""

SEAT_FIELDS = [
    "game", "seat", "bot_version", "score", "rank", "rating_rank", "winner", "status",
    "fault_count", "faults", "details", "stderr", "decision_logs",
]  # fmt: skip
SEAT_COLUMNS = columns(GameSeat, *SEAT_FIELDS)
SEATS_UPSERT = build(" ON CONFLICT ({seat.game}, {seat.seat}) DO UPDATE SET ", **NAMES) + ", ".join(
    f"{c} = excluded.{c}" for c in SEAT_COLUMNS[3:]
)
"""The tail of the seats' INSERT: every seat row exists (made with the game), and the store
rewrites them all in one statement."""


class QueuedGame(NamedTuple):
    id: int
    number: int


QUEUE_NEXT = Statement(
    build(
        """
    UPDATE {game} SET {game.status} = {queued}, {game.queued_at} = %s
    WHERE {game.id} IN (
        SELECT g.{game.id} FROM {game} g
        JOIN {tournament} t ON t.{tournament.id} = g.{game.tournament}
             AND t.{tournament.status} = {tournament_running}
        WHERE g.{game.tournament} = %s AND NOT g.{game.rated}
          AND g.{game.status} = {scheduled}
        ORDER BY g.{game.number} LIMIT %s)
    RETURNING {game.id}, {game.number}
""",
        **NAMES,
    ),
    QueuedGame,
)
"""Queue the running tournament's lowest-numbered scheduled games (their messages go out on
commit). Scheduled games are never rated, so the (tournament, rated, number) index finds
them. Parameters: now, tournament id, how many."""


# -- rate --------------------------------------------------------------------------------


class RatableSeat(NamedTuple):
    """A row of RATABLE: the first two columns in every row, the rest None when there is
    no ratable game."""

    first_open: int | None  # number of the tournament's first game not done
    rated_after: int | None  # number of a rated game after an unrated one (a bug)
    game_id: int | None
    game_status: str | None
    bot_version_id: int | None
    rating_rank: int | None
    winner: bool | None
    score: int | None
    status: str | None
    rating_id: int | None
    mu: float | None
    sigma: float | None
    ordinal: float | None
    games: int | None
    wins: int | None
    score_total: int | None
    faulted_games: int | None


RATABLE = Statement(
    build(
        """
    SELECT o.number, o.rated_after, g.{game.id}, g.{game.status}, s.{seat.bot_version},
           s.{seat.rating_rank}, s.{seat.winner}, s.{seat.score}, s.{seat.status},
           r.{rating.id}, r.{rating.mu}, r.{rating.sigma}, r.{rating.ordinal},
           r.{rating.games}, r.{rating.wins}, r.{rating.score_total}, r.{rating.faulted_games}
    FROM (SELECT f.number,
                 (SELECT min(a.{game.number}) FROM {game} a
                  WHERE a.{game.tournament} = %s AND a.{game.rated}
                    AND a.{game.number} > f.number)
                     AS rated_after
          FROM (SELECT (SELECT u.{game.number} FROM {game} u
                        WHERE u.{game.tournament} = %s AND NOT u.{game.rated}
                          AND u.{game.status} NOT IN ({done})
                        ORDER BY u.{game.number} LIMIT 1) AS number) f) o
    LEFT JOIN {game} g
        ON g.{game.tournament} = %s AND NOT g.{game.rated}
           AND g.{game.number} < COALESCE(o.number, 2147483647)
    LEFT JOIN {seat} s ON s.{seat.game} = g.{game.id}
    LEFT JOIN {rating} r
        ON r.{rating.tournament} = g.{game.tournament}
           AND r.{rating.bot_version} = s.{seat.bot_version}
    ORDER BY g.{game.number}, s.{seat.seat}
""",
        **NAMES,
    ),
    RatableSeat,
)
"""The tournament's first open game and the rated-prefix check, then the unrated games
before the first open one in game order, their seats in seat order, each with its rating
row; later games are not read. Always one row at least. The first open game is found
walking the (tournament, rated, number) index from the lowest unrated number, past the few
finished games waiting for it, so a store costs the same in a tournament of 100 games or of
100,000 (an aggregate over every unrated game took 3.3 ms at 5,000). Parameters: the
tournament id, three times."""

MARK_RATED = build("UPDATE {game} SET {game.rated} = %s WHERE", **NAMES)
"""Mark games rated (``arena.sql.where_in`` appends the ids)."""
GAME_ID = Game._meta.pk.column

RATING_FIELDS = ["mu", "sigma", "ordinal", "games", "wins", "score_total", "faulted_games"]
RATING_COLUMNS = columns(Rating, "id", "tournament", "bot_version", *RATING_FIELDS)
RATINGS_UPSERT = build(" ON CONFLICT ({rating.id}) DO UPDATE SET ", **NAMES) + ", ".join(
    f"{f} = excluded.{f}" for f in columns(Rating, *RATING_FIELDS)
)
"""The tail of the ratings' INSERT: the rating rows exist (made when the tournament
starts); one upsert rewrites them all."""
CHANGE_COLUMNS = columns(RatingChange, "rating", "game", "mu", "sigma", "ordinal")


# -- title ratings -----------------------------------------------------------------------
# The tournament's finished games not rated yet: those the ratable read rates now (before
# its first open game) and any finished after that one. Known without the ratable read's
# result, so the title ratings are read in its round trip and cost none of their own; a
# partial index holds just these games (``game_finished_unrated``).
_UNRATED_GAMES = """
    SELECT g.{game.id} FROM {game} g
    WHERE g.{game.tournament} = %s AND g.{game.status} = {finished} AND NOT g.{game.rated}
"""
_UNRATED_VERSIONS = (
    "SELECT DISTINCT s.{seat.bot_version} AS version FROM {seat} s WHERE s.{seat.game} IN ("
    + _UNRATED_GAMES
    + ")"
)

TITLE_RATINGS_MISSING = build(
    """
    INSERT INTO {title} ({title.bot}, {title.players}, {title.bot_version}, {title.mu},
                         {title.sigma}, {title.ordinal}, {title.games}, {title.wins},
                         {title.faulted_games})
    WITH seated AS MATERIALIZED ("""
    + _UNRATED_VERSIONS
    + """)
    SELECT v.{version.bot}, c.{tournament.seats}, v.{version.id}, %s, %s, %s, 0, 0, 0
    FROM seated JOIN {version} v ON v.{version.id} = seated.version
    JOIN {tournament} c ON c.{tournament.id} = %s
    WHERE NOT EXISTS (SELECT 1 FROM {title} t
                      WHERE t.{title.bot} = v.{version.bot}
                        AND t.{title.players} = c.{tournament.seats})
    ON CONFLICT ({title.bot}, {title.players}) DO NOTHING
""",
    **NAMES,
)
"""A title rating at the prior, at the tournament's player count, for each bot seated in its
finished games not rated yet that has none (the NOT EXISTS first, so a bot that has one
draws no id from the sequence). Parameters: the tournament, the prior's mu, sigma and
ordinal, the tournament."""


class TitleRatingRow(NamedTuple):
    """A title rating, as read for one of the seats' bot versions."""

    bot_version_id: int
    id: int
    bot_id: int
    players: int
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    faulted_games: int
    last_version_id: int  # the version of its last game


_TITLE_RATINGS = build(
    """
    WITH seated AS MATERIALIZED ("""
    + _UNRATED_VERSIONS
    + """)
    SELECT v.{version.id}, t.{title.id}, t.{title.bot}, t.{title.players}, t.{title.mu},
           t.{title.sigma}, t.{title.ordinal}, t.{title.games}, t.{title.wins},
           t.{title.faulted_games}, t.{title.bot_version}
    FROM seated JOIN {version} v ON v.{version.id} = seated.version
    JOIN {tournament} c ON c.{tournament.id} = %s
    JOIN {title} t ON t.{title.bot} = v.{version.bot} AND t.{title.players} = c.{tournament.seats}
    ORDER BY t.{title.id}
""",
    **NAMES,
)


def title_ratings() -> Statement:
    """The title ratings of the bots seated in the tournament's finished games not rated yet,
    at its player count, locked in id order (only the rating rows, not the versions), so
    stores of different competitions that share bots never deadlock. Parameters: the
    tournament twice."""
    return _title_ratings(for_update("t"))


@functools.cache
def _title_ratings(lock: str) -> Statement:
    return Statement(_TITLE_RATINGS + lock, TitleRatingRow)


class TitlePoint(NamedTuple):
    title_rating_id: int
    game_id: int


TITLE_POINTS_OF_UNRATED = Statement(
    build(
        """
    SELECT p.{point.title_rating}, p.{point.game} FROM {point} p
    WHERE p.{point.game} IN ("""
        + _UNRATED_GAMES
        + """)
""",
        **NAMES,
    ),
    TitlePoint,
)
"""The title history points of the tournament's finished games not rated yet: a game
already in its bots' title ratings (its competition was rated again) is not counted twice.
Parameters: the tournament."""


TITLE_RATING_FIELDS = ["mu", "sigma", "ordinal", "games", "wins", "faulted_games", "bot_version"]
TITLE_RATING_COLUMNS = columns(TitleRating, "id", "bot", "players", *TITLE_RATING_FIELDS)
TITLE_RATINGS_UPSERT = build(" ON CONFLICT ({title.id}) DO UPDATE SET ", **NAMES) + ", ".join(
    f"{c} = excluded.{c}" for c in columns(TitleRating, *TITLE_RATING_FIELDS)
)
"""The tail of the title ratings' INSERT: the rows exist (TITLE_RATINGS_MISSING made them);
one upsert rewrites them all."""
TITLE_POINT_COLUMNS = columns(TitleRatingChange, "title_rating", "game", "mu", "sigma", "at")
