"""A real worker process consumes real tasks through the configured broker."""

import pytest

from judging import workers
from judging.models import Ping, WorkerHeartbeat

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def test_worker_answers_a_ping_through_the_broker(worker):
    ping = workers.send_ping()
    answered = workers.wait_for_answer(ping, timeout=30)
    assert answered.answered_at is not None, worker.output()
    assert answered.answered_by == worker.hostname


def test_worker_consumes_many_tasks_each_once(worker):
    pings = [workers.send_ping() for _ in range(5)]
    for ping in pings:
        assert workers.wait_for_answer(ping, timeout=30).answered_at is not None, worker.output()
    assert Ping.objects.filter(answered_at__isnull=True).count() == 0


def test_heartbeat_names_queues_and_stops_with_the_worker(worker):
    beat = WorkerHeartbeat.objects.get(hostname=worker.hostname)
    assert sorted(beat.queues) == ["builds", "default", "matches", "races"]
    assert [w.hostname for w in workers.live_workers()] == [worker.hostname]
    worker.proc.terminate()
    worker.proc.wait(timeout=30)
    beat.refresh_from_db()
    assert beat.stopped_at is not None
    assert workers.live_workers() == []
