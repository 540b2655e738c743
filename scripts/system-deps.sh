#!/usr/bin/env bash
# Install the Debian packages Arbiter needs on this machine, or say exactly which to install.
#   python3-venv  to create .venv (Debian splits venv/ensurepip out of python3)
#   bubblewrap    the sandbox's jail (bwrap); without it untrusted programs do not run
#   gcc g++ make  C and C++ entries, the demo's reference players, Sudoku's solution counter
#   wamerican-large
#                 Crossed Words Solitaire's dictionary (SCOWL's large American English list)
# With `test` (what `make test` runs), also what the test suite needs:
#   chromium      the browser tests (Playwright drives Debian's Chromium; it downloads none)
#   rustc         Rust entries (CodeCup's SIMD players): so their tests run rather than skip
#   postgresql redis-server
#                 the fault tests run an installation on a PostgreSQL and a Redis of their own
#                 (the packages' own services are not used)
#   iproute2 util-linux
#                 the many-hosts tests make hosts of network namespaces (ip, nsenter, unshare)
#   gettext       the translations' check (msgfmt): every catalogue whole and compiled
set -euo pipefail

case "${1:-run}" in
    run | test) ;;
    *) echo "usage: $0 [run|test]" >&2; exit 2 ;;
esac

missing=()
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
[ -r /usr/share/dict/american-english-large ] || missing+=(wamerican-large)
if [ "${1:-run}" = test ]; then
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    command -v rustc >/dev/null 2>&1 || [ -x "${HOME:-/nonexistent}/.cargo/bin/rustc" ] || missing+=(rustc)
    command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
    command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
    command -v ip >/dev/null 2>&1 || missing+=(iproute2)
    command -v nsenter >/dev/null 2>&1 || missing+=(util-linux)
    command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "arbiter: missing Debian packages; install them with:" >&2
    echo "    sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "arbiter: installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
