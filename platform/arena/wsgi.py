"""The web service's entry point for a WSGI server: ``gunicorn arena.wsgi`` (see deploy/)."""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from arena.processes import freeze_web_heap
from arena.security import require_production_secret

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
application = get_wsgi_application()
# After setup, so a malformed ARENA_* variable is reported first; before serving anyone.
require_production_secret(settings)
freeze_web_heap()
