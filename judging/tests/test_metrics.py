"""The platform measured: latency histograms grown by attempts, the snapshot every host's
figures are read from, /metrics for Prometheus, the console's section, and logs that name
what they are about."""

from __future__ import annotations

import io
import json
import logging

import pytest

from contests.tests.factories import make_contest, make_user, name_to
from judging import logs, metrics
from judging.models import Latency, Match, MatchAttempt, WorkerHeartbeat
from judging.play import latencies, matches
from judging.record import lifecycle
from judging.tests.test_matches import _chomp_match

pytestmark = pytest.mark.django_db


def test_observations_fill_each_hosts_buckets_and_add_up_over_hosts():
    latencies.observe(
        "a", {"move_overhead_seconds": [0.0001, 0.0004, 0.0004, 0.003, 9.0], "jail_start_seconds": [0.007]}
    )
    latencies.observe("a", {"move_overhead_seconds": [0.0004]})
    latencies.observe("b", {"move_overhead_seconds": [0.0015], "unknown": [1.0]})
    by = {(h.host, h.name): h for h in metrics.snapshot().histograms}
    a = by[("a", "move_overhead_seconds")]
    assert a.count == 6 and a.total == pytest.approx(9.0043)
    cumulative = dict(a.buckets)
    assert (
        cumulative[0.0002] == 1 and cumulative[0.0005] == 4 and cumulative[0.005] == 5 and cumulative[float("inf")] == 6
    )
    assert a.quantile(0.5) == 0.0005 and a.quantile(0.99) == float("inf")
    overall = metrics.snapshot().overall("move_overhead_seconds")
    assert overall.count == 7 and dict(overall.buckets)[0.002] == 5
    assert ("b", "unknown") not in by and by[("a", "jail_start_seconds")].quantile(0.5) == 0.01
    assert Latency.objects.filter(host="a", name="move_overhead_seconds", le=0.0005).get().count == 3  # one row, grown


def test_a_match_played_records_its_jails_and_moves(db):
    match = _chomp_match()
    assert matches.play_now(match.pk) == Match.Status.FINISHED
    moves = sum(match.seats.values_list("moves", flat=True))
    latencies.flush()  # a worker process writes what it measured every few seconds
    overall = metrics.snapshot().overall
    assert overall("jail_start_seconds").count == 2
    assert 0 < overall("move_overhead_seconds").count <= moves  # the move that ends the game is not timed
    assert 0 < overall("jail_start_seconds").total < 10


def test_the_metrics_endpoint_speaks_prometheus_and_may_ask_for_a_token(client, settings):
    from django.utils import timezone

    contest = make_contest()
    Match.objects.create(contest=contest, seed=1)
    race = Match.objects.create(contest=make_contest(game="wheels"), seed=2)
    done = _chomp_match(status=Match.Status.FINISHED)
    now = timezone.now()
    MatchAttempt.objects.create(match=race, number=1, started_at=now, last_seen=now, outcome="lost")
    WorkerHeartbeat.objects.create(hostname="w1@h", queues=["matches"], concurrency=2, started_at=now, last_seen=now,
                                   sandbox_level="full")  # fmt: skip
    latencies.observe("h", {"jail_start_seconds": [0.008, 0.03]})
    text = client.get("/metrics").content.decode()
    assert 'arbiter_queue_length{queue="matches"} 1.0' in text and 'arbiter_queue_length{queue="races"} 1.0' in text
    assert 'arbiter_matches{state="finished"} 1.0' in text and 'arbiter_attempts{outcome="lost"} 1.0' in text
    assert "arbiter_infrastructure_faults 1.0" in text and "# TYPE arbiter_attempts gauge" in text
    assert 'arbiter_worker_up{queues="matches",sandbox_level="full",worker="w1@h"} 1.0' in text
    assert 'arbiter_workers_alive{sandbox_level="full"} 1.0' in text
    assert 'arbiter_workers_alive{sandbox_level="none"} 0.0' in text  # every level, so an alert on 0 can fire
    assert "arbiter_broker_up 1.0" in text
    assert 'arbiter_jail_start_seconds_bucket{host="h",le="0.01"} 1.0' in text
    assert 'arbiter_jail_start_seconds_bucket{host="h",le="+Inf"} 2.0' in text
    assert 'arbiter_jail_start_seconds_count{host="h"} 2.0' in text
    assert done.pk
    settings.METRICS_TOKEN = "s3cret-token"
    assert client.get("/metrics").status_code == 401
    refused = client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong")
    assert refused.status_code == 401 and refused["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert client.get("/metrics", HTTP_AUTHORIZATION="Basic s3cret-token").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION="bearer s3cret-token").status_code == 200
    judge = name_to(contest, make_user("judge"))
    client.force_login(judge)
    assert client.get("/metrics").status_code == 200
    page = client.get(f"/contests/{contest.slug}/console/").content.decode()
    assert "<h2>The platform</h2>" in page and "a jail&#x27;s start: median ≤ 10 ms, 90% ≤ 50 ms (2)" in page


def _logged(formatter: logging.Formatter, **ids) -> str:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(logs.AboutFilter())
    handler.setFormatter(formatter)
    logger = logging.getLogger("arbiter.test.about")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with logs.about(**ids), logs.about(attempt=2):
            logger.warning("playing %s", "on")
        logger.warning("outside")
    finally:
        logger.removeHandler(handler)
    return out.getvalue()


def test_the_metrics_say_a_broker_that_never_answers_is_down_within_seconds(client, monkeypatch):
    """Issue 36: /metrics had no broker gauge. A broker that takes connections and answers
    nothing (its host hung) is a 0 within the check's 2 s; the page does not hang on it."""
    import socket
    import time

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # the kernel accepts; nobody ever reads or writes
    try:
        # Celery reads CELERY_BROKER_URL from the environment before its own configuration.
        monkeypatch.setenv("CELERY_BROKER_URL", f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
        started = time.monotonic()
        text = client.get("/metrics").content.decode()
        took = time.monotonic() - started
    finally:
        silent.close()
    assert "arbiter_broker_up 0.0" in text and "arbiter_database_up 1.0" in text
    assert took < metrics.BROKER_CHECK_S + 1.5


def test_log_lines_name_the_contest_stage_match_and_attempt():
    text = _logged(logging.Formatter("%(levelname)s %(message)s%(ids)s"), contest=3, stage=None, match=41)
    assert text.splitlines() == ["WARNING playing on [contest=3 match=41 attempt=2]", "WARNING outside"]
    lines = [json.loads(line) for line in _logged(logs.JsonFormatter(), contest=3, match=41).splitlines()]
    assert lines[0]["message"] == "playing on" and (lines[0]["contest"], lines[0]["match"], lines[0]["attempt"]) == (
        3,
        41,
        2,
    )
    assert lines[0]["level"] == "WARNING" and lines[0]["time"].endswith("+00:00") and "contest" not in lines[1]


def test_the_oldest_wait_counts_from_the_last_queueing_not_the_making(queued):
    from datetime import timedelta

    from django.utils import timezone

    old = _chomp_match(status=Match.Status.FINISHED)
    Match.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=30))
    lifecycle.rerun_match(Match.objects.get(pk=old.pk))  # a judge re-runs a month-old match
    (queue,) = [q for q in metrics.snapshot().queues if q.name == "matches"]
    assert queue.length == 1 and queue.age(timezone.now()) < 60


def test_what_a_quiet_worker_measured_is_written_within_the_flush_period(monkeypatch, transactional_db):
    import time

    monkeypatch.setattr(latencies, "FLUSH_S", 0.2)
    monkeypatch.setattr(latencies, "QUIET_FLUSH", True)  # as in a worker (conftest turns it off)
    latencies._flushed[0] = time.monotonic()  # it wrote just now: this one waits for the timer
    latencies.observe_safely("quiet", {"jail_start_seconds": [0.01]})
    assert not Latency.objects.filter(host="quiet").exists()
    deadline = time.monotonic() + 5
    while not Latency.objects.filter(host="quiet").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert metrics.snapshot().overall("jail_start_seconds").count == 1
