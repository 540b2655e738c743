"""The ratings at a stage's size, as markdown tables of min / median / max (no pass/fail; the
machine is shared: the load average is printed beside each table).

    python bench/bench_ratings.py [--runs 5] [--entries 1000 --games 500000] [--arithmetic-only]

1. The arithmetic (judging/record/ratings.py) on games drawn from known strengths and summed into
   the pair table the kept totals give: 200 entries and 40,000 games between any two, a
   ladder of 1,000 entries and 500,000 games where each meets the 50 nearest it in strength,
   and 1,000 entries and 500,000 games between any two. Timed: the fit (strengths and
   covariance, from nothing), 1,000 draws of it, the rank intervals with the settled
   boundaries (one sort for both). Baseline, in the same run: summing the games into the pair
   table.
2. The whole task on PostgreSQL (``confidence.rate``: the kept pairs read, fitted, drawn and
   stored), on a Chomp round robin of ``--entries`` entries and ``--games`` random games
   built as ``bench_standings.py`` builds its own (in a PostgreSQL of its own, unless
   DATABASE_URL names one: that one is filled once and measured again by later runs). Timed in
   turns, run after run, so that the machine's load falls on each alike: the baseline (the
   kept pair rows summed by the database: the first version's query), the task from nothing
   stored (a first fit) and from the fit stored (a fit started from the last), each with one
   BLAS thread (the site's: arbiter/threads.py) and with a thread per core (as before issue
   35), and the task's parts.

Building 500,000 games takes some 5 minutes; ``--entries 200 --games 40000`` is quicker.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arbiter.threads import pin

pin()  # as the site's processes run: before numpy loads

import numpy as np  # noqa: E402

from judging.record import ratings  # noqa: E402


def games_of(entries: int, games: int, neighbours: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """``games`` games between entries at most ``neighbours`` apart in strength (all of them when
    ``neighbours`` >= ``entries``): who played whom and what the first scored."""
    strengths = np.sort(rng.normal(0.0, 1.5, entries))[::-1]
    a = rng.integers(0, entries, games)
    b = (a + rng.integers(1, min(neighbours, entries - 1) + 1, games)) % entries
    chance = 1.0 / (1.0 + np.exp(-(strengths[a] - strengths[b])))
    return a, b, (rng.random(games) < chance).astype(float)


def pair_table(entries: int, a: np.ndarray, b: np.ndarray, scored: np.ndarray) -> ratings.Table:
    low, high = np.minimum(a, b), np.maximum(a, b)
    points = np.where(a < b, scored, 1.0 - scored)
    key = low * entries + high
    games = np.bincount(key, minlength=entries * entries)
    won = np.bincount(key, weights=points, minlength=entries * entries)
    played = np.flatnonzero(games)
    return played // entries, played % entries, games[played].astype(float), won[played]


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    found = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        found.append((time.perf_counter() - started) * 1000)
    return found


def cell(values: list[float]) -> str:
    return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(label: str, entries: int, games: int, neighbours: int, runs: int, rng: np.random.Generator) -> None:
    a, b, scored = games_of(entries, games, neighbours, rng)
    table = pair_table(entries, a, b, scored)
    found = ratings.fit(entries, table)
    samples = ratings.draws(found)
    order = list(np.argsort(-found.strength, kind="stable"))

    def intervals() -> None:
        drawn = ratings.strongest_first(samples)
        ratings.rank_intervals(samples, drawn=drawn)
        ratings.settled(samples, order, drawn=drawn)

    steps: list[tuple[str, Callable[[], object]]] = [
        ("baseline: the games summed into the pair table", lambda: pair_table(entries, a, b, scored)),
        (f"the fit ({len(table[0]):,} pairs)", lambda: ratings.fit(entries, table)),
        ("1,000 draws", lambda: ratings.draws(found)),
        ("the rank intervals and settled boundaries", intervals),
    ]
    for step, fn in steps:
        print(f"| {label} | {step} | {cell(timed(fn, runs))} |", flush=True)


def arithmetic(runs: int) -> None:
    print(f"Ratings' arithmetic, {runs} runs each, one BLAS thread, on {os.uname().nodename}, {load()}\n")
    print("| stage | step | ms: min / median / max |")
    print("|---|---|---:|")
    rng = np.random.default_rng(26)
    measure("200 entries, 40,000 games between any two", 200, 40_000, 200, runs, rng)
    measure("ladder, 1,000 entries, 500,000 games", 1_000, 500_000, 50, runs, rng)
    measure("1,000 entries, 500,000 games between any two", 1_000, 500_000, 1_000, runs, rng)
    print(f"\n({load()})\n")


BASELINE = """
SELECT CASE WHEN entry_id < opponent_id THEN entry_id ELSE opponent_id END,
       CASE WHEN entry_id < opponent_id THEN opponent_id ELSE entry_id END,
       CAST(SUM(games) AS DOUBLE PRECISION) / 2,
       CAST(SUM(CASE WHEN entry_id < opponent_id THEN 2 * wins + draws ELSE 2 * (games - wins) - draws END)
            AS DOUBLE PRECISION) / 4
FROM judging_pairtally WHERE stage_id = %s AND frozen = false GROUP BY 1, 2 ORDER BY 1, 2
"""


def task(entries: int, games: int, runs: int) -> None:
    from bench_standings import build, setup_django, start_postgres

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        os.environ["DATABASE_URL"] = start_postgres()
    setup_django()
    from django.core.management import call_command
    from django.db import connection
    from threadpoolctl import threadpool_limits

    from contests.models import Contest
    from judging.models import PairTally, Rating
    from judging.record import confidence, counts, tallies

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    contest = Contest.objects.filter(slug="bench").first()
    if contest is None:
        contest, stage = build(entries, games)
        tallies.rebuild(contest)
        counts.rebuild(contest)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    else:  # a database of one's own filled by an earlier run: measured again
        stage = contest.stages.get()
    built = time.perf_counter() - started
    cores = os.cpu_count() or 1

    def baseline() -> None:
        with connection.cursor() as cursor:
            cursor.execute(BASELINE, [stage.pk])
            cursor.fetchall()

    def rate(threads: int, first: bool) -> Callable[[], float]:
        """The task, timed alone: from nothing stored (a first fit), or from the fit stored."""

        def run() -> float:
            if first:
                Rating.objects.filter(fit__stage=stage).delete()
            with threadpool_limits(threads):
                began = time.perf_counter()
                confidence.rate(stage.pk)
                return (time.perf_counter() - began) * 1000

        return run

    confidence.rate(stage.pk)
    nodes, table = confidence._pairs(stage, False, False)
    shown = confidence._shown_nodes(stage, False, False)
    start = confidence._last(stage, False, False, nodes)
    found = ratings.fit(len(nodes), table)
    columns = [nodes[node] for _, node in shown]
    samples = ratings.draws(found, columns=columns)

    def intervals() -> None:
        drawn = ratings.strongest_first(samples)
        ratings.rank_intervals(samples, drawn=drawn)
        ratings.settled(samples, list(range(len(columns))), drawn=drawn)

    steps: list[tuple[str, Callable[[], object]]] = [  # a step that returns a float timed itself
        ("baseline: the kept pair rows summed by the database (the first version's query)", baseline),
        ("`confidence.rate` from nothing stored, one BLAS thread (the site's)", rate(1, first=True)),
        ("`confidence.rate` from the fit stored, one BLAS thread", rate(1, first=False)),
        (f"`confidence.rate` from nothing stored, {cores} BLAS threads (before issue 35)", rate(cores, first=True)),
        (f"`confidence.rate` from the fit stored, {cores} BLAS threads", rate(cores, first=False)),
        ("its parts: the pairs read and summed (`_pairs`)", lambda: confidence._pairs(stage, False, False)),
        ("the rows shown (`standings.compute`)", lambda: confidence._shown_nodes(stage, False, False)),
        ("the fit from nothing", lambda: ratings.fit(len(nodes), table)),
        ("the fit from the fit stored", lambda: ratings.fit(len(nodes), table, start=start)),
        ("1,000 draws of the rows shown", lambda: ratings.draws(found, columns=columns)),
        ("the rank intervals and settled boundaries", intervals),
    ]
    times: dict[str, list[float]] = {name: [] for name, _ in steps}
    before = load()
    for _ in range(runs):
        for name, fn in steps:
            began = time.perf_counter()
            own = fn()
            times[name].append(own if isinstance(own, float) else (time.perf_counter() - began) * 1000)
    pairs = PairTally.objects.filter(stage=stage, frozen=False).count()
    print(
        f"`confidence.rate` on PostgreSQL {connection.pg_version // 10000}: {len(shown)} rows shown, "
        f"{int(table[2].sum()):,} games, {pairs:,} kept pair rows ({len(table[0]):,} pairs); built in {built:.0f} s; "
        f"{runs} runs each, in turns; {before} before, {load()} after.\n"
    )
    print("| what | ms: min / median / max | median / baseline's |")
    print("|---|---:|---:|")
    base = statistics.median(times[steps[0][0]])
    for name, _ in steps:
        print(f"| {name} | {cell(times[name])} | {statistics.median(times[name]) / base:.2f}× |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--games", type=int, default=500_000)
    parser.add_argument("--arithmetic-only", action="store_true", help="no PostgreSQL: part 1 alone")
    args = parser.parse_args()
    arithmetic(args.runs)
    if not args.arithmetic_only:
        task(args.entries, args.games, args.runs)


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
