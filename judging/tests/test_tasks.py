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
