"""The Celery app of Meeple Arena: broker and options come from the Django settings.

The platform sends work through it by task name (``arena.queue``) and never imports the
tasks; a worker (``celery -A arena worker``) finds them in each app's ``tasks.py``.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")


def _celery_settings() -> dict:
    """The ``CELERY_`` settings as a plain dict. Celery consults its configuration source on
    every lookup of an option it was not given (a dozen or more per message, on the sending
    side, in the worker's parent and in its pool process), and each such miss on Django's
    lazy settings object cost about 4 microseconds: a quarter of sending a message."""
    from django.conf import settings

    return {name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")}


app = Celery("arena")
app.config_from_object(_celery_settings(), namespace="CELERY")
if app.conf.broker_url.startswith("filesystem"):
    # The filesystem transport has no broadcast; workers need no remote control here.
    app.conf.worker_enable_remote_control = False
# A worker tries a broker that went away again every second (arena.worker.PromptConsumer).
app.conf.worker_consumer = "arena.worker:PromptConsumer"
# Each installed app's tasks.py, imported by the worker's parent before it forks its pool
# (so each pool process starts its first game warm), never by the web.
app.autodiscover_tasks()

from arena import worker  # noqa: E402,F401  (the worker processes' signal handlers)
