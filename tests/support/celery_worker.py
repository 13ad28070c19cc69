"""Start a Celery worker that also knows the toy title, for the platform's tests.

``python -m tests.support.celery_worker worker --concurrency 2 ...`` (same arguments as
``celery -A arena``). The toy title plays in milliseconds, so tests of the platform's
mechanics (claims, sweeps, pauses) do not wait on the rules of a real game.
"""

import sys

from engine.core import registry
from tests.support.toy_title import TOY

registry.register(TOY, {})

from arena.celery import app  # noqa: E402

if __name__ == "__main__":
    app.worker_main(sys.argv[1:])
