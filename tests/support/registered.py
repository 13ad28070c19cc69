"""Register a title for the duration of a test, then restore the registry exactly."""

import contextlib

from engine.core import registry


@contextlib.contextmanager
def registered(title, bots=None):
    """Make ``title`` (and its built-in ``bots``) available inside the block only."""
    titles, bot_tables = dict(registry._TITLES), dict(registry._BOTS)
    registry.register(title, bots or {})
    try:
        yield title
    finally:
        registry._TITLES.clear()
        registry._TITLES.update(titles)
        registry._BOTS.clear()
        registry._BOTS.update(bot_tables)
