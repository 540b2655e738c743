"""bench/bench_scale.py at a tiny size: its rows are what the real code reads, and its claimers,
processes claiming at once through ``judging.play.matches.claim``, take every queued match exactly
once. No time is asserted."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from bench import bench_scale
from conftest import other_sessions
from judging.models import Match, MatchAttempt, MatchSeat
from judging.record import standings

pytestmark = [pytest.mark.postgres]


@pytest.fixture
def on_postgres(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("bench_scale measures PostgreSQL only (row locks and INSERT ... SELECT generate_series)")
    yield
    # The claimers' sessions are gone before the next test (or the test database's teardown,
    # which PostgreSQL refuses while another session is on it): their processes have exited,
    # their server processes may not have noticed yet.
    deadline = time.monotonic() + 10
    while other_sessions() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_the_rows_are_a_ladder_the_real_code_reads(on_postgres):
    contest, stage = bench_scale.generate(20, 200, say=lambda *a, **k: None)
    assert Match.objects.filter(stage=stage, status=Match.Status.FINISHED).count() == 200
    assert MatchSeat.objects.filter(match__stage=stage).count() == 400
    match = Match.objects.filter(stage=stage).first()
    assert match.result_attempt.match_id == match.pk
    seats = {s["index"]: s for s in match.result_attempt.result["seats"]}
    for seat in match.seats.all():
        assert (seats[seat.index]["entry"], seats[seat.index]["status"]) == (seat.entry_id, seat.status)
    table = standings.compute(contest, stage)
    assert len(table.rows) == 20 and table.finished == 200
    # Made again with more games: the difference is added, nothing twice.
    bench_scale.generate(20, 300, say=lambda *a, **k: None)
    assert Match.objects.filter(stage=stage).count() == MatchAttempt.objects.filter(match__stage=stage).count() == 300


def test_claimers_at_once_take_every_queued_match_exactly_once(on_postgres):
    contest, stage = bench_scale.generate(20, 200, say=lambda *a, **k: None)
    ids = bench_scale.queue(contest, stage, 60)
    assert len(ids) == 60 and Match.objects.filter(pk__in=ids, status=Match.Status.QUEUED).count() == 60

    run = bench_scale.claim_all(ids, claimers=4)

    assert (run.claimed, run.doubled, run.lost, run.left) == (60, 0, 0, 0)
    assert Match.objects.filter(pk__in=ids, status=Match.Status.RUNNING).count() == 60
    assert MatchAttempt.objects.filter(match_id__in=ids, outcome=MatchAttempt.Outcome.RUNNING).count() == 60
    bench_scale.put_back(ids)  # and the next run starts from the same queue
    assert Match.objects.filter(pk__in=ids, status=Match.Status.QUEUED).count() == 60
    assert not MatchAttempt.objects.filter(match_id__in=ids).exists()


def test_the_baseline_claims_its_bare_table_exactly_once(on_postgres):
    run = bench_scale.claim_all([], claimers=4, bare=bench_scale.bare_queue(60))
    assert (run.claimed, run.doubled, run.lost, run.left) == (60, 0, 0, 0)
    with connection.cursor() as cur:
        cur.execute("DROP TABLE bench_scale_queue")
