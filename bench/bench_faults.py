"""What a fault costs a stage, as a markdown table (no pass/fail; the machine is shared).

    python bench/bench_faults.py [--entries 4]

A double round robin of slow Chomp players (each move sleeps a little, so games overlap the
faults) on two real Celery workers, with a PostgreSQL and a Redis of its own, as the fault
tests run it (``judging/tests/test_faults.py``). The stage is played once without a fault
(the baseline) and once per fault; each row gives the stage's wall time, its ratio to the
baseline of the same run, and for a lost worker how long its match waited before another
worker started it again.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402
from judging.tests.installation import running_site  # noqa: E402
from judging.tests.test_faults import SETUP, running_attempt_of, statuses, wait_until  # noqa: E402


def replay_started(site, match_id: int) -> bool:
    query = "SELECT count(*) FROM contests_matchattempt WHERE match_id = %s"
    return site.sql(query, match_id)[0][0] >= 2


def no_fault(site, stage) -> float | None:
    return None


def postgres_restarted(site, stage) -> float | None:
    wait_until(site, "a match being played", lambda: running_attempt_of(site, stage))
    site.stop_postgres()
    time.sleep(8)
    site.start_postgres()
    return None


def redis_restarted(site, stage) -> float | None:
    wait_until(site, "a match finished", lambda: statuses(site, stage).get("finished", 0) >= 1)
    site.stop_redis()
    time.sleep(3)
    site.start_redis()
    return None


def _worker_lost(site, stage, sig: signal.Signals) -> float:
    victim = site.workers[0]
    wait_until(site, f"{victim.name} playing", lambda: running_attempt_of(site, stage, victim.name))
    (_, _, match_id), *_ = running_attempt_of(site, stage, victim.name)
    lost_at = time.monotonic()
    victim.signal(sig)
    wait_until(site, "the lost match started again", lambda: replay_started(site, match_id), timeout=120)
    waited = time.monotonic() - lost_at
    if sig == signal.SIGSTOP:
        victim.signal(signal.SIGCONT)
    return waited


def worker_killed(site, stage) -> float:
    return _worker_lost(site, stage, signal.SIGKILL)


def worker_paused(site, stage) -> float:
    return _worker_lost(site, stage, signal.SIGSTOP)


SCENARIOS = [
    ("no fault (baseline)", no_fault),
    ("PostgreSQL stopped for 8 s", postgres_restarted),
    ("Redis restarted, its messages lost", redis_restarted),
    ("a worker killed (SIGKILL)", worker_killed),
    ("a worker paused (SIGSTOP)", worker_paused),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=4)
    args = parser.parse_args()
    rows = []
    with running_site(base=common.base()) as site:
        for label, fault in SCENARIOS:
            for name in ("alpha", "beta"):
                site.start_worker(f"{name}-{uuid.uuid4().hex[:4]}")
            start = time.monotonic()
            stage = site.django(SETUP.format(slug=f"bench-{uuid.uuid4().hex[:6]}", entries=args.entries))
            waited = fault(site, stage)
            wait_until(
                site,
                "every match finished",
                lambda: statuses(site, stage) == {"finished": len(stage["matches"])},  # noqa: B023
                timeout=600,
            )
            rows.append((label, len(stage["matches"]), time.monotonic() - start, waited))
            site.stop_workers()
    base = rows[0][2]
    print("| fault during the stage | matches | stage wall time | ratio | lost match restarted after |")
    print("|---|---:|---:|---:|---:|")
    for label, count, wall, waited in rows:
        after = f"{waited:.1f} s" if waited is not None else "–"
        print(f"| {label} | {count} | {wall:.1f} s | {wall / base:.2f}× | {after} |")


if __name__ == "__main__":
    common.exit_on_signals()
    main()
