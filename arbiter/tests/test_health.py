from datetime import timedelta

import pytest
from django.utils import timezone

from judging.models import WorkerHeartbeat

pytestmark = pytest.mark.django_db


def _worker(hostname, seen_ago_s, stopped=False):
    now = timezone.now()
    return WorkerHeartbeat.objects.create(
        hostname=hostname,
        queues=["builds", "default", "matches"],
        started_at=now - timedelta(hours=1),
        last_seen=now - timedelta(seconds=seen_ago_s),
        stopped_at=now if stopped else None,
    )


def test_health_without_a_worker_is_degraded_but_up(client):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["workers"] == {"ok": False, "count": 0, "workers": []}


def test_health_counts_only_live_workers(client):
    _worker("live@a", seen_ago_s=1)
    _worker("stale@b", seen_ago_s=3600)
    _worker("stopped@c", seen_ago_s=1, stopped=True)
    body = client.get("/health/").json()
    assert body["status"] == "ok"
    assert [w["hostname"] for w in body["workers"]["workers"]] == ["live@a"]


def test_health_is_an_error_when_the_broker_is_unreachable(client, monkeypatch):
    # Celery reads CELERY_BROKER_URL from the environment before its own configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:9/0")  # nothing listens on the discard port
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["broker"] == {"ok": False, "transport": "redis", "error": "OperationalError"}


def test_health_is_never_cached(client):
    assert "no-cache" in client.get("/health/")["Cache-Control"]
