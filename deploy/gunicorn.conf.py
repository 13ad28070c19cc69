"""gunicorn settings for the web service: `gunicorn arena.wsgi --config deploy/gunicorn.conf.py`.

gunicorn reads WEB_CONCURRENCY (worker processes) and FORWARDED_ALLOW_IPS (proxies it
believes) from the environment itself; deploy/env.example lists both.
"""

import os
from pathlib import Path

# The folder holding the `arena` package (a plain folder, so that it does not shadow Python's
# standard `platform` module): on the path here, so the command works from the project root
# as the runbook writes it, with no PYTHONPATH.
pythonpath = str(Path(__file__).resolve().parent.parent / "platform")
bind = os.environ.get("ARENA_WEB_BIND", "0.0.0.0:8000")
# Pages and the API are short; a long upload is capped by ARENA_UPLOAD_MAX_BYTES.
timeout = 60
graceful_timeout = 30
# Recycle worker processes now and then, so a slow leak never grows without bound.
max_requests = 2000
max_requests_jitter = 200
accesslog = "-"
errorlog = "-"
# Containers keep /tmp in memory or not at all; heartbeat files belong in shared memory.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
