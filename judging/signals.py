"""The worker's heartbeat: a thread in each worker's main process refreshes its row."""

from __future__ import annotations

import logging
import os
import threading

from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

log = logging.getLogger(__name__)
_stop = threading.Event()


@worker_ready.connect
def start_heartbeat(sender, **kwargs) -> None:
    from judging import services

    hostname = sender.hostname
    queues = sorted(q.name for q in sender.app.amqp.queues.consume_from.values())
    concurrency = sender.controller.concurrency if sender.controller else 1
    started_at = timezone.now()

    def loop() -> None:
        while True:
            try:
                close_old_connections()
                services.beat(hostname, queues=queues, concurrency=concurrency, pid=os.getpid(), started_at=started_at)
            except Exception:  # the database may be briefly away; the next beat retries
                log.exception("heartbeat of %s failed", hostname)
            if _stop.wait(settings.WORKER_HEARTBEAT_SECONDS):
                return

    _stop.clear()
    threading.Thread(target=loop, name="arbiter-heartbeat", daemon=True).start()


@worker_shutdown.connect
def stop_heartbeat(sender, **kwargs) -> None:
    from judging import services

    _stop.set()
    try:
        close_old_connections()
        services.worker_stopped(sender.hostname)
    except Exception:
        log.exception("could not record the stop of %s", sender.hostname)
