"""Task plumbing that needs no worker: routing, on-commit enqueueing, idempotence."""

import pytest
from django.conf import settings

from arbiter.celery import app
from judging import queues, workers
from judging.models import Ping


def test_queues_are_named_in_one_place():
    assert [q.name for q in settings.CELERY_TASK_QUEUES] == list(queues.ALL)
    assert {"builds", "matches"} <= set(queues.ALL)


def test_delivery_settings_are_at_least_once_with_one_message_in_flight():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


@pytest.mark.django_db
def test_ping_is_enqueued_only_when_the_transaction_commits(django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    monkeypatch.setattr("judging.tasks.ping.apply_async", lambda args=None, kwargs=None, **kw: sent.append(args))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        ping = workers.send_ping()
        assert sent == []
    assert len(callbacks) == 1
    callbacks[0]()
    assert sent == [(ping.pk,)]


@pytest.mark.django_db
def test_a_redelivered_ping_counts_once():
    ping = Ping.objects.create()
    assert workers.answer_ping(ping.pk, "w1@host") is True
    assert workers.answer_ping(ping.pk, "w2@host") is False
    ping.refresh_from_db()
    assert ping.answered_by == "w1@host"


@pytest.mark.parametrize(
    ("task_name", "queue"),
    [("judging.ping", "default"), ("judging.build_submission", "builds"), ("judging.play_match", "matches")],
)
def test_tasks_are_routed_by_name(task_name, queue):
    route = app.amqp.router.route({}, task_name)
    assert route["queue"].name == queue


def _full_disk():
    from pathlib import Path

    from judging import disks

    return disks.Disk("media", Path("/srv/media"), 0, True)


def _run(task, monkeypatch, *args):
    """Run a task's body here as a worker would, its token's time limit an hour; the times it
    asked to be sent again (their countdowns)."""
    from celery.exceptions import Retry

    sent = []

    def retry(exc=None, countdown=None, **options):
        sent.append(countdown)
        return Retry()

    monkeypatch.setattr(task, "retry", retry)
    task.push_request(hostname="w@host", timelimit=(None, 3600), retries=0)
    try:
        task.run(*args)
    except Retry:
        pass
    finally:
        task.pop_request()
    return sent


@pytest.mark.django_db
def test_a_token_on_a_full_disk_is_held_quietly_and_played_within_seconds_of_room(monkeypatch, caplog):
    """Issue 36: on a full disk every token went back to the broker every 30 s with an error
    line (1,442 tokens for ~700 matches, 13 lines a second), and work began 2.5 minutes after
    the disk was freed. Now a process holds its token while the disk is full (taking no other),
    logs nothing of it (the heartbeat does, once a minute), and sends it again once, at once,
    when there is room: a fresh token, its whole time limit ahead."""
    import logging
    import time

    from judging import disks, tasks

    room_at = time.monotonic() + 1.0
    monkeypatch.setattr(disks, "low", lambda: [_full_disk()] if time.monotonic() < room_at else [])
    monkeypatch.setattr("judging.play.matches.require_isolation", lambda: None)
    with caplog.at_level(logging.INFO):
        sent = _run(tasks.play_match, monkeypatch, 1)
    assert sent == [0] and time.monotonic() - room_at < 2.5
    assert not [r for r in caplog.records if r.name.startswith("judging") and r.levelno >= logging.INFO]


@pytest.mark.django_db
def test_a_build_on_a_full_disk_waits_for_room_then_builds_at_once(monkeypatch):
    import time

    from judging import disks, tasks
    from judging.play import builds

    built, full = [], [True]
    monkeypatch.setattr(builds, "build_submission", built.append)
    monkeypatch.setattr(disks, "low", lambda: [_full_disk()] if full[0] else [])
    monkeypatch.setattr(tasks, "DISK_WAIT_S", 0.5)
    started = time.monotonic()
    assert _run(tasks.build_submission, monkeypatch, 7) == [0] and built == []  # still full: sent again, once
    assert 0.5 <= time.monotonic() - started < 2.5
    full[0] = False
    assert _run(tasks.build_submission, monkeypatch, 7) == [] and built == [7]


def test_a_full_disk_is_logged_once_a_minute_and_its_end_once(caplog):
    import logging

    from judging import disks

    now = [0.0]
    said = disks.FullDiskLog("w@host", clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="judging.disks"):
        for _ in range(130):  # two minutes of heartbeats a second
            said.look([_full_disk()])
            now[0] += 1
        said.look([])
        said.look([])
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4 and all("claims no match and builds nothing while the media disk" in x for x in lines[:3])
    assert lines[3] == "w@host has room again on its disks: it claims and builds"
