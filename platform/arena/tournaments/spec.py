"""One validated tournament specification, shared by the web form and the REST API.

Bounds and defaults live here and only here: the form's fields and the API serializer's
fields are built from ``FIELDS``, and both end in ``check_spec``, so the two can never accept
different tournaments. ``check_spec`` also checks the rule options against the title's
declared options (``option_help``) and resolves them, checks the entrants, and refuses a
tournament whose planned games exceed ARENA_TOURNAMENT_MAX_GAMES (one request once wrote
20,000 games in one transaction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

import engine
from arena.bots.models import BotVersion

from .models import Tournament

SEED_MAX = (1 << 63) - 1  # seeds are stored in a signed 64-bit column
NAME_MAX_LENGTH = 100
MAX_ENTRANTS = 512


@dataclass(frozen=True)
class Bound:
    """A whole-number field: its smallest and largest value and its default."""

    low: int
    high: int
    default: int | None
    help: str = ""


def _fields() -> dict[str, Bound]:
    return {
        "seats": Bound(1, 16, 4, "Seats per game; the title sets its own range."),
        "rounds": Bound(
            1,
            1000,
            1,
            "Round robin: each round every entrant plays once in each seat. Duplicate: each "
            "round's tables are replayed in every seat rotation with one seed.",
        ),
        "ladder_games": Bound(0, 100_000, 0, "Ladder: games before it closes."),
        "decision_ms": Bound(
            10, 600_000, settings.ARENA_BOT_LIMITS.decision_ms, "Time a bot has for one decision."
        ),
        "bank_ms": Bound(
            0,
            3_600_000,
            settings.ARENA_BOT_LIMITS.bank_ms,
            "Extra time a bot may spend over a game.",
        ),
        # No default: each tournament draws its own (scheduling.draw_seed), so two
        # tournaments with the same entrants do not play the same deals.
        "seed": Bound(
            0,
            SEED_MAX,
            None,
            "Seed of the seating and of every game's deal. Leave empty to draw one at random; "
            "it is shown once the tournament is over.",
        ),
    }


FIELDS = _fields()
DEFAULT_FORMAT = Tournament.Format.ROUND_ROBIN
OPTIONS_HELP = (
    "Rule options, one per line as name = value; left out options take the title's defaults "
    "for the number of seats."
)


class SpecError(ValueError):
    """A refused specification: ``fields`` maps each field to messages a person can act on."""

    def __init__(self, fields: dict[str, list[str]]):
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items()))
        self.fields = fields


@dataclass(frozen=True)
class TournamentSpec:
    """A checked tournament: the keyword arguments of ``services.create_tournament``."""

    name: str
    title: str
    seats: int
    format: str
    rounds: int
    ladder_games: int
    options: dict[str, Any]
    entrants: tuple[BotVersion, ...]
    decision_ms: int
    bank_ms: int
    seed: int | None  # None: drawn at random when the tournament is created

    def as_kwargs(self) -> dict[str, Any]:
        return {**self.__dict__, "entrants": list(self.entrants)}


def planned_games(*, format: str, entrants: int, seats: int, rounds: int, ladder_games: int) -> int:
    """How many games the tournament will play (see ``scheduling``)."""
    if format == Tournament.Format.LADDER:
        return ladder_games
    if format == Tournament.Format.DUPLICATE:
        tables = 1 if entrants == seats else entrants
        return tables * seats * rounds
    return entrants * rounds


def check_spec(data: dict[str, Any]) -> TournamentSpec:
    """A TournamentSpec from ``data`` (missing fields take their defaults); SpecError lists
    every field that is wrong."""
    errors: dict[str, list[str]] = {}

    def refuse(field: str, message: str) -> None:
        errors.setdefault(field, []).append(message)

    name = str(data.get("name") or "").strip()
    if not name:
        refuse("name", "Give the tournament a name.")
    elif len(name) > NAME_MAX_LENGTH:
        refuse("name", f"A name has at most {NAME_MAX_LENGTH} characters.")
    title = data.get("title")
    if title not in engine.titles():
        refuse("title", f"Unknown title {title!r}; titles are {', '.join(engine.titles())}.")
    fmt = data.get("format") or DEFAULT_FORMAT
    if fmt not in Tournament.Format.values:
        refuse("format", f"Unknown format {fmt!r}; formats are {', '.join(Tournament.Format)}.")
    numbers = {k: _whole(k, data.get(k), bound, refuse) for k, bound in FIELDS.items()}
    entrants = tuple(data.get("entrants") or ())
    options = data.get("options") or {}
    if not isinstance(options, dict):
        refuse("options", "Options are an object of option names and values.")
        options = {}
    resolved: dict[str, Any] = {}
    if "title" not in errors and numbers["seats"] is not None:
        resolved = _check_title(title, numbers["seats"], options, entrants, refuse)
    if not errors:
        _check_size(fmt, numbers, len(entrants), refuse)
    if errors:
        raise SpecError(errors)
    return TournamentSpec(
        name=name,
        title=title,
        format=fmt,
        options=resolved,
        entrants=entrants,
        **numbers,
    )


def _whole(field: str, value: Any, bound: Bound, refuse) -> int | None:
    if value is None or value == "":
        return bound.default
    if isinstance(value, bool) or not isinstance(value, int):
        refuse(field, f"{field} must be a whole number, not {value!r}.")
        return None
    if not bound.low <= value <= bound.high:
        refuse(field, f"{field} must be between {bound.low} and {bound.high}, not {value}.")
        return None
    return value


def _check_title(title, seats, options, entrants, refuse) -> dict[str, Any]:
    spec = engine.title(title)
    if not spec.min_players <= seats <= spec.max_players:
        refuse(
            "seats",
            f"{spec.name} is played by {spec.min_players} to {spec.max_players}, not {seats}.",
        )
        return {}
    declared = {o["name"]: o for o in spec.option_help()}
    unknown = sorted(set(options) - set(declared))
    if unknown:
        refuse(
            "options",
            f"{spec.name} has no option {', '.join(map(repr, unknown))}; its options are "
            f"{', '.join(sorted(declared)) or 'none'}.",
        )
        return {}
    try:
        resolved = spec.options(seats, **options)
    except engine.ConfigError as err:
        refuse("options", str(err))
        resolved = {}
    _check_entrants(title, seats, entrants, refuse)
    return resolved


def _check_entrants(title, seats, entrants, refuse) -> None:
    if len({v.pk for v in entrants}) != len(entrants):
        refuse("entrants", "An entrant is listed twice.")
    if len(entrants) < seats:
        refuse(
            "entrants",
            f"{seats}-seat games need at least {seats} entrants; {len(entrants)} chosen.",
        )
    if len(entrants) > MAX_ENTRANTS:
        refuse("entrants", f"A tournament has at most {MAX_ENTRANTS} entrants.")
    for version in entrants:
        if version.bot.title != title:
            refuse("entrants", f"{version.label} plays {version.bot.title}, not {title}.")
        elif version.status != BotVersion.Status.READY:
            refuse("entrants", f"{version.label} is {version.status}; only ready versions enter.")


def _check_size(fmt, numbers, entrants, refuse) -> None:
    if fmt == Tournament.Format.LADDER and numbers["ladder_games"] < 1:
        refuse("ladder_games", "A ladder needs a number of games (at least 1) before it closes.")
    total = planned_games(
        format=fmt,
        entrants=entrants,
        seats=numbers["seats"],
        rounds=numbers["rounds"],
        ladder_games=numbers["ladder_games"],
    )
    limit = settings.ARENA_TOURNAMENT_MAX_GAMES
    if total > limit:
        field = "ladder_games" if fmt == Tournament.Format.LADDER else "rounds"
        refuse(
            field,
            f"This tournament would play {total} games; at most {limit} are allowed. "
            "Play fewer rounds or split it into several tournaments.",
        )
