"""Settings of Meeple Arena, read from ARENA_* environment variables with safe defaults.

Every variable is read here and only here, through helpers that refuse malformed values with a
message naming the variable and what it takes (a number's range, a switch's choices); the
database URL is read by dj-database-url. With nothing set the platform runs on SQLite and Celery uses
kombu's filesystem transport under ``var/``, so a fresh clone works with no server at all.
``deploy/env.example`` lists every variable.
"""

import contextlib
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from arena.security import DEV_RECORD_SIGNING_KEY, DEV_SECRET_KEY
from engine.core import signatures
from engine.core.errors import ConfigError
from workers.limits import Limits

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# The embedded database, the filesystem broker's folders, the demo's logs and beat schedule.
VAR_DIR = BASE_DIR / os.environ.get("ARENA_VAR_DIR", "var")


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int, *, low: int, high: int) -> int:
    return _env_number(name, default, int, "a whole number", low, high)


def env_float(name: str, default: float, *, low: float, high: float) -> float:
    return _env_number(name, default, float, "a number", low, high)


def _env_number(name, default, parse, kind: str, low, high):
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = parse(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be {kind}, not {raw!r}") from None
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name} must be between {low} and {high}, not {value}")
    return value


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = os.environ.get(name, default)
    if raw not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
    return raw


def database_from_url(url: str) -> dict:
    """A Django DATABASES entry from ``postgres://user:pass@host:port/name?option=value`` or
    ``sqlite:////absolute/path`` (``sqlite:///path``: relative to the working directory), as
    dj-database-url reads them, with the platform's options and its messages."""
    scheme = url.partition("://")[0]
    if scheme not in ("postgres", "postgresql", "sqlite"):
        raise ImproperlyConfigured(
            f"ARENA_DATABASE_URL must start with postgres:// or sqlite:///, not {url!r}"
        )
    try:
        config = dict(dj_database_url.parse(url))
    except ValueError:  # dj-database-url's ParseError: a port that is not a number, say
        raise ImproperlyConfigured(
            f"ARENA_DATABASE_URL cannot be read (is its port a number?): {url!r}"
        ) from None
    if scheme == "sqlite":
        if config["NAME"] in ("", ":memory:"):
            raise ImproperlyConfigured(f"ARENA_DATABASE_URL names no SQLite file: {url!r}")
        # IMMEDIATE: a write transaction takes the lock up front, so the web process and the
        # workers queue for it instead of failing to upgrade a read lock.
        config["OPTIONS"] = {"timeout": 30, "transaction_mode": "IMMEDIATE"}
        return config
    if not config["NAME"]:
        raise ImproperlyConfigured(f"ARENA_DATABASE_URL names no database: {url!r}")
    # The worker's raw SQL runs as prepared statements (arena.sql.cursor; Django's own
    # cursors bind on the client and never prepare). A transaction-mode connection pooler
    # that cannot keep them needs ARENA_DB_PREPARED_STATEMENTS=false.
    prepared = env_bool("ARENA_DB_PREPARED_STATEMENTS", True)
    config.setdefault("OPTIONS", {})["prepare_threshold"] = 5 if prepared else None
    # Workers run a game every second or so; a connection per task would add up.
    config["CONN_MAX_AGE"] = env_int("ARENA_DB_CONN_MAX_AGE", 60, low=0, high=86_400)
    config["CONN_HEALTH_CHECKS"] = True
    return config


def broker_from_url(url: str) -> tuple[str, str | None, dict]:
    """Celery broker URL, transport (None: the URL's scheme decides) and transport options;
    ``filesystem://`` gets folders under var/."""
    scheme = urlsplit(url).scheme
    if scheme == "filesystem":
        folder = VAR_DIR / "broker"
        for sub in ("queue", "processed", "control"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        return (
            url,
            None,
            {
                "data_folder_in": str(folder / "queue"),
                "data_folder_out": str(folder / "queue"),
                "processed_folder": str(folder / "processed"),
                "control_folder": str(folder / "control"),
                "store_processed": False,
                # How often an idle worker looks for a message file (kombu's 1 s as
                # shipped): a message waits up to that long. The demo's test sets 0.1 s, not to
                # wait out a second per game.
                "polling_interval": env_float(
                    "ARENA_BROKER_POLL_SECONDS", 1.0, low=0.01, high=60.0
                ),
            },
        )
    if scheme in ("redis", "rediss"):
        # No acknowledgement emulation: kombu would otherwise keep every delivered message in
        # Redis until it is acknowledged (two more round trips per game from Celery's parent,
        # about 0.25 ms of its CPU) only to redeliver it an hour after its worker was lost.
        # The database recovers such games sooner: a claimed game's lease expires and the
        # sweeper requeues it; a queued game nobody claimed is sent again. A worker that
        # stops, or loses a pool process, still puts back the messages it holds. Plain
        # redis:// goes through kombu's transport with one client kept per channel
        # (arena/broker.py); rediss:// keeps kombu's own, which sets up TLS from the
        # scheme's name.
        transport = "arena.broker:Transport" if scheme == "redis" else None
        # A broker host that does not answer fails a connection within 2 s (a sender then
        # leaves its messages to the outbox's drain) instead of the system's minutes.
        return url, transport, {"ack_emulation": False, "socket_connect_timeout": 2}
    raise ImproperlyConfigured(
        f"ARENA_BROKER_URL must start with redis:// or filesystem://, not {url!r}"
    )


def proxy_ssl_header(name: str) -> tuple[str, str] | None:
    """``X-Forwarded-Proto`` (or ``HTTP_X_FORWARDED_PROTO``) into Django's (META key, "https")."""
    if not name:
        return None
    key = name.upper().replace("-", "_")
    if not key.replace("_", "").isalnum():
        raise ImproperlyConfigured(f"ARENA_PROXY_SSL_HEADER must be a header name, not {name!r}")
    return (key if key.startswith("HTTP_") else f"HTTP_{key}", "https")


# --- Security and deployment -------------------------------------------------------------
# DEBUG is off unless asked for (the demo and a developer's shell ask). With it off the web
# service refuses to start without a real secret key (arena.security, called by arena.wsgi);
# commands, workers and the tests need none, since only the web signs sessions and tokens.
DEBUG = env_bool("ARENA_DEBUG", False)
SECRET_KEY = env_str("ARENA_SECRET_KEY", "") or DEV_SECRET_KEY
# The Ed25519 key the records the platform serves are signed with (arena.games.signing):
# base64url of a 32-byte seed; `python -c "from engine.core import signatures;
# print(signatures.new_private_key_text())"` makes one. Unset: the development key, which is
# public (the public key endpoint, /api/v1/record-key/, says so); the web service refuses to
# start on it with DEBUG off (arena.security).
ARENA_RECORD_SIGNING_KEY = env_str("ARENA_RECORD_SIGNING_KEY", "") or DEV_RECORD_SIGNING_KEY
try:
    signatures.private_key(ARENA_RECORD_SIGNING_KEY)
except ConfigError as err:
    raise ImproperlyConfigured(f"ARENA_RECORD_SIGNING_KEY: {err}") from None
ALLOWED_HOSTS = [h for h in env_str("ARENA_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h]
# Origins (scheme://host[:port]) allowed to post forms when they differ from the Host header,
# e.g. a proxy on another port.
CSRF_TRUSTED_ORIGINS = [o for o in env_str("ARENA_CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# ARENA_HTTPS=true: the site is served over HTTPS only. It sets the defaults of the three
# switches below; each can still be set on its own.
ARENA_HTTPS = env_bool("ARENA_HTTPS", False)
SECURE_SSL_REDIRECT = env_bool("ARENA_SSL_REDIRECT", ARENA_HTTPS)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("ARENA_SECURE_COOKIES", ARENA_HTTPS)
SECURE_HSTS_SECONDS = env_int(
    "ARENA_HSTS_SECONDS", 31_536_000 if ARENA_HTTPS else 0, low=0, high=63_072_000
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("ARENA_HSTS_INCLUDE_SUBDOMAINS", ARENA_HTTPS)
SECURE_HSTS_PRELOAD = env_bool("ARENA_HSTS_PRELOAD", False)
# Behind a TLS-terminating proxy: the header it sets to "https" (e.g. X-Forwarded-Proto).
# Set it only when that proxy overwrites the header, or a client could claim HTTPS.
SECURE_PROXY_SSL_HEADER = proxy_ssl_header(env_str("ARENA_PROXY_SSL_HEADER", ""))
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "arena.players",
    "arena.bots",
    "arena.tournaments",
    "arena.games",
    "arena.ratings",
    "arena.outbox",
    "arena.api",
    "arena.web",
    "dashboards",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Under /api/: oversized bodies refused unread, and every error answered as JSON.
    "arena.api.middleware.ApiErrorMiddleware",
    # Static files from STATIC_ROOT (collectstatic) with DEBUG off; from the apps with it on.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "arena.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
WSGI_APPLICATION = "arena.wsgi.application"

DATABASES = {
    "default": database_from_url(
        env_str("ARENA_DATABASE_URL", f"sqlite:///{VAR_DIR / 'arena.sqlite3'}")
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("ARENA_STATIC_ROOT", str(VAR_DIR / "static")))
# Compressed copies made by collectstatic; names stay unhashed, so a page renders before
# collectstatic has run (the tests, a fresh checkout) and whitenoise keeps caching short.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
with contextlib.suppress(OSError):  # whitenoise warns on every start when it is missing
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-bots"
LOGOUT_REDIRECT_URL = "home"

# Uploaded artifacts, content-addressed by sha256 (see arena/bots/artifacts.py).
MEDIA_ROOT = Path(env_str("ARENA_MEDIA_ROOT", str(VAR_DIR / "media")))
MEDIA_URL = "media/"
# Unpacked bot folders the workers run, also by sha256 (and, under artifacts/, the
# artifacts a worker downloaded).
ARENA_BOT_CACHE = Path(env_str("ARENA_BOT_CACHE", str(VAR_DIR / "bot-cache")))
# Workers on machines of their own fetch artifacts from the web service (workers/artifacts.py,
# given these by arena/bots/artifacts.py):
# its address as the workers reach it (its host must be in the web's ARENA_ALLOWED_HOSTS),
# and the secret both sides sign and check downloads with. No URL: workers read MEDIA_ROOT
# (one machine). No secret on the web: its /internal/artifacts/ answers 404.
ARENA_ARTIFACT_URL = env_str("ARENA_ARTIFACT_URL", "")
ARENA_ARTIFACT_SECRET = env_str("ARENA_ARTIFACT_SECRET", "")
if ARENA_ARTIFACT_URL and not ARENA_ARTIFACT_SECRET:
    raise ImproperlyConfigured(
        "ARENA_ARTIFACT_URL is set but ARENA_ARTIFACT_SECRET is not: set the web service's "
        "secret on the workers too."
    )
# Workers inside the deployment's network may reach the web over plain HTTP: downloads are
# signed, and the bytes checked against their sha256.
SECURE_REDIRECT_EXEMPT = [r"^internal/"]

# Upload limits: checked from the zip's directory before anything is unpacked.
ARENA_UPLOAD_MAX_BYTES = env_int("ARENA_UPLOAD_MAX_BYTES", 2 * 1024 * 1024, low=1024, high=1 << 30)
ARENA_UPLOAD_MAX_FILES = env_int("ARENA_UPLOAD_MAX_FILES", 200, low=1, high=100_000)
ARENA_UPLOAD_MAX_UNPACKED_BYTES = env_int(
    "ARENA_UPLOAD_MAX_UNPACKED_BYTES", 20 * 1024 * 1024, low=1024, high=1 << 34
)
DATA_UPLOAD_MAX_MEMORY_SIZE = ARENA_UPLOAD_MAX_BYTES + 1024 * 1024

# Games: sandbox backend and the limits every bot gets.
ARENA_SANDBOX = env_choice("ARENA_SANDBOX", "bwrap", ("bwrap", "none"))
# Every limit's default and its ARENA_BOT_* variable are in workers/limits.py (the local
# runner reads the same). The platform reads them here only: a tournament's time control
# (decision_ms and bank_ms, replacing these two for its games) defaults to these, whether
# the web form, the API, the demo or the model itself makes it.
try:
    ARENA_BOT_LIMITS = Limits.from_env()
except ValueError as err:
    raise ImproperlyConfigured(str(err)) from None
# A claimed game's lease. Its worker's heartbeat renews it every third of this while the
# game makes progress (arena/games/heartbeat.py); a killed, stopped or hung worker's game is
# requeued by the sweep once it runs out: within this plus ARENA_SWEEP_SECONDS (40 s) of
# the worker's last sign of life. After ARENA_GAME_MAX_ATTEMPTS attempts it is failed.
ARENA_GAME_LEASE_SECONDS = env_int("ARENA_GAME_LEASE_SECONDS", 30, low=5, high=86_400)
# A bot validation's lease: a smoke game is not renewed, so this covers the longest one.
ARENA_VALIDATION_LEASE_SECONDS = env_int("ARENA_VALIDATION_LEASE_SECONDS", 900, low=5, high=86_400)
# PostgreSQL's synchronous_commit for worker connections (claims, stores). "off": a COMMIT
# does not wait for its WAL to reach the disk (about 1 ms per transaction measured here); a
# PostgreSQL crash can then forget the last fraction of a second of claims and stores, whose
# games are played again once their lease expires. Nothing becomes inconsistent.
ARENA_WORKER_SYNCHRONOUS_COMMIT = env_choice(
    "ARENA_WORKER_SYNCHRONOUS_COMMIT", "off", ("on", "off", "local", "remote_write", "remote_apply")
)
ARENA_GAME_MAX_ATTEMPTS = env_int("ARENA_GAME_MAX_ATTEMPTS", 3, low=1, high=100)
# A queued game nobody claimed for this long is sent again (a lost broker message).
ARENA_QUEUED_RESEND_SECONDS = env_int("ARENA_QUEUED_RESEND_SECONDS", 600, low=5, high=86_400)
# Fair share: at most this many games of one tournament are queued or running at once; the
# rest wait as scheduled and each stored game sends the next. Tournaments running together
# so interleave in the broker instead of one waiting behind another's every game. Set it
# to at least the number of worker processes, so a tournament alone keeps them all busy.
ARENA_GAMES_IN_FLIGHT = env_int("ARENA_GAMES_IN_FLIGHT", 64, low=1, high=100_000)
# How often the beat sends the sweep (expired leases, unclaimed queued games): a few
# indexed queries that find nothing when all is well.
ARENA_SWEEP_SECONDS = env_int("ARENA_SWEEP_SECONDS", 10, low=1, high=86_400)
# A bot is flagged when at least this share (percent) of its recent games had a fault.
ARENA_FAULT_FLAG_PERCENT = env_int("ARENA_FAULT_FLAG_PERCENT", 20, low=1, high=100)

# Standing ladders (docs/ladders.md): how many of a ladder's games are queued or running at
# once (its share of the workers beside tournaments, which each keep ARENA_GAMES_IN_FLIGHT),
# and the matchmaking's parameters (arena.tournaments.matchmaking.Policy).
ARENA_LADDER_IN_FLIGHT = env_int("ARENA_LADDER_IN_FLIGHT", 8, low=1, high=10_000)
ARENA_LADDER_SETTLED_SIGMA = env_float("ARENA_LADDER_SETTLED_SIGMA", 3.0, low=0.1, high=50)
# Once every active entrant of a ladder has settled (σ at most ARENA_LADDER_SETTLED_SIGMA), the
# ladder plays one game at a time, at most this many an hour (0: none until something changes);
# a new version, a challenge or an unsettled entrant brings back the full window.
ARENA_LADDER_IDLE_GAMES_PER_HOUR = env_int(
    "ARENA_LADDER_IDLE_GAMES_PER_HOUR", 12, low=0, high=100_000
)
ARENA_LADDER_NEIGHBOURS = env_int("ARENA_LADDER_NEIGHBOURS", 3, low=1, high=100)
ARENA_LADDER_EXPLORATION_PERCENT = env_int("ARENA_LADDER_EXPLORATION_PERCENT", 15, low=0, high=100)
# An entrant whose last this many ladder games all faulted is suspended (a new version lifts it).
ARENA_LADDER_SUSPEND_AFTER_FAULTS = env_int(
    "ARENA_LADDER_SUSPEND_AFTER_FAULTS", 5, low=1, high=1000
)
# The owner of the house bots (the engine's built-in bots on every ladder) and the ladders.
ARENA_HOUSE_USERNAME = env_str("ARENA_HOUSE_USERNAME", "arena")
# Challenges: most games in one challenge, and per player over the last 24 hours.
ARENA_CHALLENGE_MAX_GAMES = env_int("ARENA_CHALLENGE_MAX_GAMES", 50, low=1, high=100_000)
ARENA_CHALLENGE_GAMES_PER_DAY = env_int("ARENA_CHALLENGE_GAMES_PER_DAY", 200, low=1, high=1_000_000)

# E-mail (a suspended bot's owner is told): "console" prints it, "filebased" writes it under
# ARENA_EMAIL_FILE_PATH (the demo's choices), "smtp" sends it through ARENA_EMAIL_HOST.
EMAIL_BACKEND = "django.core.mail.backends.{}.EmailBackend".format(
    env_choice("ARENA_EMAIL_BACKEND", "console", ("console", "filebased", "smtp"))
)
EMAIL_FILE_PATH = env_str("ARENA_EMAIL_FILE_PATH", str(VAR_DIR / "mail"))
EMAIL_HOST = env_str("ARENA_EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("ARENA_EMAIL_PORT", 25, low=1, high=65_535)
EMAIL_HOST_USER = env_str("ARENA_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("ARENA_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("ARENA_EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("ARENA_EMAIL_FROM", "Meeple Arena <arena@localhost>")

# Celery (arena/worker.py reads these through the CELERY_ namespace).
CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT, CELERY_BROKER_TRANSPORT_OPTIONS = broker_from_url(
    env_str("ARENA_BROKER_URL", "filesystem://")
)
CELERY_TASK_DEFAULT_QUEUE = env_str("ARENA_QUEUE", "arena")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's Django fix-up closes every database connection before and after each task unless
# this is set, and a fresh PostgreSQL connection cost a game ~40 ms. With it, a worker process
# keeps its connection for this many tasks; arena/worker.py still drops a connection that is
# broken or older than CONN_MAX_AGE before each task, as Django does per request.
CELERY_DB_REUSE_MAX = env_int("ARENA_DB_REUSE_TASKS", 1000, low=1, high=1_000_000)
# Stored games and rating changes are folded into the dashboards' totals and rating points
# on the beat, every this many seconds (no page view folds: a read never writes). A fold
# message older than one period is dropped: the next one folds the same rows.
ARENA_FOLD_SECONDS = env_int("ARENA_FOLD_SECONDS", 10, low=1, high=86_400)
CELERY_BEAT_SCHEDULE = {
    "sweep-games": {"task": "workers.sweep_games", "schedule": float(ARENA_SWEEP_SECONDS)},
    "fold-totals": {
        "task": "workers.fold_totals",
        "schedule": float(ARENA_FOLD_SECONDS),
        "options": {"expires": float(ARENA_FOLD_SECONDS)},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The beat's scheduler also drains the outbox (messages saved while the broker was down)
# and resends queued work the broker lost (a Redis restart), every ARENA_OUTBOX_SECONDS in
# its own process: see arena/outbox/beat.py and arena/outbox/watch.py.
CELERY_BEAT_SCHEDULER = "arena.outbox.beat:Scheduler"
ARENA_OUTBOX_SECONDS = env_int("ARENA_OUTBOX_SECONDS", 2, low=1, high=3600)

# REST API (arena/api): versioned under /api/v1/ (/api/ is an alias), one error body,
# throttles per token or address. Rates are "<n>/<second|minute|hour|day>".
ARENA_TOURNAMENT_MAX_GAMES = env_int("ARENA_TOURNAMENT_MAX_GAMES", 5000, low=1, high=1_000_000)
ARENA_THROTTLE_RATES = {
    "login": env_str("ARENA_THROTTLE_LOGIN", "10/minute"),
    "upload": env_str("ARENA_THROTTLE_UPLOAD", "30/hour"),
    "tournament": env_str("ARENA_THROTTLE_TOURNAMENT", "30/hour"),
    "games": env_str("ARENA_THROTTLE_GAMES", "600/minute"),
}
# Throttle counts live in this cache; give every web process the same one (redis://...) so a
# limit holds across processes. The default counts per process.
ARENA_CACHE_URL = env_str("ARENA_CACHE_URL", "")
# The page cache (arena/pagecache.py) needs a cache every process shares: a worker's write
# must reach the web process's cached pages. On by default with ARENA_CACHE_URL; without it
# (the demo) the pages are computed on every request.
ARENA_PAGE_CACHE = env_bool("ARENA_PAGE_CACHE", bool(ARENA_CACHE_URL))
CACHES = {
    "default": (
        # On Redis, with this process's memory standing in while Redis is down (arena/cache.py).
        {"BACKEND": "arena.cache.RedisWithFallback", "LOCATION": ARENA_CACHE_URL}
        if ARENA_CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
REST_FRAMEWORK = {
    # Token first: a request without credentials is then answered 401 with WWW-Authenticate.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "arena.api.pagination.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "arena.api.schema.ArenaAutoSchema",
    "EXCEPTION_HANDLER": "arena.api.errors.handle_exception",
    # ?format= is a tournament filter here, not DRF's renderer override.
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # Writes take JSON; the upload alone is multipart (docs/api/README.md).
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Meeple Arena API",
    "DESCRIPTION": (
        "Titles, players, bots, bot versions, tournaments, games, replays, ratings and "
        "standings of Meeple Arena. Every error has the body "
        '`{"error": {"code", "message", "fields"}}`. The guide is docs/api/README.md.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "PREPROCESSING_HOOKS": ["arena.api.schema.only_v1"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "arena.api.schema.link_created_objects",
        "arena.api.schema.closed_request_bodies",
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatus": "arena.tournaments.models.Tournament.Status",
        "GameStatus": "arena.games.models.Game.Status",
        "BotVersionStatus": "arena.bots.models.BotVersion.Status",
        "SeatStatus": "arena.games.models.GameSeat.Status",
    },
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"arena": {"handlers": ["console"], "level": env_str("ARENA_LOG_LEVEL", "INFO")}},
}
