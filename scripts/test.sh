#!/usr/bin/env bash
# The whole suite (`make test`): the tests not marked `alone` in TEST_PROCESSES processes side by
# side (pytest-xdist; each with a var folder, a test database and a Redis database of its own:
# arbiter/settings.py), then those marked `alone` (they measure a share of the CPU or a pace,
# which tests beside them would skew) one at a time. Arguments go to both runs' pytest.
# A run that selects nothing (exit 5) is no failure: the arguments may leave one part empty.
set -uo pipefail
cd "$(dirname "$0")/.."
export ARBITER_VAR_DIR="${ARBITER_VAR_DIR:-var/test}"
pytest=.venv/bin/pytest
status=0
ARBITER_TEST_PART=shared "$pytest" -n "${TEST_PROCESSES:-4}" --dist worksteal "$@"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || status=$rc
ARBITER_TEST_PART=alone "$pytest" "$@"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || status=$rc
exit "$status"
