"""What the web service checks before it serves anyone: a real secret key and its own record
signing key, unless DEBUG is on.

Only the web process signs anything (sessions, CSRF tokens, password resets), so the check
runs where it starts (arena.wsgi), not in settings: management commands, workers, beat and
the tests load the same settings without a key.
"""

from django.core.exceptions import ImproperlyConfigured

# What a development checkout signs with when ARENA_SECRET_KEY is unset.
DEV_SECRET_KEY = "dev-only-insecure-key-change-me"
# What a development checkout signs served records with when ARENA_RECORD_SIGNING_KEY is
# unset (an Ed25519 seed, base64url): public in this repository, so a record it signed proves
# nothing. The record key endpoint says when it is in use.
DEV_RECORD_SIGNING_KEY = "KGtBdLlfjxOXpXOrbs3npECAy_q7T6pGjjGuUVmHUsw"
# Keys that ship in this repository's files: a deployment that copied one is not secret.
KNOWN_KEYS = frozenset({DEV_SECRET_KEY, "change-me-to-a-long-random-string"})
MIN_LENGTH = 50
MIN_DISTINCT = 5


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` is not fit for production, or None when it is."""
    if key in KNOWN_KEYS:
        return "it is the example key shipped with Meeple Arena"
    if key.startswith("django-insecure"):
        return "it is a key Django generated for development"
    if len(key) < MIN_LENGTH or len(set(key)) < MIN_DISTINCT:
        return f"it is shorter than {MIN_LENGTH} characters or repeats too few of them"
    return None


def require_production_secret(settings) -> None:
    """Refuse to serve with DEBUG off and a missing, example or weak ARENA_SECRET_KEY, or
    with records signed by the development key (public: a record it signed proves nothing)."""
    if settings.DEBUG:
        return
    problem = secret_key_problem(settings.SECRET_KEY)
    if problem:
        raise ImproperlyConfigured(
            f"ARENA_SECRET_KEY is not fit for production: {problem}. Set it to a long random "
            "value, e.g. the output of: python3 -c 'import secrets; "
            "print(secrets.token_urlsafe(50))' (or set ARENA_DEBUG=true on a development "
            "machine)."
        )
    if settings.ARENA_RECORD_SIGNING_KEY == DEV_RECORD_SIGNING_KEY:
        raise ImproperlyConfigured(
            "ARENA_RECORD_SIGNING_KEY is not set: the site would sign its records with the "
            "development key, which this repository publishes. Set it to a key of your own, "
            'made by: python -c "from engine.core import signatures; '
            'print(signatures.new_private_key_text())" (and keep it: records signed before '
            "verify only against it), or set ARENA_DEBUG=true on a development machine."
        )
