"""Many machines, made on this one (judging/tests/network.py): PostgreSQL on a host, Redis on
another, two worker hosts, each with its own sandbox folder and build cache, reaching the
others only over the test's own network. The fault tests of the judging core, again across
hosts, and what only many hosts can do: a host cut off the network mid-match, a host that
cannot make the jail. Every match must end played, and counted, once."""

from __future__ import annotations

import os
import signal
import time
import uuid

import pytest

from judging.tests import network
from judging.tests.installation import running_site
from judging.tests.test_faults import (
    ENTRIES,
    SETUP,
    assert_every_match_played_once,
    running_attempt_of,
    statuses,
    wait_until,
)

pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.faults]

if os.geteuid() != 0 or not network.available():
    pytest.skip("the many-hosts tests need root and iproute2", allow_module_level=True)

WORKER_HOSTS = ("alpha", "beta")


@pytest.fixture(scope="module")
def site():
    with network.network(["db", "broker", *WORKER_HOSTS, "gamma"]) as net, running_site(net) as site:
        site.env["SANDBOX_SLOTS"] = ""  # a host's own cores
        yield site


def start_stage(site, hosts=WORKER_HOSTS) -> dict:
    for host in hosts:
        site.start_worker(f"{host}-{uuid.uuid4().hex[:4]}", host=host)
    return site.django(SETUP.format(slug=f"hosts-{uuid.uuid4().hex[:6]}", entries=ENTRIES))


@pytest.fixture
def stage(site):
    try:
        yield start_stage(site)
    finally:  # workers left running would play the next test's stage
        site.stop_workers()


def attempts_by_host(site, stage) -> dict[str, int]:
    rows = site.sql(
        """SELECT a.host, count(*) FROM contests_matchattempt a JOIN contests_match m ON m.id = a.match_id
           WHERE m.stage_id = %s AND a.outcome = 'finished' GROUP BY a.host""",
        stage["stage"],
    )
    return dict(rows)


def test_two_hosts_share_a_stage_each_building_what_it_plays(site, stage):
    assert_every_match_played_once(site, stage)
    played = attempts_by_host(site, stage)
    assert set(played) == set(WORKER_HOSTS) and sum(played.values()) == len(stage["matches"])
    for host in WORKER_HOSTS:  # the submissions were built elsewhere: each host built them again
        assert any((site.folder / host / "build-cache").rglob("*.py")), host
    beats = dict(site.sql("SELECT hostname, sandbox_level FROM judging_workerheartbeat"))
    assert {level for name, level in beats.items() if name.split("@")[1] in WORKER_HOSTS} == {"full"}


def _replayed_elsewhere(site, match_id: int) -> bool:
    outcomes = [
        o
        for (o,) in site.sql("SELECT outcome FROM contests_matchattempt WHERE match_id = %s ORDER BY number", match_id)
    ]
    return "finished" in outcomes and len(outcomes) >= 2


@pytest.mark.parametrize("fault", ["killed", "paused", "unplugged"])
def test_a_host_lost_mid_match_is_replayed_on_the_other_and_counted_once(site, stage, fault):
    victim = site.workers[0]
    host = victim.name.split("@")[1]
    wait_until(site, f"{victim.name} playing a match", lambda: running_attempt_of(site, stage, victim.name))
    (_, _, match_id), *_ = running_attempt_of(site, stage, victim.name)
    lost_at = time.monotonic()
    if fault == "killed":
        victim.signal(signal.SIGKILL)
    elif fault == "paused":
        victim.signal(signal.SIGSTOP)
    else:
        site.net.unplug(host)  # it plays on, reaching neither the database nor the broker
    try:
        wait_until(
            site, "the lost match replayed on the other host", lambda: _replayed_elsewhere(site, match_id), timeout=90
        )
        assert time.monotonic() - lost_at < 60
    finally:  # the host comes back whatever happened: the next tests share the network
        if fault == "paused":
            victim.signal(signal.SIGCONT)  # it wakes up and finishes its game: too late to count
        elif fault == "unplugged":
            site.net.plug(host)  # it writes its result when it can: too late to count
    assert_every_match_played_once(site, stage)
    outcomes = site.sql("SELECT outcome, host FROM contests_matchattempt WHERE match_id = %s ORDER BY number", match_id)
    assert outcomes[0] == ("lost", host) and ("finished", host) not in outcomes
    assert [h for o, h in outcomes if o == "finished"] == [next(h for h in WORKER_HOSTS if h != host)]
    reasons = site.sql("SELECT status FROM contests_matchseat WHERE match_id = %s", match_id)
    assert {status for (status,) in reasons} <= {"win", "loss"}  # nothing charged to a program


@pytest.mark.parametrize("service", ["postgres", "redis"])
def test_the_database_or_broker_host_restarted_during_a_stage(site, stage, service):
    wait_until(site, "a few matches finished", lambda: statuses(site, stage).get("finished", 0) >= 2)
    if service == "postgres":
        wait_until(site, "a match being played", lambda: running_attempt_of(site, stage))
        site.stop_postgres()
        time.sleep(8)
        site.start_postgres()
    else:
        site.stop_redis()  # every queued message is gone with it
        time.sleep(3)
        site.start_redis()
    assert_every_match_played_once(site, stage)


def test_a_host_that_cannot_make_the_jail_takes_no_match(site):
    locked = site.folder / "gamma" / "locked"
    locked.mkdir(parents=True)
    locked.chmod(0o700)  # the jails' uids cannot reach a sandbox folder under it
    site.start_worker(f"gamma-{uuid.uuid4().hex[:4]}", host="gamma", SANDBOX_ROOT=str(locked / "sandbox"))
    stage = start_stage(site, hosts=["alpha"])
    try:
        assert_every_match_played_once(site, stage)
        assert set(attempts_by_host(site, stage)) == {"alpha"}
        beat = site.sql("SELECT sandbox_level FROM judging_workerheartbeat WHERE hostname LIKE 'gamma-%%'")
        assert beat == [("none",)]
    finally:
        site.stop_workers()
