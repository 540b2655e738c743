"""A round robin played by two real workers on a real PostgreSQL and Redis, while the platform
fails the way it fails in a real contest: the database restarted, the broker restarted with
its messages lost, a worker killed, a worker paused. Every match must end played, once."""

from __future__ import annotations

import signal
import time
import uuid

import pytest

from judging.tests.installation import running_site

pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.faults]

ENTRIES = 4  # a double round robin: 12 matches
SETUP = """
from pathlib import Path
from django.contrib.auth.models import User
from contests.models import Contest, Entry, Stage, Submission
from contests.services import submit
from judging.play import builds
from judging.record import formats
from judging.record import lifecycle

slug = {slug!r}
user, _ = User.objects.get_or_create(username="organiser")
contest = Contest.objects.create(slug=slug, title=slug, game="chomp", game_params={{"rows": 4, "cols": 5}}, max_entries_per_user=10)
stage = Stage.objects.create(contest=contest, order=1, name="Round robin", kind="round_robin", params={{"games_per_pairing": 2}})
source = Path("judging/tests/programs/chomp_slow_last.py").read_bytes()
for n in range({entries}):
    entry = Entry.objects.create(contest=contest, user=user, name=f"Slow {{n}}")
    submission = submit(entry, filename="slow.py", data=source)
    builds.build_submission(submission.pk)
matches = lifecycle.run_stage(stage)
print(json.dumps({{"stage": stage.pk, "matches": [m.pk for m in matches]}}))
"""


@pytest.fixture(scope="module")
def site():
    with running_site() as site:
        yield site


@pytest.fixture
def stage(site):
    """Two workers, and a round robin of slow players started on them."""
    for name in ("alpha", "beta"):
        site.start_worker(f"{name}-{uuid.uuid4().hex[:4]}")
    made = site.django(SETUP.format(slug=f"faults-{uuid.uuid4().hex[:6]}", entries=ENTRIES))
    yield made
    site.stop_workers()


def statuses(site, stage) -> dict[str, int]:
    rows = site.sql("SELECT status, count(*) FROM contests_match WHERE stage_id = %s GROUP BY status", stage["stage"])
    return dict(rows)


def wait_until(site, what, check, timeout=240.0):
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen in {timeout:.0f} s\n{site.logs()}")
        time.sleep(0.25)


def assert_every_match_played_once(site, stage):
    wait_until(site, "every match finished", lambda: statuses(site, stage) == {"finished": len(stage["matches"])})
    finished = site.sql(
        """SELECT m.id, count(a.id) FILTER (WHERE a.outcome = 'finished'), m.result_attempt_id IS NOT NULL
           FROM contests_match m LEFT JOIN contests_matchattempt a ON a.match_id = m.id
           WHERE m.stage_id = %s GROUP BY m.id""",
        stage["stage"],
    )
    assert sorted(finished) == [(pk, 1, True) for pk in sorted(stage["matches"])]
    seats = site.sql(
        """SELECT count(*), sum(s.points) FROM contests_matchseat s JOIN contests_match m ON m.id = s.match_id
           WHERE m.stage_id = %s""",
        stage["stage"],
    )
    assert seats == [(2 * len(stage["matches"]), float(len(stage["matches"])))]  # one win a game, counted once
    assert site.sql("SELECT status FROM contests_stage WHERE id = %s", stage["stage"]) == [("finished",)]


def running_attempt_of(site, stage, worker=None):
    query = """SELECT a.id, a.worker, a.match_id FROM contests_matchattempt a JOIN contests_match m ON m.id = a.match_id
               WHERE m.stage_id = %s AND a.outcome = 'running'"""
    rows = site.sql(query, stage["stage"])
    return [r for r in rows if worker is None or r[1] == worker]


def test_postgresql_restarted_during_a_stage(site, stage):
    wait_until(site, "a few matches finished", lambda: statuses(site, stage).get("finished", 0) >= 2)
    wait_until(site, "a match being played", lambda: running_attempt_of(site, stage))
    site.stop_postgres()
    time.sleep(8)  # games finish meanwhile, and tasks find no database
    site.start_postgres()
    assert_every_match_played_once(site, stage)
    assert "the database is away" in site.logs() or "OperationalError" in site.logs()


def test_redis_restarted_and_its_messages_lost_during_a_stage(site, stage):
    wait_until(site, "a few matches finished", lambda: statuses(site, stage).get("finished", 0) >= 2)
    site.stop_redis()  # every queued message is gone with it
    time.sleep(3)
    site.start_redis()
    assert_every_match_played_once(site, stage)


def test_a_worker_killed_mid_match_is_replayed_at_once(site, stage):
    victim = site.workers[0]
    wait_until(site, f"{victim.name} playing a match", lambda: running_attempt_of(site, stage, victim.name))
    (_, _, match_id), *_ = running_attempt_of(site, stage, victim.name)
    victim.signal(signal.SIGKILL)

    def replayed() -> bool:
        outcomes = [
            o
            for (o,) in site.sql(
                "SELECT outcome FROM contests_matchattempt WHERE match_id = %s ORDER BY number", match_id
            )
        ]
        return outcomes[:1] == ["lost"] and len(outcomes) >= 2

    wait_until(site, "the killed match replayed", replayed, timeout=60)
    # Found silent after 4 heartbeats of a second (how long that takes is the host's load's, not
    # this test's), then played ahead of the matches not started: once the loss was written, only
    # the claims under way then (one a worker at most) went before its replay.
    ((lost_at,),) = site.sql(
        "SELECT finished_at FROM contests_matchattempt WHERE match_id = %s AND number = 1", match_id
    )
    ((replayed_at,),) = site.sql(
        "SELECT started_at FROM contests_matchattempt WHERE match_id = %s AND number = 2", match_id
    )
    ((before_it,),) = site.sql(
        """SELECT count(*) FROM contests_matchattempt a JOIN contests_match m ON m.id = a.match_id
           WHERE m.stage_id = %s AND a.match_id <> %s AND a.started_at > %s AND a.started_at < %s""",
        stage["stage"], match_id, lost_at, replayed_at,
    )  # fmt: skip
    assert before_it <= len(site.workers), (lost_at, replayed_at)
    assert_every_match_played_once(site, stage)
    outcomes = site.sql(
        "SELECT outcome, worker FROM contests_matchattempt WHERE match_id = %s ORDER BY number", match_id
    )
    assert [o for o, _ in outcomes] == ["lost", "finished"] and outcomes[1][1] != victim.name


def test_a_worker_paused_mid_match_is_not_charged_and_counted_once(site, stage):
    sleeper = site.workers[0]
    wait_until(site, f"{sleeper.name} playing a match", lambda: running_attempt_of(site, stage, sleeper.name))
    (_, _, match_id), *_ = running_attempt_of(site, stage, sleeper.name)
    sleeper.signal(signal.SIGSTOP)
    wait_until(
        site,
        "the paused worker's match replayed by the other",
        lambda: site.sql("SELECT 1 FROM contests_matchattempt WHERE match_id = %s AND outcome = 'finished'", match_id),
        timeout=90,
    )
    sleeper.signal(signal.SIGCONT)  # it wakes up and finishes its game: too late to count
    assert_every_match_played_once(site, stage)
    outcomes = [
        o
        for (o,) in site.sql("SELECT outcome FROM contests_matchattempt WHERE match_id = %s ORDER BY number", match_id)
    ]
    assert outcomes == ["lost", "finished"]
    reasons = site.sql("""SELECT s.status, s.reason FROM contests_matchseat s WHERE s.match_id = %s""", match_id)
    assert all(status in ("win", "loss") for status, _ in reasons)  # no timeout charged to a program
