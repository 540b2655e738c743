"""The state of what the site depends on: database, broker, workers."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import connection

from arbiter.celery import app
from judging import workers as judging

log = logging.getLogger(__name__)


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as e:
        log.warning("health: database unreachable: %s", e)
        return {"ok": False, "vendor": connection.vendor, "error": type(e).__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_broker() -> dict[str, Any]:
    url = app.conf.broker_write_url  # the environment's CELERY_BROKER_URL wins, as in the worker
    transport = url.split("://", 1)[0]
    try:
        with app.connection_for_write(url) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            # Declaring the default queue proves the broker accepts work, not only a socket.
            conn.default_channel.queue_declare(queue=settings.CELERY_TASK_DEFAULT_QUEUE, passive=False)
    except Exception as e:
        log.warning("health: broker unreachable: %s", e)
        return {"ok": False, "transport": transport, "error": type(e).__name__}
    return {"ok": True, "transport": transport}


def check_workers() -> dict[str, Any]:
    try:
        workers = judging.live_workers()
    except Exception as e:
        return {"ok": False, "count": 0, "error": type(e).__name__}
    return {
        "ok": bool(workers),
        "count": len(workers),
        "workers": [
            {
                "hostname": w.hostname,
                "queues": w.queues,
                "concurrency": w.concurrency,
                "last_seen": w.last_seen.isoformat(),
                "sandbox_level": w.sandbox_level,
                "low_disk": w.low_disk,
            }
            for w in workers
        ],
    }


def check_disks(workers: dict[str, Any]) -> dict[str, Any]:
    """This host's media disk (uploads land there), and each live worker's low disks."""
    from judging import disks

    try:
        here = [d for d in disks.look() if d.name == "media"]
    except OSError as e:
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}
    low = [str(d) for d in here if d.low]
    low += [f"{w['hostname']}: {w['low_disk']}" for w in workers.get("workers", []) if w.get("low_disk")]
    return {"ok": not low, "low": low, "media_free_mb": here[0].free // disks.MB if here else None}


def report() -> dict[str, Any]:
    """``error`` when the site cannot work (no database or broker), ``degraded`` when no
    worker is alive or a disk is full (pages work, nothing gets judged, or not everywhere),
    else ``ok``."""
    database = check_database()
    broker = check_broker()
    workers = check_workers() if database["ok"] else {"ok": False, "count": 0}
    disks = check_disks(workers)
    if not (database["ok"] and broker["ok"]):
        status = "error"
    elif not workers["ok"] or not disks["ok"]:
        status = "degraded"
    else:
        status = "ok"
    return {"status": status, "database": database, "broker": broker, "workers": workers, "disks": disks}
