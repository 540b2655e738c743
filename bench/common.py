"""What every benchmark shares: where it may make things, which port it may take, how it
says what it is doing, and that it leaves nothing behind.

- Folders: under ``BENCH_TMP`` (else the system's temporary folder), each removed on the way
  out (``scratch``; an installation's folder by ``running_site(base=base())``).
- Ports: ``--port`` where a bench serves something, else ``BENCH_PORT``, else a free one.
- Killed with SIGTERM or SIGHUP, a bench leaves as on Ctrl-C (``exit_on_signals``): its
  ``finally`` blocks and exit handlers stop what it started and remove what it made. (SIGKILL
  leaves no chance: its folders are named ``arbiter-bench-*`` / ``arbiter-site-*`` to be found.)
- Progress on standard error with the time and the load average (``say``), the tables on
  standard output.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path


def exit_on_signals() -> None:
    """SIGTERM and SIGHUP end the bench as Ctrl-C does (KeyboardInterrupt)."""

    def leave(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, leave)


def base() -> str | None:
    """The folder the bench makes its own folders in (None: the system's temporary folder)."""
    return os.environ.get("BENCH_TMP") or None


def scratch(prefix: str) -> Path:
    """A folder of the bench's own, removed at exit (also after Ctrl-C, SIGTERM or SIGHUP)."""
    folder = Path(tempfile.mkdtemp(prefix=f"arbiter-bench-{prefix}-", dir=base()))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def add_port_option(parser) -> None:
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("BENCH_PORT") or 0),
        help="port to serve on (else BENCH_PORT, else a free one)",
    )


def port(chosen: int = 0) -> int:
    if chosen:
        return chosen
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load() -> str:
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def say(text: str) -> None:
    """A line of progress on standard error: the time, the text and the load average."""
    print(f"[{time.strftime('%H:%M:%S')}] {text} (load {load()})", file=sys.stderr, flush=True)
