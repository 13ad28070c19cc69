"""Shared test configuration."""

import pytest

# Platform tests run on real PostgreSQL, Redis and Celery worker processes.
from tests.support.platform import *  # noqa: F403

pytest_plugins = ["tests.support.cputime"]  # ARENA_TEST_CPU=folder: each test's CPU

# A test that needs one of these starts servers or processes, or plays a few hundred games,
# before it asserts anything: it is `slow` (left out of `make check`) without saying so.
SLOW_FIXTURES = {
    "celery_workers",  # a Celery worker, its pool processes
    "fleet",  # two workers and the beat (test_recovery)
    "far_side",  # a worker and the beat on a Redis of the test's own
    "redis_server",  # a redis-server of the test's own
    "cache_on_redis",  # the same, as the cache
    "live_server",  # Django's threaded server
    "served_site",  # the every-page checks' site and a live server of its own
    "page",  # headless Chromium
    "gunicorn",  # collectstatic, then gunicorn
    "history",  # 240 games played in-process (dashboards)
    "long_history",  # 3,000 games of a ladder history, folded (history)
    "arena_venv",  # the local arena's wheel built and installed into a new virtualenv
    "kits_copy",  # the starter kits, copied to be built
}
# Fixtures that take tens of seconds to build and that a group of tests reads: every test
# that uses one runs on the same xdist worker (``--dist loadgroup``), so it is built once
# per session instead of once per worker.
BUILT_ONCE = {
    "history": "dashboards-history",
    "long_history": "long-history",
    "arena_venv": "arena-venv",
    "gunicorn": "gunicorn",
    # The every-page checks' site: built on each worker that ran one of its five tests, it
    # cost three or four builds of the same 48 games a run.
    "served_site": "every-page",
    # One person's home for the kit READMEs: the first run makes its virtualenv, the next
    # ones reuse it (on four workers, up to four homes made each one).
    "person_home": "kit-readmes",
}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
        for fixture in sorted(used & BUILT_ONCE.keys()):
            item.add_marker(pytest.mark.xdist_group(BUILT_ONCE[fixture]))
