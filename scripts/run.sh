#!/usr/bin/env bash
# Prepare the database and demo data, then run the web server and a worker together in
# the foreground until Ctrl-C, which stops them all (honcho signals each process group).
set -euo pipefail
cd "$(dirname "$0")/.."

export PORT="${PORT:-8000}"
export ARBITER_PORT="$PORT"  # honcho gives each process a PORT of its own; the worker's name keeps the site's
export HOST="${HOST:-127.0.0.1}"
export WEB_WORKERS="${WEB_WORKERS:-2}"
export WORKER_CONCURRENCY="${WORKER_CONCURRENCY:-$(nproc)}"
bin=.venv/bin

echo "arbiter: preparing the database"
"$bin/python" manage.py migrate --noinput -v 0
if [ "${LOAD_DEMO:-1}" = 1 ]; then
    echo "arbiter: the demo contests, their reference programs and first games (minutes the first time; the site starts after)"
    "$bin/python" manage.py load_demo --play
fi
"$bin/python" manage.py collectstatic --noinput -v 0

cat <<BANNER

  Arbiter is starting at http://$HOST:$PORT/
  Demo logins (user / password):
    admin / arbiter-admin   (administrator)
    judge / arbiter-judge   (judge)
    organiser / arbiter-organiser   (organiser: opens and edits contests at /organise/)
    alice / arbiter-alice   (contestant)
    bob   / arbiter-bob     (contestant)
  Press Ctrl-C to stop the web server and the worker.

BANNER

exec "$bin/honcho" --no-colour start --procfile Procfile --app-root .
