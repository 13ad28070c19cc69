"""Shared test configuration."""

# Platform tests run on real PostgreSQL and Redis, with real Celery worker processes.
from tests.support.platform import *  # noqa: F403
