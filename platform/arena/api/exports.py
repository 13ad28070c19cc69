"""CSV and plain-text answers: games (one row per seat) and standings, streamed in chunks so a
large export never sits in memory; a seat's stderr log as text."""

from __future__ import annotations

import csv
import itertools
from collections.abc import Iterable, Iterator

from django.http import HttpResponse, StreamingHttpResponse
from rest_framework.renderers import BaseRenderer

from arena.bots.models import BotVersion
from arena.games.models import Game, GameSeat, deal_pending

CHUNK = 2000

GAME_COLUMNS = [
    "game", "tournament", "title", "number", "table", "seed", "status", "finished_at",
    "match_ms", "seat", "bot_version", "bot", "score", "rank", "winner", "seat_status",
    "fault_count",
]  # fmt: skip
STANDING_COLUMNS = [
    "position", "bot_version", "bot", "ordinal", "mu", "sigma", "games", "wins",
    "average_score", "faulted_games",
]  # fmt: skip


class TextRenderer(BaseRenderer):
    """Lets a client ask for text/csv or text/plain (errors stay JSON: arena.api.errors)."""

    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return str(data).encode()


class CSVRenderer(TextRenderer):
    media_type = "text/csv"
    format = "csv"


class PlainTextRenderer(TextRenderer):
    media_type = "text/plain"
    format = "txt"


class _Echo:
    def write(self, value: str) -> str:
        return value


def _stream(header: list[str], pages: Iterable[list[list]], filename: str) -> StreamingHttpResponse:
    """``pages`` (lists of rows) as CSV, each page written as one piece of the response: a
    piece per row cost the response's conversion of each to bytes, as much as the writing."""
    writer = csv.writer(_Echo())

    def lines() -> Iterator[str]:
        yield writer.writerow(header)
        for page in pages:
            yield "".join([writer.writerow(row) for row in page])

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# Games per page of the games CSV: a page's seats are read in one statement. About 1,000
# rows of a four-seat title: the first rows come as soon as one such page is read.
CSV_GAMES = 250


def games_csv(
    games, filename: str, seated: list[int] | None = None, only_seated: bool = False
) -> StreamingHttpResponse:
    """``games`` (a filtered queryset) as one CSV row per seat, in game and seat order,
    streamed a page of games at a time: each page the next ``CSV_GAMES`` game ids after the
    last one sent (the primary key's order, no offset), then their seats. What a page costs
    does not grow with the games before it, so the first rows of a long history's file
    come as soon as a short one's, and each later page as fast. ``seated``: the bot
    versions one of which each game seats (the bot and version filters), whose seats then
    find the next page's games (:func:`_games_seating`); ``only_seated``: no other filter
    narrows them, so a page of them is not checked against ``games`` again (that check was
    11 ms of the 36 that the first page's statements took at 1 M games)."""
    ids = games.order_by("id").values_list("id", flat=True)

    def pages():
        last = 0
        while True:
            if seated is None:
                page = list(ids.filter(id__gt=last)[:CSV_GAMES])
                ahead = page
            else:
                ahead = _games_seating(seated, last)
                page = ahead if only_seated or not ahead else list(ids.filter(id__in=ahead))
            if not ahead:
                return
            last = ahead[-1]
            if page:
                yield [_game_row(row) for row in _seat_rows(page)]

    return _stream(GAME_COLUMNS, pages(), filename)


def _games_seating(versions: list[int], after: int) -> list[int]:
    """The first ``CSV_GAMES`` game ids after ``after`` that seat one of ``versions``, in
    order: each version's next ids from the seats' (version, game) index, in one statement.
    Walking the games from ``after`` and probing their seats instead, PostgreSQL read the
    bot's seats from its first game on for every page, or every game to the end for the
    last: 303 ms a 1,000 rows at 1 M games against 33 at 10 k (bench/history.py)."""
    if not versions:
        return []
    heads = [
        GameSeat.objects.filter(bot_version_id=version, game_id__gt=after)
        .order_by("game_id")
        .values_list("game_id", flat=True)[:CSV_GAMES]
        for version in versions
    ]
    found = heads[0].union(*heads[1:], all=True) if len(heads) > 1 else heads[0]
    return sorted(set(found))[:CSV_GAMES]


def _seat_rows(games: list[int]) -> list[tuple]:
    """The seats of these games, in game and seat order, as :func:`_game_row` reads them."""
    return list(
        GameSeat.objects.filter(game_id__in=games)
        .annotate(deal_pending=deal_pending("game__"))
        .order_by("game_id", "seat")
        .values_list(
            "game_id",
            "game__tournament_id",
            "game__tournament__title",
            "game__number",
            "game__table",
            "game__seed",
            "game__status",
            "game__finished_at",
            "game__match_ms",
            "seat",
            "bot_version_id",
            "bot_version__bot__owner__username",
            "bot_version__bot__name",
            "bot_version__number",
            "score",
            "rank",
            "winner",
            "status",
            "fault_count",
            "deal_pending",
        )  # fmt: skip
    )


def _game_row(row: tuple) -> list:
    """A seat's CSV row (GAME_COLUMNS)."""
    *game, owner, name, number, score, rank, winner, status, faults, pending = row
    # The seed as the JSON shows it (Game.seed_is_public): empty until its deal is played.
    if pending or game[6] not in Game.DONE:
        game[5] = ""
    finished = game[7].isoformat() if game[7] else ""
    label = BotVersion.make_label(owner, name, number)
    return [*game[:7], finished, *game[8:], label, score, rank, winner, status, faults]


def standings_csv(ratings, filename: str) -> StreamingHttpResponse:
    """A tournament's ratings, best first, as CSV (a page of ``CHUNK`` rows at a time)."""

    def rows():
        for position, r in enumerate(ratings.iterator(chunk_size=CHUNK), start=1):
            yield [
                position, r.bot_version_id, r.bot_version.label, r.ordinal, r.mu, r.sigma,
                r.games, r.wins, r.average_score if r.average_score is not None else "",
                r.faulted_games,
            ]  # fmt: skip

    def pages():
        found = rows()
        while page := list(itertools.islice(found, CHUNK)):
            yield page

    return _stream(STANDING_COLUMNS, pages(), filename)


def text(body: str) -> HttpResponse:
    return HttpResponse(body, content_type="text/plain; charset=utf-8")
