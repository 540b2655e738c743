"""The watchdog's look for faults to tell (``judging.news.notifications.send_fault_digests``, once a
minute on one worker) on PostgreSQL at a big contest's size, as a markdown table (no
pass/fail; the machine is shared).

    python bench/bench_digests.py [--entries 200 --matches 40000 --recent 1000 --runs 20]

Fills bench_standings' contest (``--matches`` finished games, one in twenty with an illegal
move) in a PostgreSQL of its own, then makes all but the ``--recent`` newest games two days
old, as a contest's history is. It times the scan for faults not told yet (the baseline: the
same scan without the day's cut, ``NEWS``), the first round, which writes the digests, and a
round with nothing new, which is what most minutes cost.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))

import bench_standings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--matches", type=int, default=40000)
    parser.add_argument("--recent", type=int, default=1000, help="games played within the day")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        os.environ["DATABASE_URL"] = bench_standings.start_postgres()
    var = common.scratch("var")
    os.environ.update(DJANGO_SETTINGS_MODULE="arbiter.settings", ARBITER_VAR_DIR=str(var))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from contests.models import Submission
    from judging.models import Match, MatchAttempt, ReportedFault
    from judging.news import notifications

    call_command("migrate", verbosity=0)
    bench_standings.build(args.entries, args.matches)
    now = timezone.now()
    Submission.objects.update(created_at=now - timedelta(days=3))
    recent = list(Match.objects.order_by("-pk").values_list("pk", flat=True)[: args.recent])
    Match.objects.exclude(pk__in=recent).update(finished_at=now - timedelta(days=2))
    MatchAttempt.objects.exclude(match__in=recent).update(finished_at=now - timedelta(days=2))
    with connection.cursor() as cur:
        cur.execute("ANALYZE")

    def scan():
        return list(notifications.unreported_faults().values_list("pk", flat=True))

    news = notifications.NEWS
    notifications.NEWS = timedelta(days=36500)
    baseline = bench_standings.timed(scan, args.runs)
    notifications.NEWS = news
    cut = bench_standings.timed(scan, args.runs)
    faults = len(scan())
    started = time.perf_counter()
    written = notifications.send_fault_digests()
    first = time.perf_counter() - started
    assert ReportedFault.objects.count() == faults and written > 0
    quiet = bench_standings.timed(notifications.send_fault_digests, args.runs)

    def ms(times: list[float]) -> str:
        return f"{statistics.median(times) * 1000:.1f} ms"

    print(
        f"{args.matches:,} games of {args.entries} entries, {args.recent:,} of them within the day: {faults} faults\n"
    )
    print("| what | median | ratio to the baseline |")
    print("|---|---:|---:|")
    print(f"| the scan without the day's cut (baseline) | {ms(baseline)} | 1.0× |")
    print(f"| the scan | {ms(cut)} | {statistics.median(cut) / statistics.median(baseline):.2f}× |")
    print(f"| the first round: {written} digests, {faults} faults told | {first * 1000:.0f} ms (once) | – |")
    print(f"| a round with nothing new | {ms(quiet)} | – |")


if __name__ == "__main__":
    common.exit_on_signals()
    main()
