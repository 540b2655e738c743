"""The standings at a contest's size on PostgreSQL, interleaved with their baselines, as markdown
tables (no pass/fail; the machine may be shared: each round's load average is printed beside it).

    python bench/bench_standings.py                                   # 200 entries, 40,000 games
    python bench/bench_standings.py --ladder --entries 1000 --matches 500000 --pg-dir /var/tmp/bench-pg

One command, in a PostgreSQL of its own: a temporary cluster (as .ci/run starts one), or with
``--pg-dir`` one kept in that folder, stopped at exit and found again by the next run (which then
measures what is there instead of building it: 500,000 games take some three minutes to make);
or the database DATABASE_URL names, filled and left the same way.

The data: a Chomp contest of ``--entries`` active entries and ``--matches`` finished two-seat
games of a running round robin with random results, two entries then disqualified (bulk-created
as the models make them); or, with ``--ladder``, the continuous stage ``bench_scale.py`` makes
(``bench_scale.generate``: each entry two versions, the games by SQL). Its kept totals and counts
are rebuilt from the seats and matches when they do not match them, and the stage's ratings and
rank intervals fitted once (``confidence.rate``), so that every read shows them.

Measured in ``--rounds`` rounds, each timing every measure ``--runs`` times in turn (so that
each sees every round's load), a measure's block starting after a garbage collection (so that
it pays for its own full collections, counted, not another's): the baselines (the same aggregate over the seats in raw
SQL, and the kept totals' own grouped query in raw SQL), ``standings.compute`` (the whole table,
every row an object), ``standings.page`` (the first page), the API (its first page of 100, and
one of 500 rows), the page (as a visitor, and as a contestant whose entry is on a later page),
``standings.standing`` and an entry's page. ``--lists`` adds the match lists, the count of games
played and the reference (``kept=False``); ``--explain`` prints the plans of the table's queries.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402


def start_postgres(keep: Path | None = None) -> str:
    """A cluster of its own, stopped at exit; its database URL. A throw-away one (removed at
    exit), or one kept in ``keep`` (made there the first time, found there the next)."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not bins:
        sys.exit("bench_standings needs PostgreSQL: install Debian's postgresql or set DATABASE_URL=postgres://...")
    pg = bins[-1].parent
    folder = keep or Path(tempfile.mkdtemp(prefix="arbiter-bench-pg-", dir=common.base()))
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(folder, "postgres", "postgres")
    data, port = folder / "data", common.port()
    run = {"check": True, "capture_output": True}
    made = not (data / "PG_VERSION").exists()
    if made:
        subprocess.run([*as_postgres, str(pg / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"], **run)
    subprocess.run(
        [*as_postgres, str(pg / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "start", "-o",
         f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"],
        **run,
    )  # fmt: skip

    def stop() -> None:
        subprocess.run([*as_postgres, str(pg / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], **run)
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    if made:
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
    var = common.scratch("var")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="arbiter.settings",
        ARBITER_VAR_DIR=str(var),
        ALLOWED_HOSTS="testserver",
        API_RATE_LIMIT="1000000/min",
        HEAVY_RATE_LIMIT="1000000/min",  # the standings' own limit for visitors, and the pages'
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
    common.say(f"making {entries:,} entries and {matches:,} games")
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
            # each fault waits to be told, as judging.play.matches writes it with the result
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


KEPT_SQL = """
SELECT t.entry_id, sum(t.seats) FILTER (WHERE t.status <> 'bye'), sum(t.seats) FILTER (WHERE t.status = 'win'),
       sum(t.score), sum(t.moves)
FROM judging_tally t JOIN contests_submission sub ON sub.id = t.submission_id
WHERE t.stage_id = %s AND NOT t.frozen AND (sub.is_active OR NOT %s)
GROUP BY t.entry_id
"""


def load() -> str:
    """The machine's load average over the last minute."""
    return f"{os.getloadavg()[0]:.1f}"


def interleaved(measures: list[tuple[str, object]], runs: int, rounds: int) -> tuple[dict, list[str], dict]:
    """Each measure timed ``runs`` times a round, the measures in turn, round after round (so
    that each sees the load of every round); each measure's times in each round, each round's
    load (before → after), and each measure's full garbage collections. A measure's block
    starts after a collection: the collections a block pays for are those its own requests
    made due, not another measure's (a full one is 50–100 ms on a loaded machine)."""
    for _, fn in measures:  # warm up: connections, caches, templates
        fn()
        fn()
    found = {name: [[] for _ in range(rounds)] for name, _ in measures}
    full = dict.fromkeys(found, 0)
    current = [""]

    def count(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2 and current[0]:
            full[current[0]] += 1

    gc.callbacks.append(count)
    loads = []
    for r in range(rounds):
        before = load()
        for name, fn in measures:
            gc.collect()
            current[0] = name
            for _ in range(runs):
                start = time.perf_counter()
                fn()
                found[name][r].append(time.perf_counter() - start)
            current[0] = ""
        loads.append(f"{before} → {load()}")
    gc.callbacks.remove(count)
    return found, loads, full


def _spread(values: list[float]) -> str:
    low, high = min(values) * 1000, max(values) * 1000
    return f"{low:.1f}" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f}–{high:.1f}"


def report(found: dict, loads: list[str], full: dict, base: str) -> None:
    """A row a measure: its median and p95 in each round, their ranges, the ratio of its median
    to the baseline's (``base``), round by round, and its full garbage collections."""
    rounds = len(loads)
    heads = " | ".join(f"round {r + 1}: median / p95" for r in range(rounds))
    print(f"| ms | {heads} | median, all rounds | p95, all rounds | × baseline | full GCs |")
    print("|---|" + "---:|" * (rounds + 4))
    base_medians = [statistics.median(times) for times in found[base]]
    for name, by_round in found.items():
        medians = [statistics.median(times) for times in by_round]
        p95s = [p95(times) for times in by_round]
        cells = " | ".join(f"{m * 1000:.1f} / {q * 1000:.1f}" for m, q in zip(medians, p95s, strict=True))
        ratio = [m / b for m, b in zip(medians, base_medians, strict=True)]
        print(
            f"| {name} | {cells} | {_spread(medians)} | {_spread(p95s)} | {min(ratio):.2f}–{max(ratio):.2f} "
            f"| {full[name]} |"
        )
    print("\nLoad average (1 minute, before → after) in each round: " + "; ".join(loads) + ".")


def _ladder_data(entries: int, games: int):
    """bench_scale's ladder, its kept totals rebuilt from the seats if they do not add up to them."""
    import bench_scale
    from django.db.models import Sum

    from judging.models import Tally
    from judging.record import tallies

    contest, stage = bench_scale.generate(entries, games)
    kept = Tally.objects.filter(stage=stage, frozen=False).aggregate(n=Sum("seats"))["n"] or 0
    if kept != tallies.counted_seats(contest).count():
        tallies.rebuild(contest)
    return contest, stage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--matches", type=int, default=40000)
    parser.add_argument("--ladder", action="store_true", help="bench_scale's continuous stage, not a round robin")
    parser.add_argument("--other-matches", type=int, default=0, help="games of another contest, in the same tables")
    parser.add_argument("--runs", type=int, default=30, help="timings of each measure a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pg-dir", type=Path, help="keep the PostgreSQL cluster here, for the next run")
    parser.add_argument("--lists", action="store_true", help="the match lists and counts too")
    parser.add_argument("--explain", action="store_true", help="print the plans of the standings' queries")
    args = parser.parse_args()

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        os.environ["DATABASE_URL"] = start_postgres(args.pg_dir)
    setup_django()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from contests.models import Contest
    from judging.models import Match, MatchSeat, RatingFit
    from judging.record import confidence, counts, standings, tallies

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    slug = "bench-scale" if args.ladder else "bench"
    contest = Contest.objects.filter(slug=slug).first()
    if args.ladder:
        contest, stage = _ladder_data(args.entries, args.matches)
    elif contest is None:
        if args.other_matches:
            other = build(args.entries, args.other_matches, seed=2, slug="bench-other")[0]
            tallies.rebuild(other)
            counts.rebuild(other)
        contest, stage = build(args.entries, args.matches)
        tallies.rebuild(contest)
        counts.rebuild(contest)
    else:  # a database of one's own filled by an earlier run: measure again what it holds
        stage = contest.stages.get()
    if not RatingFit.objects.filter(stage=stage, frozen=False).exists():
        confidence.rate(stage.pk)
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
    built = time.perf_counter() - started

    visitor, contestant = Client(), Client()
    table = standings.compute(contest, stage)
    assert table.fit is not None and all(row.sure is not None for row in table.rows)
    listed = args.entries if args.ladder else args.entries - 2  # two disqualified in the round robin
    assert table.count == listed and table.finished == args.matches, (table.count, table.finished)
    mid = table.rows[len(table.rows) // 2].entry  # a contestant whose row is on a later page
    contestant.force_login(mid.user)
    entry = contest.entries.order_by("pk")[5]
    base = f"/contests/{contest.slug}"

    def sql(query: str, params: list):
        def run():
            with connection.cursor() as cur:
                cur.execute(query, params)
                return cur.fetchall()

        return run

    def get(client, path: str, **query):
        def fetch():
            response = client.get(path, query)
            assert response.status_code == 200, response.status_code

        return fetch

    import bench_scale

    seats_sql = bench_scale.STANDINGS_SQL if args.ladder else SQL
    measures = [
        ("baseline: the same aggregate over the seats in raw SQL", sql(seats_sql, [stage.pk])),
        ("baseline: the kept totals' grouped query in raw SQL", sql(KEPT_SQL, [stage.pk, args.ladder])),
        ("`standings.compute`: the whole table, each row an object", lambda: standings.compute(contest, stage)),
        ("`standings.page`: the first 100 rows", lambda: standings.page(contest, stage)),
        ("**standings API**, first page (100 rows)", get(visitor, f"/api{base}/standings/")),
        ("standings API, 500 rows", get(visitor, f"/api{base}/standings/", limit=500)),
        ("**standings page**, first page (100 rows)", get(visitor, f"{base}/standings/")),
        ("standings page, a contestant's (own row on a later page)", get(contestant, f"{base}/standings/")),
        ("`standings.standing`: an entry's place and opponents", lambda: standings.standing(contest, stage, entry)),
        ("an entry's page", get(visitor, f"{base}/entries/{entry.pk}/")),
    ]
    if args.lists:
        theirs = Match.objects.filter(contest__slug=contest.slug, stage__isnull=False)
        measures += [
            ("match list API (first page of 50)", get(visitor, "/api/matches/", contest=contest.slug)),
            ("match list page (first page of 100)", get(visitor, f"{base}/matches/")),
            ("games played and scheduled (`_progress`), kept", lambda: standings._progress(contest, stage)),
            ("the same counted over the matches (before)", lambda: standings._progress(contest, stage, kept=False)),
            ("the match list's former COUNT over the contest's games", theirs.count),
            (
                "`standings.compute` from the seats (the reference)",
                lambda: standings.compute(contest, stage, kept=False),
            ),
        ]
    if args.explain:
        with CaptureQueriesContext(connection) as queries:
            standings.page(contest, stage)
        with connection.cursor() as cur:
            for q in queries.captured_queries:
                if q["sql"].startswith("SELECT"):
                    cur.execute("EXPLAIN ANALYZE " + q["sql"])
                    print("\n```\n" + q["sql"][:300] + "\n" + "\n".join(r[0] for r in cur.fetchall()) + "\n```")

    listed = table.count
    del table  # the bench's own objects out of the collector's way
    found, loads, full = interleaved(measures, args.runs, args.rounds)
    fit = []
    for _ in range(3):  # the fit itself, once a round's load has passed
        start = time.perf_counter()
        confidence.rate(stage.pk)
        fit.append(time.perf_counter() - start)
    with CaptureQueriesContext(connection) as queries:
        get(visitor, f"{base}/standings/")()
    with CaptureQueriesContext(connection) as api_queries:
        get(visitor, f"/api{base}/standings/")()

    kind = "a ladder (bench_scale's: two versions an entry)" if args.ladder else "a round robin"
    print(
        f"{listed:,} entries listed, {args.matches:,} finished two-seat games of {kind} "
        f"({MatchSeat.objects.filter(match__stage=stage).count():,} seats), "
        f"{Match.objects.exclude(contest=contest).count():,} games of other contests; PostgreSQL "
        f"{connection.pg_version // 10000}, {os.cpu_count()} cores; made or found in {built:.0f} s; "
        f"{args.rounds} rounds of {args.runs} timings of each, in turn.\n"
    )
    report(found, loads, full, base=measures[0][0])
    print(
        f"\nThe standings page took {len(queries)} queries, the API {len(api_queries)}. The stage's ratings "
        "fitted and stored (`confidence.rate`, the task after results; three times, after the rounds): "
        + ", ".join(f"{t:.2f}" for t in fit)
        + " s."
    )


if __name__ == "__main__":
    common.exit_on_signals()
    main()
