"""Register a title for the length of a test, leaving the global registry as it was."""

from contextlib import contextmanager

from engine.core import registry


@contextmanager
def registered(title, bots=None):
    saved = dict(registry._TITLES), dict(registry._BOTS)
    registry.register(title, bots or {})
    try:
        yield title
    finally:
        registry._TITLES.clear()
        registry._TITLES.update(saved[0])
        registry._BOTS.clear()
        registry._BOTS.update(saved[1])
