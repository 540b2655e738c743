"""What the platform is doing, measured: the figures /metrics gives Prometheus and the judges'
console shows. Read at the moment they are asked for from the database every host shares, so
one endpoint speaks for every worker host:

- the queues (matches, races, builds): how many wait, and since when the oldest;
- matches in each state, attempts by how they ended (infrastructure faults among them);
- the workers alive, with their queues, slots and the sandbox level their self-check found;
- latency histograms of each worker host (``Latency`` rows, grown at the end of every
  attempt): a jail's start, and a move's cost to the platform beyond the program's own time.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from celery import current_app  # the installation's app (arbiter/celery.py)
from django.db import InterfaceError, OperationalError
from django.db.models import Count, Min
from django.utils import timezone
from django.utils.translation import gettext

from contests.models import Submission
from judging import disks, queues
from judging.models import Latency, Match, MatchAttempt, WorkerHeartbeat
from judging.play.latencies import BUCKETS
from judging.play.matches import stale_after

log = logging.getLogger(__name__)

INFRASTRUCTURE = (
    MatchAttempt.Outcome.LOST,
    MatchAttempt.Outcome.INFRA,
    MatchAttempt.Outcome.REFEREE,
    MatchAttempt.Outcome.STALLED,
    MatchAttempt.Outcome.ERROR,
)


# --- Reading ---------------------------------------------------------------------------------


@dataclass
class Histogram:
    name: str
    host: str
    buckets: list[tuple[float, int]]  # (upper bound, cumulative count), +Inf last
    count: int
    total: float

    def quantile(self, q: float) -> float | None:
        """The upper bound of the bucket holding the ``q`` quantile (an estimate from above)."""
        if not self.count:
            return None
        for le, cumulative in self.buckets:
            if cumulative >= q * self.count:
                return le
        return None


@dataclass
class Queue:
    name: str
    length: int
    oldest: datetime | None

    def age(self, now: datetime) -> float:
        return (now - self.oldest).total_seconds() if self.oldest else 0.0


@dataclass
class Snapshot:
    at: datetime
    queues: list[Queue]
    matches: dict[str, int]
    attempts: dict[str, int]
    workers: list[WorkerHeartbeat]
    histograms: list[Histogram] = field(default_factory=list)

    @property
    def faults(self) -> int:
        return sum(self.attempts.get(outcome, 0) for outcome in INFRASTRUCTURE)

    @property
    def latencies(self) -> list[dict]:
        """Each histogram over every host: how many, and the buckets of the median and the 90th
        percentile (what the console shows)."""
        found = []
        for name, label in (
            ("jail_start_seconds", gettext("a jail's start")),
            ("move_overhead_seconds", gettext("a move, beyond the program")),
        ):
            h = self.overall(name)
            found.append({"label": label, "count": h.count, "p50": _ms(h.quantile(0.5)), "p90": _ms(h.quantile(0.9))})
        return found

    def overall(self, name: str) -> Histogram:
        """Every host's histogram of ``name`` added up."""
        bounds = [*BUCKETS[name], float("inf")]
        mine = [h for h in self.histograms if h.name == name]
        buckets = [(le, sum(dict(h.buckets).get(le, 0) for h in mine)) for le in bounds]
        return Histogram(name, "", buckets, sum(h.count for h in mine), sum(h.total for h in mine))


def snapshot() -> Snapshot:
    """Everything the metrics say, now: a handful of grouped queries, whatever the sizes."""

    now = timezone.now()
    queued = Match.objects.filter(status=Match.Status.QUEUED)
    waiting = []
    for name, races in (("matches", False), ("races", True)):
        found = queues.of_queue(queued, races).aggregate(n=Count("pk"), oldest=Min("queued_at"))
        waiting.append(Queue(name, found["n"], found["oldest"]))
    builds = Submission.objects.filter(status=Submission.Status.QUEUED).aggregate(
        n=Count("pk"), oldest=Min("queued_at")
    )
    waiting.append(Queue("builds", builds["n"], builds["oldest"]))
    matches = dict(Match.objects.order_by().values_list("status").annotate(n=Count("pk")))
    attempts = dict(MatchAttempt.objects.order_by().values_list("outcome").annotate(n=Count("pk")))
    workers = list(
        WorkerHeartbeat.objects.filter(stopped_at__isnull=True, last_seen__gte=now - stale_after()).order_by("hostname")
    )
    return Snapshot(now, waiting, matches, attempts, workers, list(_histograms()))


def _histograms() -> Iterator[Histogram]:
    rows: dict[tuple[str, str], list[Latency]] = defaultdict(list)
    for row in Latency.objects.order_by("host", "name"):
        rows[(row.host, row.name)].append(row)
    for (host, name), found in rows.items():
        bounds = [*BUCKETS.get(name, ()), float("inf")]
        per_bucket = {row.le: row.count for row in found if row.le is not None}
        total = next((row for row in found if row.le is None), None)
        cumulative, buckets = 0, []
        for le in bounds:
            cumulative += per_bucket.get(le, 0)
            buckets.append((le, cumulative))
        yield Histogram(name, host, buckets, total.count if total else cumulative, total.total if total else 0.0)


# --- Prometheus --------------------------------------------------------------------------------


DB_ERRORS = (OperationalError, InterfaceError)
BROKER_CHECK_S = 2.0  # the longest /metrics waits for the broker


def broker_up(timeout: float = BROKER_CHECK_S) -> bool:
    """Whether the broker takes a connection and a queue's declaration within ``timeout``
    seconds. Asked in a thread of its own, given up after ``timeout`` whatever the transport
    does (a host gone, its packets dropped): the page that asks waits no longer."""

    answer: list[bool] = []

    def ask() -> None:
        try:
            options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
            with current_app.connection_for_write(connect_timeout=timeout, transport_options=options) as conn:
                conn.ensure_connection(max_retries=1, timeout=timeout)
                conn.default_channel.queue_declare(queue=queues.DEFAULT)
            answer.append(True)
        except Exception as e:  # kombu's and redis's connection errors, whatever the transport
            log.warning("metrics: the broker is away (%s: %s)", type(e).__name__, e)
            answer.append(False)

    asking = threading.Thread(target=ask, name="arbiter-broker-check", daemon=True)
    asking.start()
    asking.join(timeout)
    return bool(answer and answer[0])


class Collector:
    """The snapshot as Prometheus metric families (prometheus_client's custom collector)."""

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily

        free = GaugeMetricFamily("arbiter_disk_free_bytes", "Free space of a disk this host writes on", labels=["disk"])
        for disk in disks.look():
            free.add_metric([disk.name], disk.free)
        yield free
        yield GaugeMetricFamily(
            "arbiter_broker_up", f"Whether the broker answered within {BROKER_CHECK_S:g} s", value=int(broker_up())
        )
        try:
            s = snapshot()
        except DB_ERRORS:  # the database is away: say so, in the format a scraper reads
            yield GaugeMetricFamily("arbiter_database_up", "Whether the database answered", value=0)
            return
        yield GaugeMetricFamily("arbiter_database_up", "Whether the database answered", value=1)
        low = GaugeMetricFamily(
            "arbiter_worker_disk_low", "A worker's disk below DISK_MIN_FREE_MB: it claims nothing", labels=["worker"]
        )
        for worker in s.workers:
            low.add_metric([worker.hostname], 1 if worker.low_disk else 0)
        yield low
        length = GaugeMetricFamily("arbiter_queue_length", "Work waiting in a queue", labels=["queue"])
        age = GaugeMetricFamily(
            "arbiter_queue_oldest_age_seconds", "How long the oldest waiting has waited", labels=["queue"]
        )
        for queue in s.queues:
            length.add_metric([queue.name], queue.length)
            age.add_metric([queue.name], queue.age(s.at))
        yield length
        yield age
        matches = GaugeMetricFamily("arbiter_matches", "Matches in each state", labels=["state"])
        for state in Match.Status.values:
            matches.add_metric([state], s.matches.get(state, 0))
        yield matches
        # Gauges, not counters: an attempt moves from running to how it ended (and a lost one
        # whose result was kept back to finished), and a contest removed takes its own away.
        attempts = GaugeMetricFamily("arbiter_attempts", "Attempts at matches, by where they stand", labels=["outcome"])
        for outcome in MatchAttempt.Outcome.values:
            attempts.add_metric([outcome], s.attempts.get(outcome, 0))
        yield attempts
        yield GaugeMetricFamily(
            "arbiter_infrastructure_faults",
            "Attempts ended by the platform (lost, fault, stall, error)",
            value=s.faults,
        )
        alive = GaugeMetricFamily(
            "arbiter_worker_up", "Workers alive, with their sandbox level", labels=["worker", "sandbox_level", "queues"]
        )
        slots = GaugeMetricFamily("arbiter_worker_concurrency", "Tasks a worker runs at once", labels=["worker"])
        for worker in s.workers:
            alive.add_metric([worker.hostname, worker.sandbox_level or "unknown", ",".join(worker.queues)], 1)
            slots.add_metric([worker.hostname], worker.concurrency)
        yield alive
        yield slots
        by_level = GaugeMetricFamily(
            "arbiter_workers_alive", "Workers alive by sandbox level", labels=["sandbox_level"]
        )
        for level in sorted({"full", "degraded", "none"} | {w.sandbox_level or "unknown" for w in s.workers}):
            by_level.add_metric([level], sum((w.sandbox_level or "unknown") == level for w in s.workers))
        yield by_level
        for name, what in (
            ("jail_start_seconds", "Time to start a jail"),
            ("move_overhead_seconds", "A move's cost to the platform beyond the program's own time"),
        ):
            family = HistogramMetricFamily(f"arbiter_{name}", what, labels=["host"])
            for h in (h for h in s.histograms if h.name == name):
                family.add_metric([h.host], [(_le(le), count) for le, count in h.buckets], sum_value=h.total)
            yield family


def _ms(bound: float | None) -> str:
    if bound is None:
        return "–"
    return "over the largest bucket" if bound == float("inf") else f"{bound * 1000:g} ms"


def _le(bound: float) -> str:
    return "+Inf" if bound == float("inf") else repr(bound)


def exposition() -> bytes:
    """The metrics in Prometheus's text format."""
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry(auto_describe=False)
    registry.register(Collector())
    return generate_latest(registry)
