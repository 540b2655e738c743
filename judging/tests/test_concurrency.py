"""What happens when things happen at once: two test games ending together, a heartbeat while
a judge calls an attempt off, a Swiss pairing delivered twice, tasks that meet a database that
is away."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest
from celery.exceptions import Retry
from django.db import OperationalError, connection, transaction

from contests.locks import writing
from contests.models import Submission
from contests.tests.factories import (
    finish_on_paper,
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
)
from games.base import GameResult
from judging import tasks
from judging.models import Match, MatchAttempt
from judging.play import matches
from judging.play.referee import MatchRecord, SeatTotals
from judging.record import lifecycle
from judging.schedule import system_test
from sandbox.errors import SandboxUnavailable


def _record(points: tuple[float, float], statuses: tuple[str, str]) -> MatchRecord:
    outcome = GameResult(points, points, statuses, "seat 1 ate the poison cookie")
    return MatchRecord(outcome, [SeatTotals(3, 0.01, 0.02), SeatTotals(3, 0.01, 0.02)], {"moves": []})


@pytest.mark.django_db(transaction=True)
def test_two_test_games_that_end_together_conclude_the_system_test(monkeypatch):
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, kind="system_test")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), status="testing")
    games = [make_match(contest, seats, stage=stage, round=mine.number) for seats in ([mine, ref], [ref, mine])]
    attempts = [matches.claim("w", match_id=m.pk) for m in games]
    # Both games' results are written before either transaction commits: on PostgreSQL each
    # then saw the other still running, and neither concluded the test.
    both_written = threading.Barrier(2)
    real_conclude = system_test.conclude

    def conclude(match):
        with contextlib.suppress(threading.BrokenBarrierError):
            both_written.wait(timeout=3)  # SQLite runs the transactions one after the other
        real_conclude(match)

    monkeypatch.setattr(system_test, "conclude", conclude)
    errors = []

    def finish(attempt, record):
        try:
            matches.write_result(attempt.pk, record)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=finish, args=(attempts[0], _record((1, 0), ("win", "loss")))),
        threading.Thread(target=finish, args=(attempts[1], _record((0, 1), ("loss", "win")))),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert set(Match.objects.filter(pk__in=[g.pk for g in games]).values_list("status", flat=True)) == {"finished"}
    mine.refresh_from_db()
    assert mine.status == Submission.Status.READY and mine.is_active, mine.test_log
    assert mine.test_log.endswith("system test passed")


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_keeps_its_attempt_alive_and_sees_it_called_off(queued):
    contest = make_contest(game="chomp")
    a, b = (make_submission(make_entry(contest, name=n), status="ready") for n in "AB")
    match = make_match(contest, [a, b])
    attempt = matches.claim("w1")
    with matches.Heartbeat(attempt.pk, 0.05) as heartbeat:
        first_seen = attempt.last_seen
        deadline = time.monotonic() + 10
        while MatchAttempt.objects.get(pk=attempt.pk).last_seen == first_seen and time.monotonic() < deadline:
            time.sleep(0.02)
        assert MatchAttempt.objects.get(pk=attempt.pk).last_seen > first_seen
        assert not heartbeat.lost.is_set()
        lifecycle.rerun_match(match)
        assert heartbeat.lost.wait(10)  # the referee stops at its next move


def test_a_match_task_that_cannot_reach_the_database_is_retried_not_forgotten(monkeypatch):
    retries = []

    def no_database(worker, races=False, budget=None, sent_for=None):
        raise OperationalError("could not connect to server: Connection refused")

    def retry(exc=None, countdown=None, **kwargs):
        retries.append(countdown)
        raise Retry(exc=exc, when=countdown)

    monkeypatch.setattr(matches, "play_next", no_database)
    monkeypatch.setattr(tasks.play_match, "retry", retry)
    with pytest.raises(Retry):
        tasks.play_match.run(7)
    assert retries == [1]
    assert [tasks.backoff(n) for n in (0, 1, 5, 10)] == [1, 2, 32, 60]


def test_a_pairing_task_that_cannot_reach_the_database_is_retried_not_forgotten(monkeypatch):
    from judging.schedule import tournaments

    def no_database(stage_id):
        raise OperationalError("could not connect to server: Connection refused")

    retries = []
    monkeypatch.setattr(tournaments, "pair_next_round", no_database)
    monkeypatch.setattr(
        tasks.pair_swiss_round,
        "retry",
        lambda exc=None, countdown=None, **k: retries.append(countdown) or Retry(exc=exc),
    )
    with pytest.raises(Retry):
        tasks.pair_swiss_round.run(7)
    assert retries == [1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's: SQLite has one writer")
def test_a_pairing_delivered_twice_at_the_same_moment_pairs_the_round_once(queued):
    """Two workers take the same pairing task at once (a broker's second delivery, the
    watchdog's): the stage's lock makes one wait, and it then finds the round paired."""
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 3, "games_per_pairing": 1})
    for name in "ABCDEF":
        make_submission(make_entry(contest, name=name), is_active=True, status="ready")
    for round_no in (1, 2):
        played = lifecycle.run_stage(swiss) if round_no == 1 else list(swiss.matches.filter(round=round_no))
        for match in played:
            finish_on_paper(match, [(1, 1, "win"), (0, 0, "loss")])
        with writing():
            lifecycle.match_ended(played[-1], lifecycle.Ended.FINISHED)
        errors = _together(*[lambda: tasks.pair_swiss_round(swiss.pk)] * 3)
        assert errors == []
        assert swiss.matches.filter(round=round_no + 1).count() == 3


def test_a_build_task_retries_platform_faults_until_it_gives_up(monkeypatch):
    from judging.play import builds

    faults = iter([False, False, True])

    def no_jail(submission_id):
        raise SandboxUnavailable("bubblewrap is not installed")

    monkeypatch.setattr(builds, "build_submission", no_jail)
    monkeypatch.setattr(builds, "build_fault", lambda pk, error: next(faults))
    monkeypatch.setattr(tasks.build_submission, "retry", lambda exc=None, countdown=None, **k: Retry(exc=exc))
    for _ in range(2):
        with pytest.raises(Retry):
            tasks.build_submission.run(3)
    tasks.build_submission.run(3)  # the last fault ends it: no retry, the submission says why


def _together(*actions) -> list[Exception]:
    """Run the actions in threads of their own, let go at the same moment; what they raised."""
    start, errors = threading.Barrier(len(actions)), []

    def run(action):
        try:
            start.wait(timeout=10)
            action()
        except Exception as e:  # pragma: no cover - reported by the caller
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return errors


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's: SQLite has one writer")
def test_a_result_and_a_judges_rerun_at_the_same_moment_never_deadlock(queued):
    """write_result locked the attempt then the match; a judge's re-run, the match then its
    attempts: at the same moment, PostgreSQL failed one of them (the judge saw a 500). Both now
    lock in the one order (stage, match, attempt): one waits for the other."""
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, kind="round_robin", status="running")
    subs = [make_submission(make_entry(contest), is_active=True, status="ready") for _ in range(2)]
    for _ in range(10):
        match = make_match(contest, subs, stage=stage)
        attempt = matches.claim("w", match_id=match.pk)
        result = _record((1, 0), ("win", "loss"))
        errors = _together(
            lambda a=attempt, r=result: matches.write_result(a.pk, r), lambda m=match: lifecycle.rerun_match(m)
        )
        assert errors == []
        match.refresh_from_db()
        assert match.status == "queued"  # re-run last, or the result written first and then re-run


@pytest.mark.django_db(transaction=True)
def test_a_claimer_takes_the_next_match_rather_than_wait_for_one_being_claimed():
    """32 workers claiming at once queued one behind the other on the head of the queue (each
    waited for the row lock of the match the one ahead was claiming): 143 claims a second
    where one worker alone made 267 (docs/benchmarks.md, "At scale")."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: SQLite locks the whole database")
    contest = make_contest(game="chomp")
    a, b = (make_submission(make_entry(contest, name=n), status="ready") for n in "AB")
    head, after = make_match(contest, [a, b]), make_match(contest, [b, a])
    locked, release = threading.Event(), threading.Event()

    def another_claimer_on_the_head():
        try:
            with transaction.atomic():
                list(Match.objects.select_for_update().filter(pk=head.pk))
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    other = threading.Thread(target=another_claimer_on_the_head)
    other.start()
    try:
        assert locked.wait(10)
        with connection.cursor() as cur:
            cur.execute("SET lock_timeout = '5s'")  # waiting for the head's lock fails the test
        attempt = matches.claim("w2")
    finally:
        release.set()
        other.join(30)
    assert attempt is not None and attempt.match_id == after.pk
    assert Match.objects.get(pk=head.pk).status == Match.Status.QUEUED  # left to the one holding it
