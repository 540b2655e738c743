"""Workers: their liveness (heartbeats) and round trips through the broker (pings)."""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from judging import dispatch
from judging.models import Ping, WorkerHeartbeat


def stale_after() -> timedelta:
    return timedelta(seconds=4 * settings.WORKER_HEARTBEAT_SECONDS)


def beat(
    hostname: str, *, queues: list[str], concurrency: int, pid: int, started_at, sandbox_level: str = "", low_disk=""
) -> None:
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(
        hostname=hostname,
        defaults={
            "sandbox_level": sandbox_level,
            "low_disk": low_disk,
            "queues": queues,
            "concurrency": concurrency,
            "pid": pid,
            "started_at": started_at,
            "last_seen": now,
            "stopped_at": None,
        },
    )


def worker_stopped(hostname: str) -> None:
    WorkerHeartbeat.objects.filter(hostname=hostname).update(stopped_at=timezone.now())


def live_workers() -> list[WorkerHeartbeat]:
    cutoff = timezone.now() - stale_after()
    return list(WorkerHeartbeat.objects.filter(stopped_at__isnull=True, last_seen__gte=cutoff))


def answer_ping(ping_id: int, hostname: str) -> bool:
    """Mark a ping answered; a second delivery of the same task changes nothing."""
    return bool(
        Ping.objects.filter(pk=ping_id, answered_at__isnull=True).update(
            answered_at=timezone.now(), answered_by=hostname
        )
    )


def send_ping() -> Ping:
    with transaction.atomic():
        p = Ping.objects.create()
        dispatch.task("judging.ping").delay_on_commit(p.pk)
    return p


def wait_for_answer(ping: Ping, timeout: float) -> Ping:
    deadline = time.monotonic() + timeout
    while True:
        ping.refresh_from_db()
        if ping.answered_at or time.monotonic() >= deadline:
            return ping
        time.sleep(0.1)
