"""CodeCup 2024's final on the platform, end to end, as markdown tables (no pass/fail).

    python bench/bench_codecup.py [--entries 70] [--rounds 24] [--top 36] [--workers 2]
    python bench/bench_codecup.py --ladder 1000 --minutes 10

1. The final (CodeCup 2024's official results: 70 programs in a Swiss of 24 rounds, each
   pairing played twice, 1,680 games; then the best 36 in a double round robin, 1,260 games),
   on the demo's Sudoku contest (its clock, memory and CodeCup's compilers): the demo's
   references at two strengths in two languages (the random player in Python, the claimer in
   C++), copied to make up the field. Two Celery workers (one game each at a time) on a
   PostgreSQL and a Redis of their own, the web server beside them, from the judge's "run" to
   the final's last result. Measured: the wall time against the programs' own CPU and against
   the games' own durations (the sum of each game's start to end, over the workers: the part
   of the wall time the workers were playing), games an hour, the time from each round's
   last result to the next round's first game (the pairing task and the queue between), and
   during the run the standings' latency (the API and the page, fetched every 0.5 s by a
   visitor) and how far the stored ratings are behind the results.
2. ``--ladder N``: N entries in a rated continuous ladder for ``--minutes``: games an hour,
   the standings' latency and the ratings' lag at that size. Each new version plays 20
   opponents (``max_opponents``), then the games the ratings ask for: without the cap a
   ladder schedules each new version against every current one (CodeCup's test competition),
   half a million games for 1,000 entries.

Ports and folders: ``--port`` (else ``BENCH_PORT``, else a free one) for the web server; the
installation's folder under ``BENCH_TMP`` (else the system's temporary folder), removed on the
way out, on Ctrl-C and on SIGTERM too.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402
from judging.tests.installation import BIN, running_site  # noqa: E402

SETUP = """
from pathlib import Path
from django.contrib.auth.models import User
from contests.models import Contest, Entry, Stage
from contests.services import submit
from judging.play import builds
from web.demo import DEMO_CONTESTS

spec = next(c for c in DEMO_CONTESTS if c.game == "sudoku")
user, _ = User.objects.get_or_create(username="organiser")
contest = Contest.objects.create(
    slug={slug!r}, title="CodeCup 2024 final (bench)", game="sudoku", game_params=spec.game_params,
    clock=spec.clock, language_table=spec.language_table, max_source_bytes=spec.max_source_bytes,
    max_entries_per_user=100000,
)
stages = {{}}
for order, (name, kind, params) in enumerate({stages!r}, start=1):
    stages[name] = Stage.objects.create(contest=contest, order=order, name=name, kind=kind, params=params).pk
print(json.dumps({{"contest": contest.pk, "stages": stages}}))
"""
ENTER = """
from pathlib import Path
from django.contrib.auth.models import User
from contests.models import Contest, Entry
from contests.services import submit
from judging.play import builds

user = User.objects.get(username="organiser")
contest = Contest.objects.get(pk={contest})
programs = {programs!r}
for n in range({first}, {last}):
    name, path = programs[n % len(programs)]
    entry = Entry.objects.create(contest=contest, user=user, name=f"{{name}} {{n + 1}}")
    builds.build_submission(submit(entry, filename=Path(path).name, data=Path(path).read_bytes()).pk)
print(json.dumps({last}))
"""
RUN = """
from contests.models import Stage
from judging.record import lifecycle
print(json.dumps(len(lifecycle.run_stage(Stage.objects.get(pk={stage})))))
"""
PROGRAMS = [
    ("Random (Python)", "games/sudoku/players/random_player.py"),
    ("Claimer (C++)", "games/sudoku/players/claimer.cpp"),
]
LADDER_PROGRAMS = [
    ("Perfect (Python)", "games/chomp/players/perfect.py"),
    ("Random (C)", "games/chomp/players/random_player.c"),
]
LADDER_SETUP = """
from pathlib import Path
from django.contrib.auth.models import User
from contests.models import Contest, Entry, Stage
from contests.services import submit
from judging.play import builds
from judging.record import lifecycle

user, _ = User.objects.get_or_create(username="organiser")
contest = Contest.objects.create(slug={slug!r}, title="Ladder (bench)", game="chomp",
                                 game_params={{"rows": 4, "cols": 5}}, max_entries_per_user=100000)
stage = Stage.objects.create(contest=contest, order=1, name="Ladder", kind="ladder",
                             params={{"games_per_pairing": 1, "rated": True, "max_opponents": 20}})
lifecycle.run_stage(stage)
print(json.dumps({{"contest": contest.pk, "stage": stage.pk}}))
"""


def enter(site, contest: int, programs: list[tuple[str, str]], entries: int, batch: int = 50) -> None:
    """``entries`` programs entered and built, ``batch`` a child process, saying how far it is."""
    for first in range(0, entries, batch):
        last = min(entries, first + batch)
        site.django(ENTER.format(contest=contest, programs=programs, first=first, last=last), timeout=3600)
        common.say(f"entered and built {last} of {entries} programs")


def start_web(site, port: int) -> subprocess.Popen:
    """The site's web server, as the README's many-machines steps start it (styles collected first)."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=site.env, check=True
    )
    argv = [
        str(BIN / "gunicorn"), "arbiter.asgi:application", "--worker-class", "arbiter.web_server.Worker",
        "--bind", f"127.0.0.1:{port}", "--workers", "2", "--no-control-socket",
    ]  # fmt: skip
    log = open(site.folder / "web.log", "wb")  # noqa: SIM115 (closed with the folder)
    proc = subprocess.Popen(argv, cwd=ROOT, env=site.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=2)
            return proc
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("the web server did not come up")


class Watcher(threading.Thread):
    """A visitor fetching the standings (the API and the page) every ``every`` seconds, and
    the stored ratings' lag behind the results, until stopped."""

    def __init__(self, site, port: int, slug: str, stage_ids: list[int], every: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.site, self.port, self.slug, self.stage_ids, self.every = site, port, slug, stage_ids, every
        self.api: list[float] = []
        self.page: list[float] = []
        self.lag: list[float] = []  # how long the oldest result the stored ratings miss has waited
        self.errors: list[str] = []
        self.stop = threading.Event()

    def fetch(self, path: str) -> float:
        start = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as answer:
            answer.read()
        return time.perf_counter() - start

    def run(self) -> None:
        while not self.stop.wait(self.every):
            try:
                self.api.append(self.fetch(f"/api/contests/{self.slug}/standings/"))
                self.page.append(self.fetch(f"/contests/{self.slug}/standings/"))
            except OSError as e:
                self.errors.append(str(e))
                continue
            self.lag.append(max(self.behind(stage) for stage in self.stage_ids))

    def behind(self, stage: int) -> float:
        """How long the oldest result the stage's stored fit does not count has waited (0: none)."""
        waiting = self.site.sql(
            """SELECT extract(epoch FROM now() - m.finished_at) FROM contests_match m
               WHERE m.stage_id = %s AND m.status = 'finished'
                 AND NOT EXISTS (SELECT 1 FROM contests_matchseat s WHERE s.match_id = m.id AND s.status = 'bye')
               ORDER BY m.finished_at
               OFFSET coalesce((SELECT f.games FROM judging_ratingfit f WHERE f.stage_id = %s AND NOT f.frozen), 0)
               LIMIT 1""",
            stage,
            stage,
        )
        return float(waiting[0][0]) if waiting else 0.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.0f} / {1000 * pct(values, 0.95):.0f}" if values else "-"


def wait_for_stage(site, stage: int, games: int | None = None) -> None:
    last = -1
    while True:
        status, done = site.sql(
            """SELECT s.status, (SELECT count(*) FROM contests_match m WHERE m.stage_id = s.id AND m.status = 'finished')
               FROM contests_stage s WHERE s.id = %s""",
            stage,
        )[0]
        if status in ("finished", "cancelled"):
            return
        if done // 50 != last // 50:
            common.say(f"stage {stage}: {done} games finished{f' of {games}' if games else ''}")
        last = done
        time.sleep(1)


def stage_figures(site, stage: int) -> dict:
    games, cpu, playing, first, last = site.sql(
        """SELECT count(DISTINCT m.id), sum(s.cpu_seconds),
                  (SELECT sum(extract(epoch FROM finished_at - started_at)) FROM contests_match
                    WHERE stage_id = %s AND status = 'finished' AND started_at IS NOT NULL),
                  min(m.started_at), max(m.finished_at)
           FROM contests_match m JOIN contests_matchseat s ON s.match_id = m.id
           WHERE m.stage_id = %s AND m.status = 'finished' AND s.status <> 'bye'""",
        stage,
        stage,
    )[0]
    rounds = site.sql(
        """SELECT round, min(started_at), max(finished_at) FROM contests_match
           WHERE stage_id = %s AND status = 'finished' AND started_at IS NOT NULL GROUP BY round ORDER BY round""",
        stage,
    )
    gaps = [(b[1] - a[2]).total_seconds() for a, b in zip(rounds, rounds[1:], strict=False)]
    return {
        "games": games,
        "cpu": float(cpu or 0),
        "playing": float(playing or 0),
        "wall": (last - first).total_seconds() if first and last else 0.0,
        "gaps": gaps,
    }


# The visitor measures the standings, not the site's limits on how often one client may ask.
UNLIMITED = {"HEAVY_RATE_LIMIT": "1000000/min", "API_RATE_LIMIT": "1000000/min"}


def final(args) -> None:
    stages = [
        ("Swiss rounds", "swiss", {"rounds": args.rounds, "games_per_pairing": 2}),
        ("Final", "round_robin", {"games_per_pairing": 2, "top": args.top}),
    ]
    port = common.port(args.port)
    with running_site(base=common.base()) as site:
        site.env.update(CACHE_URL=f"redis://127.0.0.1:{site.redis_port}/1", WORKER_HEARTBEAT_SECONDS="5", **UNLIMITED)
        common.say(f"installation in {site.folder}; building {args.entries} entries")
        slug = f"codecup-{uuid.uuid4().hex[:6]}"
        made = site.django(SETUP.format(slug=slug, stages=stages))
        enter(site, made["contest"], PROGRAMS, args.entries)
        web = start_web(site, port)
        for n in range(args.workers):
            site.start_worker(f"w{n}-{uuid.uuid4().hex[:4]}")
        swiss, last = made["stages"]["Swiss rounds"], made["stages"]["Final"]
        watcher = Watcher(site, port, slug, [swiss, last])
        watcher.start()
        common.say(f"running the Swiss ({args.rounds} rounds)")
        start = time.perf_counter()
        site.django(RUN.format(stage=swiss))
        wait_for_stage(site, swiss, args.entries // 2 * 2 * args.rounds)
        swiss_done = time.perf_counter()
        common.say(f"running the final (top {args.top})")
        site.django(RUN.format(stage=last))
        judged_to_first = site.sql(
            "SELECT extract(epoch FROM min(started_at) - (SELECT min(created_at) FROM contests_match "
            "WHERE stage_id = %s)) FROM contests_match WHERE stage_id = %s",
            last,
            last,
        )
        wait_for_stage(site, last, args.top * (args.top - 1))
        wall = time.perf_counter() - start
        watcher.stop.set()
        watcher.join()
        web.terminate()
        figures = {name: stage_figures(site, pk) for name, pk in (("Swiss rounds", swiss), ("Final", last))}
    print(
        f"\n{args.entries} programs, {args.rounds} Swiss rounds, top {args.top}, {args.workers} workers; load {common.load()}\n"
    )
    print("| stage | games | wall | programs' CPU | games' own time | wall × workers / CPU | games an hour |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, f in figures.items():
        ratio = f["wall"] * args.workers / f["cpu"] if f["cpu"] else float("nan")
        rate = f["games"] / f["wall"] * 3600 if f["wall"] else float("nan")
        print(
            f"| {name} | {f['games']} | {f['wall']:.0f} s | {f['cpu']:.0f} s | {f['playing']:.0f} s | "
            f"{ratio:.2f} | {rate:,.0f} |"
        )
    gaps = figures["Swiss rounds"]["gaps"]
    print(f"\nWhole run: {wall:.0f} s (Swiss {swiss_done - start:.0f} s).")
    if gaps:
        print(
            f"A round's last result to the next round's first game: median {statistics.median(gaps):.2f} s, "
            f"max {max(gaps):.2f} s over {len(gaps)} rounds."
        )
    if judged_to_first and judged_to_first[0][0] is not None:
        print(f"The final's run to its first game: {float(judged_to_first[0][0]):.2f} s.")
    print(
        f"During the run, standings median / p95: API {ms(watcher.api)} ms, page {ms(watcher.page)} ms "
        f"({len(watcher.api)} fetches each, {len(watcher.errors)} refused); the oldest result the stored ratings "
        "miss had waited: median "
        f"{statistics.median(watcher.lag) if watcher.lag else float('nan'):.1f} s, p95 {pct(watcher.lag, 0.95):.1f} s."
    )
    refusals(watcher)


def refusals(watcher: Watcher) -> None:
    if watcher.errors:
        print(f"The first refusal of the visitor's fetches: {watcher.errors[0]}")


def ladder(args) -> None:
    port = common.port(args.port)
    with running_site(base=common.base()) as site:
        site.env.update(CACHE_URL=f"redis://127.0.0.1:{site.redis_port}/1", WORKER_HEARTBEAT_SECONDS="5", **UNLIMITED)
        slug = f"ladder-{uuid.uuid4().hex[:6]}"
        common.say(f"installation in {site.folder}; entering {args.ladder} programs")
        made = site.django(LADDER_SETUP.format(slug=slug))
        enter(site, made["contest"], LADDER_PROGRAMS, args.ladder, batch=100)
        web = start_web(site, port)
        for n in range(args.workers):
            site.start_worker(f"w{n}-{uuid.uuid4().hex[:4]}")
        watcher = Watcher(site, port, slug, [made["stage"]], every=2.0)
        watcher.start()
        start = time.perf_counter()
        done_before = site.sql(
            "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'", made["stage"]
        )[0][0]
        while time.perf_counter() - start < args.minutes * 60:
            time.sleep(10)
            done = site.sql(
                "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'", made["stage"]
            )[0][0]
            common.say(f"{done} games finished")
        wall = time.perf_counter() - start
        done = site.sql(
            "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'", made["stage"]
        )[0][0]
        watcher.stop.set()
        watcher.join()
        web.terminate()
    games = done - done_before
    print(
        f"\nA rated ladder of {args.ladder} entries, {args.workers} workers, {args.minutes} minutes; load {common.load()}\n"
    )
    print("| games | games an hour | standings API median / p95 | page median / p95 | ratings behind, median / p95 |")
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {games} | {games / wall * 3600:,.0f} | {ms(watcher.api)} ms | {ms(watcher.page)} ms | "
        f"{statistics.median(watcher.lag) if watcher.lag else float('nan'):.1f} / {pct(watcher.lag, 0.95):.1f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=70)
    parser.add_argument("--rounds", type=int, default=24)
    parser.add_argument("--top", type=int, default=36)
    parser.add_argument("--workers", type=int, default=2)
    common.add_port_option(parser)
    parser.add_argument("--ladder", type=int, default=0, help="play a rated ladder of this many entries instead")
    parser.add_argument("--minutes", type=float, default=10, help="how long the ladder plays")
    args = parser.parse_args()
    if args.ladder:
        ladder(args)
    else:
        final(args)


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
