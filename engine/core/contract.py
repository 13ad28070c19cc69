"""The engine contract shared by every title: Title, State, Decision.

A title subclasses :class:`Title` and :class:`State`. The base classes own what must be the
same for every title: option resolution, choice checking, the record (options, seed, chance
outcomes, actions) and replay. A subclass supplies the rules: ``_setup``, ``_decide``,
``_apply``, ``observation``, ``_result`` and ``_copy_into``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from . import positions, records
from .analytics import Fact
from .chance import Chance
from .errors import ConfigError, IllegalAction
from .options import Option, resolve
from .version import ENGINE_VERSION


@dataclass(frozen=True, slots=True)
class Decision:
    """What the game waits for: which seat decides, what kind of decision, and the options.

    ``options`` are JSON-able dicts in canonical order; a choice is an index into them or a
    dict equal to one of them.
    """

    seat: int
    kind: str
    options: list[dict]


class Title:
    """A game title: its facts, its rule options, and the factory for its states."""

    id: ClassVar[str]
    name: ClassVar[str]
    rules_version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    state_class: ClassVar[type[State]]

    def options(self, players: int, **overrides: Any) -> dict[str, Any]:
        """Resolved, canonical rule options for ``players`` seats; raises ConfigError."""
        self._check_players(players)
        resolved = resolve(self.option_specs, players, overrides)
        self._check_options(players, resolved)
        return resolved

    def _check_players(self, players: int) -> None:
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(
                f"{self.name} is played by {self.min_players} to {self.max_players} "
                f"players, not {players}"
            )

    def _check_options(self, players: int, options: dict[str, Any]) -> None:
        """Cross-option checks of the title (override to add)."""

    def option_help(self) -> list[dict[str, Any]]:
        """The declared options, for documentation, CLIs and forms."""
        return [
            {
                "name": o.name,
                "description": o.description,
                "allowed": list(o.allowed),
                "list": o.is_list,
            }
            for o in self.option_specs
        ]

    def display_names(self) -> dict[str, str]:
        """The names people read for the ids that records and statistics use (characters,
        cards, tiles): English, then the seeds' Chinese where they give it. Ids without a
        name here are shown as they are."""
        return {}

    def analytics(self, state: State) -> list[Fact]:
        """The facts of a finished game for the dashboards, in the title-neutral shape of
        ``engine.core.analytics`` (a title without any reports none)."""
        return []

    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> State:
        """A new game at its first decision. ``options`` default to ``self.options(players)``."""
        return self._start(players, options, seed, replay=None)

    def _start(self, players, options, seed, replay) -> State:
        resolved = self.options(players, **(options or {}))
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ConfigError(f"seed must be a non-negative whole number, not {seed!r}")
        state = self.state_class.__new__(self.state_class)
        state._init_base(self, players, resolved, seed, Chance(seed, replay))
        state._setup()
        return state

    def replay(self, record: dict[str, Any], allow_version: bool = False) -> State:
        """Rebuild the final state of a recorded game, proving it is the game recorded.

        Raises ``RecordVersionMismatch`` for a record of another rules version (or a legacy
        format without a seal) unless ``allow_version=True`` — the compatibility path, which
        replays the actions under this title's rules without comparing the stored result —
        ``RecordAltered`` if the record no longer matches the digest written with it,
        ``IncompleteRecord`` if it ends before the game it recorded did, ``ReplayDiverged``
        if it replays to another result or end than the one stored, and ``ReplayMismatch``
        (their base) for anything malformed. See ``engine/core/records.py``.
        """
        return records.replay(self, record, allow_version)

    def load_position(self, data: dict[str, Any]) -> State:
        """The state a position (``engine/core/positions.py``, docs/positions.md) describes,
        at its decision. Raises ``PositionRefused`` (a ``ConfigError``) with what to do for a
        position of another title, rules version or format version."""
        return positions.load_position(self, data)


class State:
    """One game in progress. Subclasses implement the rules of their title."""

    __slots__ = (
        "title",
        "players",
        "options",
        "seed",
        "_chance",
        "_actions",
        "_picks",
        "_decision",
    )
    # Fields that only cache what the others determine: left out of a position and made
    # anew (name -> factory of the empty cache) when one is loaded.
    CACHES: ClassVar[dict[str, Any]] = {}

    def _init_base(self, title, players, options, seed, chance) -> None:
        self.title = title
        self.players = players
        self.options = options
        self.seed = seed
        self._chance = chance
        self._actions: list[dict] = []
        # (index, number of options) of each action: what the record packs.
        self._picks: list[tuple[int, int]] = []
        self._decision: Decision | None = None

    # -- the contract ------------------------------------------------------------------

    def is_over(self) -> bool:
        """True once the game has ended (no more decisions)."""
        raise NotImplementedError

    def decision(self) -> Decision:
        """The pending decision (cached until the next ``apply``)."""
        if self._decision is None:
            if self.is_over():
                raise IllegalAction("the game is over; there is no decision")
            self._decision = self._decide()
        return self._decision

    def apply(self, choice: int | dict) -> dict:
        """Apply one option of the pending decision, by index or equal dict.

        Anything else raises IllegalAction and leaves the state unchanged. Returns the option
        applied.
        """
        options = self.decision().options
        index = self._resolve_choice(choice, options)
        option = options[index]
        self._decision = None
        self._actions.append(option)
        self._picks.append((index, len(options)))
        self._apply(option)
        return option

    @staticmethod
    def _resolve_choice(choice, options: list[dict]) -> int:
        if isinstance(choice, int) and not isinstance(choice, bool):
            if 0 <= choice < len(options):
                return choice
            raise IllegalAction(f"choice {choice} is out of range: {len(options)} options")
        if isinstance(choice, dict):
            for index, option in enumerate(options):
                if option == choice:
                    return index
            raise IllegalAction(f"{choice!r} is not one of the {len(options)} legal options")
        raise IllegalAction(f"a choice is an option index or an option dict, not {choice!r}")

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, JSON-able, with hidden information removed."""
        raise NotImplementedError

    def result(self) -> dict[str, Any]:
        """Scores, ranks (1 = best, ties share), winners, per-seat details and stats."""
        if not self.is_over():
            raise IllegalAction("the game is not over yet")
        return self._result()

    def record(self) -> dict[str, Any]:
        """The replay record: configuration, seed, chance outcomes and actions (packed as
        digits: each action its option's index), sealed with their digest and the
        result's (``final``, see ``engine/core/records.py``)."""
        return records.write(self, ENGINE_VERSION)

    def actions(self) -> list[dict]:
        """The options applied so far, in order (what the record's actions unpack to)."""
        return list(self._actions)

    def position(self, played: dict | None = None) -> dict[str, Any]:
        """The position before the pending decision, as JSON (``engine/core/positions.py``);
        ``played``: the option the game took there, when known."""
        return positions.position_of(self, played)

    def clone(self) -> State:
        """An independent copy: applying to one never changes the other."""
        twin = self.__class__.__new__(self.__class__)
        twin.title = self.title
        twin.players = self.players
        twin.options = self.options
        twin.seed = self.seed
        twin._chance = self._chance.clone()
        twin._actions = list(self._actions)
        twin._picks = list(self._picks)
        twin._decision = self._decision
        self._copy_into(twin)
        return twin

    # -- for subclasses ----------------------------------------------------------------

    def _setup(self) -> None:
        raise NotImplementedError

    def _decide(self) -> Decision:
        raise NotImplementedError

    def _apply(self, option: dict) -> None:
        raise NotImplementedError

    def _result(self) -> dict[str, Any]:
        raise NotImplementedError

    def _copy_into(self, twin: State) -> None:
        raise NotImplementedError


def ranks_from_scores(keys: list) -> list[int]:
    """Competition ranks (1 = best; equal keys share a rank) for comparable keys, higher better."""
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for position, i in enumerate(order):
        if position and keys[i] == keys[order[position - 1]]:
            ranks[i] = ranks[order[position - 1]]
        else:
            ranks[i] = position + 1
    return ranks
