"""Which titles and built-in bots exist."""

from __future__ import annotations

from collections.abc import Callable

from .bots import Bot, RandomBot
from .contract import Title
from .errors import ConfigError

_TITLES: dict[str, Title] = {}
_BOTS: dict[str, dict[str, Callable[[int], Bot]]] = {}


def register(title: Title, bots: dict[str, Callable[[int], Bot]]) -> None:
    """Make ``title`` and its built-in bots (name -> factory taking a seed) available."""
    _TITLES[title.id] = title
    _BOTS[title.id] = {"random": RandomBot, **bots}


def titles() -> list[str]:
    """The ids of every registered title, sorted."""
    return sorted(_TITLES)


def title(title_id: str) -> Title:
    """The title with this id; ConfigError names the known ones."""
    try:
        return _TITLES[title_id]
    except KeyError:
        raise ConfigError(f"unknown title {title_id!r}; titles are {', '.join(titles())}") from None


def bots(title_id: str, thinking: bool = True) -> list[str]:
    """Names of the built-in bots of a title, sorted; ``thinking=False`` leaves out the bots
    that spend a budget on each decision (``Bot.thinks``), for games that must be quick."""
    title(title_id)
    return sorted(
        name
        for name, factory in _BOTS[title_id].items()
        if thinking or not getattr(factory, "thinks", False)
    )


def make_bot(title_id: str, name: str, seed: int = 0) -> Bot:
    """A new built-in bot; ConfigError names the available ones."""
    factories = _BOTS[title(title_id).id]
    if name not in factories:
        raise ConfigError(
            f"unknown bot {name!r} for {title_id}; built-in bots are {', '.join(sorted(factories))}"
        )
    return factories[name](seed)
