#!/bin/sh
# The container's commands, run by tini as PID 1 (deploy/Dockerfile). Each `exec`s, so tini
# passes SIGTERM straight to gunicorn or Celery, whose own warm shutdown then finishes the
# requests and games under way.
set -eu

worker_name() {
  # Unique across containers and machines: two containers can share a host name (host
  # networking, a copied VM) and their processes a pid.
  suffix=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
  echo "arena-${suffix}@%h"
}

command=${1:-web}
[ "$#" -gt 0 ] && shift
case "$command" in
  web)
    exec gunicorn arena.wsgi --config "${ARENA_GUNICORN_CONFIG:-/app/deploy/gunicorn.conf.py}" "$@"
    ;;
  worker)
    exec celery -A arena worker --loglevel "${ARENA_LOG_LEVEL:-INFO}" \
      --concurrency "${ARENA_WORKER_CONCURRENCY:-$(nproc)}" --hostname "$(worker_name)" \
      --without-gossip --without-mingle "$@"
    ;;
  beat)
    exec celery -A arena beat --loglevel "${ARENA_LOG_LEVEL:-INFO}" \
      --schedule "${ARENA_VAR_DIR:-/var/lib/arena}/celerybeat-schedule" "$@"
    ;;
  migrate)
    exec python manage.py migrate --noinput "$@"
    ;;
  manage)
    exec python manage.py "$@"
    ;;
  *)
    exec "$command" "$@"
    ;;
esac
