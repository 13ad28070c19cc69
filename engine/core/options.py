"""Declared rule options and their resolution into a canonical, JSON-able dict."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError


@dataclass(frozen=True)
class Option:
    """One named rule option of a title.

    ``allowed`` lists the permitted values (a finite choice). ``default`` is a value or a
    function of the player count, so the seeds' player-count rules are the defaults.
    For a list-valued option, ``allowed`` lists the permitted elements and ``is_list`` is set.
    """

    name: str
    description: str
    allowed: tuple
    default: Any
    is_list: bool = False
    for_players: Callable[[int], tuple] | None = field(default=None, compare=False)

    def default_for(self, players: int) -> Any:
        value = self.default(players) if callable(self.default) else self.default
        return list(value) if self.is_list else value

    def allowed_for(self, players: int) -> tuple:
        return self.for_players(players) if self.for_players else self.allowed

    def check(self, value: Any, players: int) -> Any:
        """Return the canonical form of ``value`` or raise ConfigError naming what is allowed."""
        allowed = self.allowed_for(players)
        if self.is_list:
            if isinstance(value, str):
                value = [v for v in value.split(",") if v]
            if not isinstance(value, list | tuple):
                raise ConfigError(f"option {self.name!r} takes a list of: {_show(allowed)}")
            bad = [v for v in value if not any(type(v) is type(a) and v == a for a in allowed)]
            if bad:
                raise ConfigError(
                    f"option {self.name!r}: {_show(bad)} not allowed; choose from {_show(allowed)}"
                )
            if len(set(value)) != len(value):
                raise ConfigError(f"option {self.name!r} lists an element twice")
            return [v for v in allowed if v in value]  # canonical order: declaration order
        if isinstance(value, str) and not any(isinstance(a, str) for a in allowed):
            value = _parse_scalar(value)
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise ConfigError(
                f"option {self.name!r}: {value!r} is not allowed "
                f"with {players} players; choose one of {_show(allowed)}"
            )
        return value


def _parse_scalar(text: str) -> Any:
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(lowered)
    except ValueError:
        return text


def _show(values) -> str:
    return ", ".join(repr(v) for v in values)


def resolve(options: tuple[Option, ...], players: int, overrides: dict[str, Any]) -> dict[str, Any]:
    """Every declared option with its default or override, checked, keys sorted."""
    known = {o.name: o for o in options}
    unknown = sorted(set(overrides) - set(known))
    if unknown:
        raise ConfigError(
            f"unknown option {', '.join(map(repr, unknown))}; "
            f"options are {', '.join(sorted(known))}"
        )
    resolved = {}
    for name in sorted(known):
        spec = known[name]
        value = overrides[name] if name in overrides else spec.default_for(players)
        resolved[name] = spec.check(value, players)
    return resolved
