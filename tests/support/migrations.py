"""Running the migrations back and forth in a test that checks what one of them does to
rows written before it."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def around(app: str, suffix: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """(the migration before, the one whose name ends in ``suffix``) of ``app``, found by
    name: the numbers may change when branches are merged."""
    loader = MigrationExecutor(connection).loader
    (after,) = [k for k in loader.disk_migrations if k[0] == app and k[1].endswith(suffix)]
    (before,) = [d for d in loader.disk_migrations[after].dependencies if d[0] == app]
    return before, after


def migrate(target):
    """Migrate to ``target``; the app registry of that state (its historical models)."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
