#!/usr/bin/env bash
# Prepare the database and the demo data, then run the web server and a worker together in
# the foreground until Ctrl-C, which stops them all (honcho signals each process group). The
# site starts at once: the demo's builds and first games are a worker's first task, each
# said in its log as it is done, and shown on the site as they finish.
set -euo pipefail
cd "$(dirname "$0")/.."

export PORT="${PORT:-8000}"
export ARBITER_PORT="$PORT"  # honcho gives each process a PORT of its own; the worker's name keeps the site's
export HOST="${HOST:-127.0.0.1}"
export WEB_WORKERS="${WEB_WORKERS:-2}"
export WORKER_CONCURRENCY="${WORKER_CONCURRENCY:-$(nproc)}"
bin=.venv/bin

step() { echo "arbiter: $*"; }

step "migrating the database (ARBITER_VAR_DIR=${ARBITER_VAR_DIR:-var})"
"$bin/python" manage.py migrate --noinput -v 0
demo_note=""
if [ "${LOAD_DEMO:-1}" = 1 ]; then
    step "loading the demo's accounts and contests"
    said=$("$bin/python" manage.py load_demo --background)
    printf '%s\n' "$said" | sed 's/^/arbiter:   /'
    case "$said" in *"queued the demo's"*) demo_note='
  The worker builds the demo'"'"'s programs and plays its first games now ("demo:" lines
  below, a minute or more); their standings and replays appear on the site as they finish.' ;;
    esac
fi
step "collecting the static files"
"$bin/python" manage.py collectstatic --noinput -v 0

cat <<BANNER

  Arbiter is starting at http://$HOST:$PORT/
  Demo logins (user / password):
    admin / arbiter-admin   (administrator)
    judge / arbiter-judge   (judge)
    organiser / arbiter-organiser   (organiser: opens and edits contests at /organise/)
    alice / arbiter-alice   (contestant)
    bob   / arbiter-bob     (contestant)$demo_note
  Press Ctrl-C to stop the web server and the worker.

BANNER

exec "$bin/honcho" --no-colour start --procfile Procfile --app-root .
