"""Standings and the match list on PostgreSQL at a big contest's size, as a markdown table
(no pass/fail; the machine is shared).

    python bench/bench_standings.py [--entries 200 --matches 40000 --other-matches 0 --runs 30 --explain]

With DATABASE_URL naming the database ``bench_scale.py`` filled (a 500,000-game contest), the
contest is built beside that one instead.

Builds a Chomp contest with ``--entries`` active entries (two of them then disqualified)
and ``--matches`` finished two-seat games of a running stage, with random results, in a
PostgreSQL of its own (a temporary cluster, as .ci/run starts one) unless DATABASE_URL
already names a PostgreSQL database, which it then fills and leaves (a later run measures
what an earlier one left there), with ``--other-matches`` games of another contest in the same
tables; the kept totals and counts of matches are rebuilt from the seats and matches
(``judging.tallies.rebuild``, ``judging.counts.rebuild``, timed), as they are bulk-created.
Then it times, in the same run: the same aggregate as one raw SQL query (the baseline),
``standings.compute``, the stage's ratings and rank intervals (``confidence.rate``: the
kept pairs read, fitted, drawn and stored, as the task does after results), the count of games played (kept, and counted over the matches as
before), the standings page and API through Django's test client, the match list API and
page, an entry's page, the match list's former queries (its COUNT over the contest's games,
its page found by the slug's join), and, once for scale, the old way (every counted seat
loaded as a model object).
"""

from __future__ import annotations

import argparse
import atexit
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_postgres() -> str:
    """A throw-away cluster (stopped and removed at exit); its database URL."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not bins:
        sys.exit("bench_standings needs PostgreSQL: install Debian's postgresql or set DATABASE_URL=postgres://...")
    pg = bins[-1].parent
    folder = Path(tempfile.mkdtemp(prefix="arbiter-bench-pg-"))
    folder.chmod(0o755)
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", _free_port()
    run = {"check": True, "capture_output": True}
    subprocess.run([*as_postgres, str(pg / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"], **run)
    subprocess.run(
        [*as_postgres, str(pg / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "start", "-o",
         f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"],
        **run,
    )  # fmt: skip

    def stop() -> None:
        subprocess.run([*as_postgres, str(pg / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], **run)
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-q", "-c",
                    "CREATE DATABASE arbiter"], **run)  # fmt: skip
    return f"postgres://postgres@127.0.0.1:{port}/arbiter"


def timed(fn, runs: int) -> list[float]:
    for _ in range(3):  # warm up: connections, caches, templates
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def setup_django() -> None:
    """Django on a throw-away var folder, its test client allowed, its pages rendered without
    collectstatic (no manifest of static names, as in the tests)."""
    var = Path(tempfile.mkdtemp(prefix="arbiter-bench-var-"))
    atexit.register(shutil.rmtree, var, True)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="arbiter.settings",
        ARBITER_VAR_DIR=str(var),
        ALLOWED_HOSTS="testserver",
        API_RATE_LIMIT="1000000/min",
    )
    import django

    django.setup()
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


def build(entries: int, matches: int, seed: int = 1, slug: str = "bench"):
    """The contest, bulk-created: users, entries, their submissions, matches, attempts, seats."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone

    from contests.models import Contest, Entry, Stage, Submission
    from judging.models import Match, MatchAttempt, MatchSeat

    rnd = random.Random(seed)
    now = timezone.now()
    with transaction.atomic():
        contest = Contest.objects.create(
            slug=slug, title=slug.title(), game="chomp", game_params={"rows": 8, "cols": 8}
        )
        stage = Stage.objects.create(
            contest=contest, order=1, name="Round robin", kind="round_robin", status=Stage.Status.RUNNING
        )
        users = User.objects.bulk_create([User(username=f"{slug}{i}", password="!") for i in range(entries)])
        people = Entry.objects.bulk_create(
            [Entry(contest=contest, user=u, name=f"Entry {i:03}") for i, u in enumerate(users)]
        )
        subs = Submission.objects.bulk_create(
            [
                Submission(entry=e, number=1, language="c", source=f"bench/{e.pk}.c", filename="main.c",
                           sha256="0" * 64, size=1, status=Submission.Status.READY, is_active=True)
                for e in people
            ]
        )  # fmt: skip
        games = Match.objects.bulk_create(
            [
                Match(contest=contest, stage=stage, round=1, seed=i, status=Match.Status.FINISHED, finished_at=now)
                for i in range(matches)
            ],
            batch_size=5000,
        )
        attempts = MatchAttempt.objects.bulk_create(
            [
                MatchAttempt(match=m, number=1, worker="bench", started_at=now, last_seen=now, finished_at=now,
                             outcome=MatchAttempt.Outcome.FINISHED, result={"reason": "", "seats": []})
                for m in games
            ],
            batch_size=5000,
        )  # fmt: skip
        seats = []
        for match in games:
            a, b = rnd.sample(range(entries), 2)
            first_wins = rnd.random() < 0.5
            fault = rnd.random() < 0.05
            for index, (who, won) in enumerate(((a, first_wins), (b, not first_wins))):
                moves = rnd.randint(3, 40)
                status = "win" if won else ("illegal" if fault else "loss")
                seats.append(
                    MatchSeat(match=match, index=index, entry=people[who], submission=subs[who], points=float(won),
                              score=float(rnd.randint(1, 63)) if won else 0.0, status=status, moves=moves)
                )  # fmt: skip
        MatchSeat.objects.bulk_create(seats, batch_size=10000)
        with connection.cursor() as cur:
            cur.execute(
                "UPDATE contests_match m SET result_attempt_id = a.id FROM contests_matchattempt a "
                "WHERE a.match_id = m.id AND m.stage_id = %s",
                [stage.pk],
            )
            # each fault waits to be told, as judging.matches writes it with the result
            cur.execute(
                "INSERT INTO judging_untoldfault (seat_id, attempt_id) SELECT s.id, m.result_attempt_id"
                " FROM contests_matchseat s JOIN contests_match m ON m.id = s.match_id"
                " WHERE m.stage_id = %s AND s.status = 'illegal'",
                [stage.pk],
            )
        del attempts
        Match.objects.create(contest=contest, stage=stage, round=2, seed=0)  # one still queued
        Entry.objects.filter(pk__in=[people[0].pk, people[1].pk]).update(status=Entry.Status.DISQUALIFIED)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    return contest, stage


SQL = """
SELECT s.entry_id, count(*) FILTER (WHERE s.status <> 'bye'),
       count(*) FILTER (WHERE s.status = 'win'), sum(s.score), sum(s.moves)
FROM contests_matchseat s JOIN contests_match m ON m.id = s.match_id
WHERE m.stage_id = %s AND m.result_attempt_id IS NOT NULL
GROUP BY s.entry_id
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--matches", type=int, default=40000)
    parser.add_argument("--other-matches", type=int, default=0, help="games of another contest, in the same tables")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--explain", action="store_true", help="print the plans of the standings' queries")
    args = parser.parse_args()

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        os.environ["DATABASE_URL"] = start_postgres()
    setup_django()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from contests.models import Contest
    from judging import confidence, counts, standings, tallies
    from judging.models import Match, MatchSeat

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    contest = Contest.objects.filter(slug="bench").first()
    if contest is None:
        if args.other_matches:
            other = build(args.entries, args.other_matches, seed=2, slug="bench-other")[0]
            tallies.rebuild(other)
            counts.rebuild(other)
        contest, stage = build(args.entries, args.matches)
    else:  # a database of one's own filled by an earlier run: measure again what it holds
        stage = contest.stages.get()
    built = time.perf_counter() - started
    started = time.perf_counter()
    tallies.rebuild(contest)
    counts.rebuild(contest)
    rebuilt = time.perf_counter() - started
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    client = Client()

    def raw_sql():
        with connection.cursor() as cur:
            cur.execute(SQL, [stage.pk])
            return cur.fetchall()

    def compute():
        return standings.compute(contest, stage)

    def page():
        response = client.get(f"/contests/{contest.slug}/standings/")
        assert response.status_code == 200, response.status_code
        return response.content

    def api():
        response = client.get(f"/api/contests/{contest.slug}/standings/")
        assert response.status_code == 200, response.status_code
        return response.content

    def match_list():
        response = client.get("/api/matches/", {"contest": contest.slug})
        assert response.status_code == 200, response.status_code
        return response.content

    def match_page():
        response = client.get(f"/contests/{contest.slug}/matches/")
        assert response.status_code == 200, response.status_code
        return response.content

    entry = contest.entries.order_by("pk")[5]

    def entry_page():
        response = client.get(f"/contests/{contest.slug}/entries/{entry.pk}/")
        assert response.status_code == 200, response.status_code
        return response.content

    def progress():
        return standings._progress(contest, stage)

    def progress_counted():  # what it did before the counts were kept
        return standings._progress(contest, stage, kept=False)

    def list_count_before():  # the match list's COUNT before the counts were kept
        return Match.objects.filter(contest__slug=contest.slug, stage__isnull=False).count()

    def list_page_before():  # its page before: the contest by a join on its slug
        return list(
            Match.objects.filter(contest__slug=contest.slug, stage__isnull=False).order_by("-pk").values("pk")[:100]
        )

    def rate():  # the stage's ratings and rank intervals: the kept pairs read, fitted, drawn, stored
        return confidence.rate(stage.pk)

    def grouped():  # what compute() did before the totals were kept: one grouped query over the seats
        return standings.compute(contest, stage, kept=False)

    def old_way():  # what compute() did before that: every counted seat as a model object
        seats = MatchSeat.objects.filter(match__stage=stage, match__result_attempt__isnull=False)
        return len(list(seats.select_related("entry")))

    rate()  # a stage's standings as a page reads them: with its stored ratings
    table = compute()
    assert all(row.sure is not None for row in table.rows)
    assert len(table.rows) == args.entries - 2 and table.finished == args.matches, (len(table.rows), table.finished)
    assert len(raw_sql()) == args.entries
    if args.explain:
        with CaptureQueriesContext(connection) as queries:
            compute()
            match_list()
        with connection.cursor() as cur:
            for q in queries.captured_queries:
                if q["sql"].startswith("SELECT"):
                    cur.execute("EXPLAIN ANALYZE " + q["sql"])
                    print("\n```\n" + q["sql"][:300] + "\n" + "\n".join(r[0] for r in cur.fetchall()) + "\n```")

    baseline = timed(raw_sql, args.runs)
    rows = [
        ("standings.compute", timed(compute, args.runs)),
        (
            "the ratings and rank intervals fitted and stored (`confidence.rate`, a task)",
            timed(rate, max(5, args.runs // 3)),
        ),
        ("standings page", timed(page, args.runs)),
        ("standings API", timed(api, args.runs)),
        ("match list API (first page of 50)", timed(match_list, args.runs)),
        ("match list page (first page of 100)", timed(match_page, args.runs)),
        ("an entry's page", timed(entry_page, args.runs)),
        ("games played and scheduled (`_progress`), kept", timed(progress, args.runs)),
        ("the same counted over the matches (before)", timed(progress_counted, args.runs)),
        ("the match list's former COUNT over the contest's games", timed(list_count_before, args.runs)),
        ("the match list's former page query (by the slug's join)", timed(list_page_before, args.runs)),
        ("standings.compute from the seats (the reference, kept=False)", timed(grouped, max(5, args.runs // 3))),
        ("the old way: every counted seat loaded as a model object", timed(old_way, 5)),
    ]
    with CaptureQueriesContext(connection) as queries:
        page()
    base = statistics.median(baseline)

    def ms(x: float) -> str:
        return f"{x * 1000:.1f} ms"

    others = Match.objects.exclude(contest=contest).count()
    print(
        f"{args.entries} entries, {args.matches} finished two-seat games ({2 * args.matches} seats), "
        f"{others} games of other contests, PostgreSQL {connection.pg_version // 10000}; "
        f"built in {built:.0f} s, its totals rebuilt in {rebuilt:.1f} s; {args.runs} runs each.\n"
    )
    print("| what | min | median | p95 | max | ratio to the SQL (median) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, times in [("the same aggregate over the seats in raw SQL (baseline)", baseline), *rows]:
        median = statistics.median(times)
        cells = " | ".join(ms(x) for x in (min(times), median, p95(times), max(times)))
        print(f"| {name} | {cells} | {median / base:.1f}× |")
    print(f"\nThe standings page took {len(queries)} queries.")


if __name__ == "__main__":
    main()
