"""The latencies a worker measures (a jail's start, a move's cost to the platform beyond the
program's own time), kept as ``Latency`` histogram rows of its host: each attempt's times
added in a process and written every few seconds (``observe_safely``), which ``judging.metrics``
reads for /metrics and the console."""

from __future__ import annotations

import atexit
import bisect
import logging
import threading
import time
from collections import defaultdict

from django.db import IntegrityError, connection, transaction
from django.db.models import F

from judging.models import Latency

log = logging.getLogger(__name__)

# Upper bounds of the buckets, in seconds, by histogram.
BUCKETS: dict[str, tuple[float, ...]] = {
    "jail_start_seconds": (0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    "move_overhead_seconds": (0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5),
}


@transaction.atomic  # one commit for the lot
def observe(host: str, timings: dict[str, list[float]]) -> None:
    """Add one attempt's times to its host's histograms: one increment per bucket touched."""
    for name, values in timings.items():
        bounds = BUCKETS.get(name)
        if bounds is None or not values:
            continue
        counts: dict[float | None, int] = defaultdict(int)
        for value in values:
            i = bisect.bisect_left(bounds, value)
            counts[bounds[i] if i < len(bounds) else float("inf")] += 1
        _add(host, name, None, len(values), sum(values))
        for le, count in counts.items():
            _add(host, name, le, count, 0.0)


def _add(host: str, name: str, le: float | None, count: int, total: float) -> None:
    rows = Latency.objects.filter(host=host, name=name, le=le) if le is not None else None
    rows = rows if rows is not None else Latency.objects.filter(host=host, name=name, le__isnull=True)
    if rows.update(count=F("count") + count, total=F("total") + total):
        return
    try:
        with transaction.atomic():
            Latency.objects.create(host=host, name=name, le=le, count=count, total=total)
    except IntegrityError:  # another process of the host made it meanwhile
        rows.update(count=F("count") + count, total=F("total") + total)


FLUSH_S = 5.0  # a worker process writes what it measured at most this often
_pending: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
_flushed = [0.0]
_timers: list[threading.Timer] = []  # those waiting to write for a process gone quiet
_lock = threading.Lock()
QUIET_FLUSH = True  # off in tests: a thread of its own would write outside a test's transaction


def observe_safely(host: str, timings: dict[str, list[float]]) -> None:
    """Keep an attempt's times and write what this process has kept when FLUSH_S have passed
    since it last did (a dozen rows' increments, not a dozen per match); never failing what
    called it: a metric is not worth a result."""
    with _lock:  # the quiet-process timer's thread may be flushing meanwhile
        first = not _pending
        for name, values in timings.items():
            _pending[host][name].extend(values)
        due = time.monotonic() - _flushed[0] >= FLUSH_S
    if first:
        atexit.register(flush)  # a command that plays matches itself writes what it kept at its end
        if QUIET_FLUSH:
            timer = threading.Timer(FLUSH_S, _flush_in_thread)  # and a process gone quiet, soon
            timer.daemon = True
            timer.start()
            _timers[:] = [t for t in _timers if t.is_alive()] + [timer]
    if due:
        flush()


def _flush_in_thread() -> None:
    try:
        flush()
    finally:
        connection.close()  # this thread's own


def flush() -> None:
    """Write what this process has kept (``observe_safely``)."""
    atexit.unregister(flush)
    with _lock:
        _flushed[0] = time.monotonic()
        taken = {host: dict(timings) for host, timings in _pending.items()}
        _pending.clear()
    for host, timings in taken.items():
        try:
            observe(host, timings)
        except Exception:
            log.exception("could not record the latencies measured on %s", host)
