"""A ladder past one machine, on PostgreSQL: the database's size, the claim with many workers at
once, the watchdog's round and the standings, at a big open contest's size (issue 26). Markdown
tables of min / median / max, each beside a baseline measured in the same run; no pass/fail
(the machine is shared).

    DATABASE_URL=postgres://... python bench/bench_scale.py [--entries 1000 --games 100000
        --queued 5000 --claimers 32 --runs 5 --claim-runs 3]

The full size (a CodinGame-sized ladder) is ``--entries 10000 --games 5000000 --queued 20000``.
PostgreSQL only: on any other database it says so and exits (0). It fills the database
DATABASE_URL names (give it one of its own) with one Chomp contest, ``bench-scale``, in a
continuous stage: ``--entries`` users with an entry and two versions each (the second active),
``--games`` finished two-seat games with their seats, attempts (the result as
``matches.write_result`` writes it), events (two a game, of the last two days: ``events.KEEP``),
and the faults already told (a notification per entry, a ``ReportedFault`` per faulty seat but
those of the last five minutes, which wait as ``UntoldFault``s), all made by ``INSERT ... SELECT`` in chunks, not one by one.
Games finish ``--per-hour`` apart, the newest now. A later run with more ``--games`` adds the
difference, so one database measures 1 M, then 2 M, then 5 M. Then ``--queued`` queued games of
the same stage, which the claimers take (and which are put back after each run).

What it measures, each with its baseline:

- the size: ``pg_database_size`` and each table's heap, indexes and TOAST, per million games;
- the claim: ``--claimers`` processes (a connection each, as Celery's prefork workers) call
  ``judging.play.matches.claim`` at once until the queue is empty; claims a second, and every queued
  match claimed exactly once (none doubled, none lost). Baseline: the same processes claiming
  from a bare table of as many rows with ``SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1`` and an
  ``UPDATE``; and one claimer alone (``--solo`` claims), for what the crowd costs;
- the watchdog's round (``judging.watchdog``: lost attempts, the spool, missing tokens, builds,
  the faults' digest scan), with the broker's answer replaced by "plenty" so that it sends
  nothing, the digests written and rolled back. Baseline: ``SELECT count(*)`` of the attempts;
- the standings of the stage with its stored ratings (``judging.record.standings.compute`` from the
  kept totals and from the seats, the API's and the page's first 100 rows), the count of its games played (kept, and counted over the
  matches as before), the match list (API and page), an entry's page. Baseline: the same
  aggregate over the seats in one raw SQL query, and the match list's former queries.

``--reads-only`` measures the reads alone (no size, claims or watchdog).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_standings  # noqa: E402

from bench import common  # noqa: E402

SLUG = "bench-scale"
TABLES = (
    "contests_match", "contests_matchseat", "contests_matchattempt", "judging_event", "judging_reportedfault",
    "judging_notification", "judging_untoldfault", "contests_submission", "contests_entry", "auth_user",
)  # fmt: skip
REASON = "the poisoned cookie was eaten"
FAULT_REASON = "illegal move: (9, 9) is off the grid"
TOLD_AFTER = timedelta(minutes=5)  # faults older than this were told in a digest already


def is_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


# --- The rows ------------------------------------------------------------------------------


def _one(cur, sql: str, params=None):
    cur.execute(sql, params or [])
    return cur.fetchone()[0]


def _setval(cur, table: str) -> None:
    """The identity of ``table`` continues after the ids given explicitly."""
    cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST((SELECT max(id) FROM {table}), 1))")


def _contest(entries: int):
    """The contest, its continuous stage, its users, entries and their two versions each."""
    from django.db import connection, transaction

    from contests.models import Contest, Stage
    from judging.schedule.tournaments import LADDER

    contest = Contest.objects.filter(slug=SLUG).first()
    if contest is not None:
        stage = contest.stages.get()
        have = contest.entries.count()
        if have != entries:
            sys.exit(f"bench_scale: {SLUG} has {have} entries, not {entries}: use a fresh database")
        return contest, stage
    with transaction.atomic(), connection.cursor() as cur:
        contest = Contest.objects.create(
            slug=SLUG, title="Bench at scale", game="chomp", game_params={"rows": 5, "cols": 8}
        )
        stage = Stage.objects.create(
            contest=contest, order=1, name="Ladder", kind=LADDER, status=Stage.Status.RUNNING,
            params={"games_per_pairing": 2},
        )  # fmt: skip
        cur.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,"
            " is_active, date_joined) SELECT '!', false, 'scale' || k, '', '', '', false, true, now()"
            " FROM generate_series(0, %s - 1) k",
            [entries],
        )
        cur.execute(
            "INSERT INTO contests_entry (name, form_data, is_reference, status, status_reason, created_at,"
            " contest_id, user_id) SELECT 'Entry ' || substr(username, 6), '{}', false, 'active', '', now(), %s, id"
            " FROM auth_user WHERE username LIKE 'scale%%'",
            [contest.pk],
        )
        for number, active, age in ((1, False, "30 days"), (2, True, "2 days")):
            cur.execute(
                "INSERT INTO contests_submission (number, language, source, filename, sha256, size, status,"
                " is_active, toolchain, build_log, test_log, created_at, built_at, entry_id, build_faults,"
                " rebuilt_from_sources, program_bytes, queued_at) SELECT %s, 'c', 'submissions/' || id || '.c',"
                " 'main.c', md5(id::text) || md5(id::text), 4000, 'ready', %s, 'gcc 12', '', '',"
                " now() - %s::interval, now() - %s::interval, id, 0, false, NULL, now() - %s::interval"
                " FROM contests_entry WHERE contest_id = %s",
                [number, active, age, age, age, contest.pk],
            )
        cur.execute(
            "INSERT INTO judging_notification (kind, subject, body, lines, log, link, created_at, contest_id,"
            " user_id) SELECT 'faults', 'Entry: 3 illegal moves since version 2', 'Since you submitted ...', '[]',"
            " '', '/contests/bench-scale/', now() - interval '2 hours', %s, user_id"
            " FROM contests_entry WHERE contest_id = %s",
            [contest.pk, contest.pk],
        )
    return contest, stage


CHUNK_SQL = """
WITH g AS MATERIALIZED (
    SELECT x.n, x.ts,
           p0.entry_id AS e0, CASE WHEN x.old0 THEN p0.old_sub ELSE p0.new_sub END AS s0, p0.notification AS t0,
           p1.entry_id AS e1, CASE WHEN x.old1 THEN p1.old_sub ELSE p1.new_sub END AS s1, p1.notification AS t1,
           CASE WHEN x.w THEN 'win' WHEN x.fault THEN 'illegal' ELSE 'loss' END AS st0,
           CASE WHEN NOT x.w THEN 'win' WHEN x.fault THEN 'illegal' ELSE 'loss' END AS st1,
           x.w::int::float AS pt0, (NOT x.w)::int::float AS pt1,
           CASE WHEN x.w THEN x.sc ELSE 0 END AS sc0, CASE WHEN x.w THEN 0 ELSE x.sc END AS sc1,
           x.mv0, x.mv1, CASE WHEN x.fault THEN %(fault_reason)s ELSE %(reason)s END AS reason
    FROM (
        SELECT n, floor(random() * %(entries)s)::int AS a, floor(random() * (%(entries)s - 1))::int AS b,
               random() < 0.5 AS w, random() < 0.05 AS fault, floor(random() * 40)::float + 1 AS sc,
               3 + floor(random() * 20)::int AS mv0, 3 + floor(random() * 20)::int AS mv1,
               random() < 0.5 AS old0, random() < 0.5 AS old1,
               %(now)s - make_interval(secs => (%(total)s - n) * %(step)s) AS ts
        FROM generate_series(%(first)s, %(last)s) n
    ) x
    JOIN bench_scale_player p0 ON p0.k = x.a
    JOIN bench_scale_player p1 ON p1.k = x.b + (x.b >= x.a)::int
),
m AS (
    INSERT INTO contests_match (id, round, status, seed, params, reason, error, replay, created_at, queued_at,
                                started_at, finished_at, contest_id, stage_id, faults, priority, result_attempt_id)
    SELECT %(mbase)s + n, 1, 'finished', n, %(params)s, reason, '',
           'replays/bench-scale/' || (%(mbase)s + n) || '-1.json.gz', ts - interval '1 hour', ts - interval '1 hour',
           ts - interval '2 seconds', ts, %(contest)s, %(stage)s, 0, 2, %(abase)s + n
    FROM g
),
s AS (
    INSERT INTO contests_matchseat (match_id, index, entry_id, submission_id, points, score, status, detail, reason,
                                    moves, cpu_seconds, wall_seconds)
    SELECT %(mbase)s + n, i, CASE i WHEN 0 THEN e0 ELSE e1 END, CASE i WHEN 0 THEN s0 ELSE s1 END,
           CASE i WHEN 0 THEN pt0 ELSE pt1 END, CASE i WHEN 0 THEN sc0 ELSE sc1 END,
           CASE i WHEN 0 THEN st0 ELSE st1 END, '',
           CASE WHEN (CASE i WHEN 0 THEN st0 ELSE st1 END) = 'win' THEN '' ELSE reason END,
           CASE i WHEN 0 THEN mv0 ELSE mv1 END, 0.002 * CASE i WHEN 0 THEN mv0 ELSE mv1 END,
           0.003 * CASE i WHEN 0 THEN mv0 ELSE mv1 END
    FROM g CROSS JOIN (VALUES (0), (1)) seat(i)
    RETURNING id, match_id, entry_id, status
),
told AS (
    INSERT INTO judging_reportedfault (notification_id, seat_id, attempt_id)
    SELECT CASE WHEN s.entry_id = g.e0 THEN g.t0 ELSE g.t1 END, s.id, %(abase)s + g.n
    FROM s JOIN g ON %(mbase)s + g.n = s.match_id
    WHERE s.status = 'illegal' AND g.ts < %(now)s - %(told_after)s
),
untold AS (
    INSERT INTO judging_untoldfault (seat_id, attempt_id)
    SELECT s.id, %(abase)s + g.n
    FROM s JOIN g ON %(mbase)s + g.n = s.match_id
    WHERE s.status = 'illegal' AND g.ts >= %(now)s - %(told_after)s
),
e AS (
    INSERT INTO judging_event (kind, contest_id, user_id, data, created_at)
    SELECT kind, %(contest)s, NULL, jsonb_build_object('match', %(mbase)s + n, 'stage', %(stage)s, 'status', 'finished'),
           ts
    FROM g CROSS JOIN (VALUES ('match'), ('standings')) k(kind)
    WHERE g.ts > %(now)s - %(keep)s
)
INSERT INTO contests_matchattempt (id, match_id, number, worker, host, pid, started_at, last_seen, finished_at,
                                   outcome, error, result, replay, progress)
SELECT %(abase)s + n, %(mbase)s + n, 1, 'celery@worker-' || (n %% 40), 'worker-' || (n %% 40), 1000 + n %% 64,
       ts - interval '2 seconds', ts, ts, 'finished', '',
       jsonb_build_object('reason', reason, 'seats', jsonb_build_array(
           jsonb_build_object('index', 0, 'entry', e0, 'submission', s0, 'points', pt0, 'score', sc0, 'status', st0,
                              'detail', '', 'reason', CASE WHEN st0 = 'win' THEN '' ELSE reason END, 'moves', mv0,
                              'cpu_s', 0.002 * mv0, 'wall_s', 0.003 * mv0, 'warnings', '[]'::jsonb),
           jsonb_build_object('index', 1, 'entry', e1, 'submission', s1, 'points', pt1, 'score', sc1, 'status', st1,
                              'detail', '', 'reason', CASE WHEN st1 = 'win' THEN '' ELSE reason END, 'moves', mv1,
                              'cpu_s', 0.002 * mv1, 'wall_s', 0.003 * mv1, 'warnings', '[]'::jsonb))),
       'replays/bench-scale/' || (%(mbase)s + n) || '-1.json.gz', NULL
FROM g
"""


def generate(entries: int, games: int, per_hour: float = 20_000, chunk: int = 250_000, say=print):
    """The contest with ``entries`` entries and (at least) ``games`` finished games: what an
    earlier run made is kept, the difference added. (contest, stage)."""
    import json

    from django.db import connection, transaction
    from django.utils import timezone

    from judging.models import Match
    from judging.news.events import KEEP
    from judging.record import counts
    from judging.schedule.tournaments import stage_params

    contest, stage = _contest(entries)
    have = Match.objects.filter(stage=stage, status=Match.Status.FINISHED).count()
    if have >= games:
        return contest, stage
    now = timezone.now()
    with connection.cursor() as cur:
        cur.execute(
            "CREATE TEMP TABLE IF NOT EXISTS bench_scale_player AS"
            " SELECT row_number() OVER (ORDER BY e.id) - 1 AS k, e.id AS entry_id, e.user_id,"
            " o.id AS old_sub, c.id AS new_sub, t.id AS notification"
            " FROM contests_entry e JOIN contests_submission o ON o.entry_id = e.id AND o.number = 1"
            " JOIN contests_submission c ON c.entry_id = e.id AND c.number = 2"
            " JOIN judging_notification t ON t.user_id = e.user_id AND t.kind = 'faults'"
            " WHERE e.contest_id = %s",
            [contest.pk],
        )
        cur.execute("CREATE UNIQUE INDEX IF NOT EXISTS bench_scale_player_k ON bench_scale_player (k)")
        started = time.perf_counter()
        for first in range(have + 1, games + 1, chunk):
            last = min(first + chunk - 1, games)
            with transaction.atomic():
                mbase = _one(cur, "SELECT coalesce(max(id), 0) FROM contests_match") + 1 - first
                abase = _one(cur, "SELECT coalesce(max(id), 0) FROM contests_matchattempt") + 1 - first
                cur.execute(
                    CHUNK_SQL,
                    {
                        "entries": entries, "first": first, "last": last, "total": games, "now": now,
                        "step": 3600.0 / per_hour, "mbase": mbase, "abase": abase,
                        "contest": contest.pk, "stage": stage.pk, "params": json.dumps(stage_params(stage)),
                        "reason": REASON, "fault_reason": FAULT_REASON, "told_after": TOLD_AFTER, "keep": KEEP,
                    },
                )  # fmt: skip
                _setval(cur, "contests_match")
                _setval(cur, "contests_matchattempt")
            say(f"  {last:,} games made ({time.perf_counter() - started:.0f} s)", flush=True)
        cur.execute("DELETE FROM judging_event WHERE created_at < %s", [now - KEEP])
        cur.execute("DROP TABLE bench_scale_player")
    counts.rebuild(contest)  # the matches made by SQL counted, as the platform keeps them
    return contest, stage


def queue(contest, stage, n: int) -> list[int]:
    """``n`` queued games of the stage (made once, with their two blank seats); their ids."""
    import json

    from django.db import connection, transaction

    from judging.models import Match
    from judging.record import counts
    from judging.schedule.tournaments import stage_params

    waiting = Match.objects.filter(stage=stage).exclude(status=Match.Status.FINISHED)
    ids = list(waiting.order_by("pk").values_list("pk", flat=True))
    if len(ids) >= n:
        return ids[:n]
    with transaction.atomic(), connection.cursor() as cur:
        first = _one(cur, "SELECT coalesce(max(id), 0) FROM contests_match") + 1
        cur.execute(
            "INSERT INTO contests_match (id, round, status, seed, params, reason, error, replay, created_at,"
            " queued_at, contest_id, stage_id, faults, priority) SELECT %s + n, 1, 'queued', n, %s, '', '', '',"
            " now(), now(), %s, %s, 0, 2 FROM generate_series(0, %s - 1) n",
            [first, json.dumps(stage_params(stage)), contest.pk, stage.pk, n - len(ids)],
        )
        cur.execute(
            "WITH p AS (SELECT row_number() OVER (ORDER BY s.id) - 1 AS k, s.id, s.entry_id"
            "   FROM contests_submission s JOIN contests_entry e ON e.id = s.entry_id"
            "   WHERE e.contest_id = %s AND s.is_active)"
            " INSERT INTO contests_matchseat (match_id, index, entry_id, submission_id, points, score, status,"
            " detail, reason, moves, cpu_seconds, wall_seconds)"
            " SELECT m.id, i, p.entry_id, p.id, NULL, NULL, '', '', '', 0, 0, 0"
            " FROM contests_match m CROSS JOIN (VALUES (0), (1)) seat(i)"
            " JOIN p ON p.k = (m.id * 7 + i) %% (SELECT count(*) FROM p)"
            " WHERE m.id >= %s",
            [contest.pk, first],
        )
        _setval(cur, "contests_match")
    counts.rebuild(contest)
    return queue(contest, stage, n)


def put_back(ids: list[int]) -> None:
    """The claimed games queued again, their attempts gone: the next run starts from the same queue."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("DELETE FROM contests_matchattempt WHERE match_id = ANY(%s)", [ids])
        cur.execute(
            "UPDATE contests_match SET status = 'queued', started_at = NULL WHERE id = ANY(%s) AND status <> 'queued'",
            [ids],
        )


# --- Claiming at once ----------------------------------------------------------------------


@dataclass
class ClaimRun:
    claimers: int
    claimed: int
    seconds: float
    doubled: int  # claimed twice (by two processes, or two attempts in the database)
    lost: int  # taken out of the queue, yet claimed by nobody
    left: int  # still queued when every claimer found nothing

    @property
    def per_second(self) -> float:
        return self.claimed / self.seconds if self.seconds else 0.0


def _claimer(index: int, barrier, out, limit: int | None, bare: str | None) -> None:
    """One simulated worker process: claim until there is nothing left (or ``limit`` claims)."""
    from django.db import connection, connections

    got: list[int] = []
    raw = None
    try:
        if bare:
            import psycopg2

            raw = psycopg2.connect(**connection.get_connection_params())
            cur = raw.cursor()

            def take() -> int | None:
                cur.execute(
                    f"SELECT id FROM {bare} WHERE status = 'queued' ORDER BY priority, id LIMIT 1 FOR UPDATE SKIP LOCKED"
                )
                row = cur.fetchone()
                if row:
                    cur.execute(f"UPDATE {bare} SET status = 'running' WHERE id = %s", row)
                raw.commit()
                return row[0] if row else None
        else:
            from judging.play.matches import claim

            connection.ensure_connection()

            def take() -> int | None:
                attempt = claim(f"bench-{index}", races=False)
                return attempt.match_id if attempt else None

        barrier.wait()
        start = time.monotonic()
        while limit is None or len(got) < limit:
            match_id = take()
            if match_id is None:
                break
            got.append(match_id)
        out.put((got, start, time.monotonic(), ""))
    except Exception as e:  # told to the parent, which fails the run
        out.put((got, 0.0, 0.0, f"{type(e).__name__}: {e}"))
    finally:
        if raw is not None:
            raw.close()
        connections.close_all()


def claim_all(ids: list[int], claimers: int, limit: int | None = None, bare: str | None = None) -> ClaimRun:
    """``claimers`` processes claim at once from the queue of ``ids`` (the stage's queued games,
    through ``judging.play.matches.claim``; or, with ``bare``, that bare table's rows); then every
    queued row is checked to have been claimed exactly once."""
    from django.db import connection, connections

    connections.close_all()  # no connection crosses the fork
    context = multiprocessing.get_context("fork")
    barrier, out = context.Barrier(claimers), context.Queue()
    procs = [context.Process(target=_claimer, args=(i, barrier, out, limit, bare)) for i in range(claimers)]
    for p in procs:
        p.start()
    results = [out.get(timeout=3600) for _ in procs]
    for p in procs:
        p.join()
    errors = [r[3] for r in results if r[3]]
    if errors:
        raise RuntimeError(f"{len(errors)} claimers failed: {errors[0]}")
    claimed = [match_id for r in results for match_id in r[0]]
    seconds = max(r[2] for r in results) - min(r[1] for r in results)
    with connection.cursor() as cur:
        if bare:
            cur.execute(f"SELECT id, status FROM {bare}")
            status = dict(cur.fetchall())
            attempts_doubled = 0
        else:
            cur.execute("SELECT id, status FROM contests_match WHERE id = ANY(%s)", [ids])
            status = dict(cur.fetchall())
            attempts_doubled = _one(
                cur,
                "SELECT count(*) FROM (SELECT match_id FROM contests_matchattempt WHERE match_id = ANY(%s)"
                " GROUP BY match_id HAVING count(*) > 1) d",
                [ids],
            )
    taken = {pk for pk, s in status.items() if s != "queued"}
    return ClaimRun(
        claimers=claimers,
        claimed=len(claimed),
        seconds=seconds,
        doubled=len(claimed) - len(set(claimed)) + attempts_doubled,
        lost=len(taken - set(claimed)),
        left=sum(s == "queued" for s in status.values()) if limit is None else 0,
    )


def bare_queue(n: int) -> str:
    """A bare table of ``n`` queued rows with the queue's index: the baseline's."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS bench_scale_queue")
        cur.execute(
            "CREATE TABLE bench_scale_queue AS SELECT n::bigint AS id, 'queued'::varchar(10) AS status,"
            " 2::smallint AS priority FROM generate_series(1, %s) n",
            [n],
        )
        cur.execute("ALTER TABLE bench_scale_queue ADD PRIMARY KEY (id)")
        cur.execute("CREATE INDEX ON bench_scale_queue (status, priority, id)")
        cur.execute("ANALYZE bench_scale_queue")
    return "bench_scale_queue"


# --- Measuring -----------------------------------------------------------------------------


def timed(fn, runs: int, warm: int = 1) -> list[float]:
    for _ in range(warm):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def spread(times: list[float], unit: float = 1000.0, digits: int = 1) -> str:
    """min / median / max, in ms by default."""
    return " / ".join(f"{x * unit:,.{digits}f}" for x in (min(times), statistics.median(times), max(times)))


def sizes() -> tuple[int, dict[str, tuple[int, int, int]]]:
    """The database's size; each table's (heap, indexes, TOAST) in bytes."""
    from django.db import connection

    with connection.cursor() as cur:
        total = _one(cur, "SELECT pg_database_size(current_database())")
        tables = {}
        for table in TABLES:
            cur.execute(
                "SELECT pg_relation_size(%s), pg_indexes_size(%s),"
                " pg_total_relation_size(%s) - pg_relation_size(%s) - pg_indexes_size(%s)",
                [table] * 5,
            )
            tables[table] = cur.fetchone()
    return total, tables


STANDINGS_SQL = """
SELECT s.entry_id, count(*) FILTER (WHERE s.status <> 'bye'), count(*) FILTER (WHERE s.status = 'win'),
       sum(s.score), sum(s.moves)
FROM contests_matchseat s JOIN contests_match m ON m.id = s.match_id
     JOIN contests_submission sub ON sub.id = s.submission_id
WHERE m.stage_id = %s AND m.result_attempt_id IS NOT NULL AND sub.is_active
GROUP BY s.entry_id
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--per-hour", type=float, default=20_000, help="games a hour, for their finishing times")
    parser.add_argument("--queued", type=int, default=5000)
    parser.add_argument("--claimers", type=int, default=32)
    parser.add_argument("--solo", type=int, default=1000, help="claims of the lone claimer")
    parser.add_argument("--runs", type=int, default=5, help="repetitions of each query")
    parser.add_argument("--claim-runs", type=int, default=3, help="repetitions of each claiming crowd")
    parser.add_argument("--no-page", action="store_true", help="leave out the standings page (slow at 10,000)")
    parser.add_argument("--reads-only", action="store_true", help="the standings and lists alone")
    args = parser.parse_args()
    if not is_postgres():
        print("bench_scale measures PostgreSQL only: set DATABASE_URL=postgres://... (a database of its own). Skipped.")
        return
    bench_standings.setup_django()
    from django.core.management import call_command
    from django.db import connection

    from judging.record import counts, tallies

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    common.say(f"making {args.entries:,} entries and {args.games:,} games")
    contest, stage = generate(args.entries, args.games, args.per_hour, say=lambda text, **_: common.say(text.strip()))
    common.say(f"queueing {args.queued:,} matches")
    ids = queue(contest, stage, args.queued)
    put_back(ids)
    # The rows were written by SQL, not by results landing: the kept totals are built from them
    # as `manage.py rebuild_standings` does.
    common.say("building the kept totals and counts")
    rebuilt_s = time.perf_counter()
    tallies.rebuild(contest)
    counts.rebuild(contest)
    rebuilt_s = time.perf_counter() - rebuilt_s
    common.say("VACUUM ANALYZE")
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
        games = _one(cur, "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'", [stage.pk])
        seats = _one(cur, "SELECT count(*) FROM contests_matchseat")
        attempts = _one(cur, "SELECT count(*) FROM contests_matchattempt")
        told = _one(cur, "SELECT count(*) FROM judging_reportedfault")
        events = _one(cur, "SELECT count(*) FROM judging_event")
    built = time.perf_counter() - started
    print(
        f"{args.entries:,} entries, {games:,} finished games ({seats:,} seats, {attempts:,} attempts, "
        f"{told:,} faults told, {events:,} events), {len(ids):,} queued; PostgreSQL "
        f"{connection.pg_version // 10000}, {os.cpu_count()} cores; made or found in {built:.0f} s "
        f"(of which the kept totals rebuilt from the seats: {rebuilt_s:.1f} s).\n"
    )

    if not args.reads_only:
        measure_the_rest(args, contest, stage, ids, games)
    reads(args, contest, stage)


def measure_the_rest(args, contest, stage, ids: list[int], games: int) -> None:
    """The size, the claim and the watchdog's round."""
    from django.db import connection, transaction
    from django.utils import timezone

    from judging import watchdog
    from judging.news import notifications
    from judging.play import matches

    # The size.
    total, tables = sizes()
    per = 1e6 / games
    print("| table | heap | indexes | TOAST | total | total per million games |")
    print("|---|---:|---:|---:|---:|---:|")
    mb = 1024 * 1024
    for table, (heap, index, toast) in tables.items():
        whole = heap + index + toast
        print(
            f"| {table} | {heap / mb:,.0f} MB | {index / mb:,.0f} MB | {toast / mb:,.0f} MB | {whole / mb:,.0f} MB "
            f"| {whole * per / mb:,.0f} MB |"
        )
    heaps = sum(h for h, _, _ in tables.values())
    print(
        f"| **the database** (pg_database_size) | | | | **{total / mb:,.0f} MB** | **{total * per / mb:,.0f} MB** |\n\n"
        f"Baseline: the tables' heaps alone (no index, no TOAST), {heaps / mb:,.0f} MB, "
        f"{heaps * per / mb:,.0f} MB per million games.\n"
    )

    # The claim.
    runs = []
    for _ in range(args.claim_runs):
        runs.append(claim_all(ids, args.claimers))
        put_back(ids)
    solo = []
    for _ in range(args.claim_runs):
        solo.append(claim_all(ids, 1, limit=min(args.solo, len(ids))))
        put_back(ids)
    bare = []
    for _ in range(args.claim_runs):
        bare.append(claim_all([], args.claimers, bare=bare_queue(len(ids))))
    with connection.cursor() as cur:
        cur.execute("DROP TABLE bench_scale_queue")
    print(f"| claims a second, {args.claim_runs} runs | min / median / max | claimed | doubled | lost | left queued |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, found in (
        (f"baseline: bare table, SKIP LOCKED, {args.claimers} processes", bare),
        (f"`matches.claim`, 1 process ({args.solo:,} claims)", solo),
        (f"`matches.claim`, {args.claimers} processes at once", runs),
    ):
        rates = [r.per_second for r in found]
        print(
            f"| {name} | {spread(rates, 1, 0)} | {'/'.join(str(r.claimed) for r in found)} "
            f"| {sum(r.doubled for r in found)} | {sum(r.lost for r in found)} | {sum(r.left for r in found)} |"
        )

    # The watchdog's round, with a crowd's attempts running (fresh heartbeats).
    running = [matches.claim(f"bench-run-{i}", races=False) for i in range(args.claimers)]
    watchdog.broker_backlog = lambda queue: 10**9  # the broker holds plenty: nothing is sent

    def digests() -> int:
        with transaction.atomic():
            written = notifications.send_fault_digests()
            transaction.set_rollback(True)
        return written

    def count_attempts():
        with connection.cursor() as cur:
            return _one(cur, "SELECT count(*) FROM contests_matchattempt")

    steps = [
        ("baseline: `SELECT count(*)` of the attempts", count_attempts),
        ("`rescue_lost` (silent attempts)", watchdog.rescue_lost),
        ("`flush_spool`", matches.flush_spool),
        ("`send_missing_tokens` (its counts)", watchdog.send_missing_tokens),
        ("`rescue_builds`", watchdog.rescue_builds),
        ("`send_fault_digests` (the scan; written, rolled back)", digests),
    ]
    unreported = notifications.unreported_faults(timezone.now()).count()
    print(
        f"\n{len(running)} attempts running; {unreported} faults not told yet (the last "
        f"{TOLD_AFTER.seconds // 60} minutes'), {args.runs} runs.\n"
    )
    print("| the watchdog's round, step by step | ms: min / median / max |")
    print("|---|---:|")
    whole = []
    for name, fn in steps:
        times = timed(fn, args.runs)
        print(f"| {name} | {spread(times)} |")
        if not name.startswith("baseline"):
            whole.append(times)
    print(f"| **the round** (the steps' sums) | {spread([sum(t) for t in zip(*whole, strict=True)])} |")
    put_back(ids)


def spread95(times: list[float]) -> str:
    """min / median / p95 / max, in ms."""
    return " / ".join(
        f"{x * 1000:,.1f}" for x in (min(times), statistics.median(times), bench_standings.p95(times), max(times))
    )


def reads(args, contest, stage) -> None:
    """The standings, the count of games, the match list and an entry's page."""
    from django.db import connection
    from django.test import Client

    from judging.models import Match, RatingFit
    from judging.record import confidence, standings

    if not RatingFit.objects.filter(stage=stage, frozen=False).exists():
        confidence.rate(stage.pk)  # the standings as they are read: with the stage's stored ratings
    client = Client()

    def raw_sql():
        with connection.cursor() as cur:
            cur.execute(STANDINGS_SQL, [stage.pk])
            return cur.fetchall()

    def api():
        response = client.get(f"/api/contests/{contest.slug}/standings/")
        assert response.status_code == 200, response.status_code

    def page():
        response = client.get(f"/contests/{contest.slug}/standings/")
        assert response.status_code == 200, response.status_code

    def get(path: str, **query):
        def fetch():
            response = client.get(path, query)
            assert response.status_code == 200, response.status_code

        return fetch

    entry = contest.entries.order_by("pk")[5]
    theirs = Match.objects.filter(contest__slug=contest.slug, stage__isnull=False)
    found = [
        ("baseline: the same aggregate in raw SQL", raw_sql),
        ("`standings.compute` (the stage), from the kept totals", lambda: standings.compute(contest, stage)),
        ("`standings.compute` from the seats (the reference)", lambda: standings.compute(contest, stage, kept=False)),
        ("games played and scheduled (`_progress`), kept", lambda: standings._progress(contest, stage)),
        ("the same counted over the matches (before)", lambda: standings._progress(contest, stage, kept=False)),
        ("standings API (first page of 100)", api),
    ]
    if not args.no_page:
        found.append(("standings page (first page of 100)", page))
    found += [
        ("match list API (first page of 50)", get("/api/matches/", contest=contest.slug)),
        ("match list page (first page of 100)", get(f"/contests/{contest.slug}/matches/")),
        ("an entry's page", get(f"/contests/{contest.slug}/entries/{entry.pk}/")),
        ("baseline: the match list's former COUNT of the contest's games", theirs.count),
        (
            "baseline: its former page query (by the slug's join)",
            lambda: list(theirs.order_by("-pk").values("pk")[:50]),
        ),
    ]
    print(f"\n| the standings and lists ({args.runs} runs) | ms: min / median / p95 / max |")
    print("|---|---:|")
    for name, fn in found:
        print(f"| {name} | {spread95(timed(fn, args.runs))} |")


if __name__ == "__main__":
    common.exit_on_signals()
    main()
