"""Swiss pairing (``judging.schedule.pairing.swiss_pairs``) over 24 rounds of random results, as a
markdown table of min / median / max per round (no pass/fail; the machine is shared: the load
average is printed beside each row).

    python bench/bench_swiss.py [--seeds 5 --cap 5 --sizes 16,30,40,56,70,128,1000]

Each field plays 24 rounds (the demo Sudoku contest's and CodeCup 2024's final): two games a
pairing, each side first once, a game won by either seat (45% each) or drawn (10%: 1 point
each, 2 for a win), a bye scoring a won pairing. Each round is paired from the points so far,
every seed a field of its own. Timed: the pairing call alone (not the standings read nor the
matches written around it). Baseline, in the same run: the backtracking it replaced, on the
same kind of fields, each round stopped at ``--cap`` seconds (then that seed's later rounds
are not measured: the field has no pairing to go on from). And the matching offered every
pair at once (the fallback when the nearest partners leave a rematch), to show what the
offer of nearest partners saves.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judging.schedule import pairing
from judging.tests import backtracking

ROUNDS = 24


class Capped(Exception):
    pass


def backtracking_pairs(order, met, byes=None, points=None, firsts=None):
    """The pairing before issue 35 (``judging.tests.backtracking``)."""
    return backtracking.backtracking_pairs(order, met, byes)


def every_pair_offered(order, met, byes=None, points=None, firsts=None):
    """The matching with every pair offered from the start."""
    kept = pairing.PARTNERS
    pairing.PARTNERS = 10**9
    try:
        return pairing.swiss_pairs(order, met, byes, points=points, firsts=firsts)
    finally:
        pairing.PARTNERS = kept


def play(count: int, seed: int, pair: Callable, cap: float) -> tuple[list[float], int, bool]:
    """One field's 24 rounds: each round's pairing time (s), the rematches, whether a round
    hit the cap (the rounds after it are not played)."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(count), 0.0)
    met: set[frozenset[int]] = set()
    byes: Counter = Counter()
    firsts: Counter = Counter()
    times, rematches = [], 0
    for _ in range(ROUNDS):
        order = sorted(points, key=lambda p: (-points[p], p))
        signal.setitimer(signal.ITIMER_REAL, cap)
        started = time.perf_counter()
        try:
            pairs, bye = pair(order, met, byes, points=points, firsts=firsts)
        except Capped:
            return times, rematches, True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        times.append(time.perf_counter() - started)
        if bye is not None:
            byes[bye] += 1
            points[bye] += 4
        for a, b in pairs:
            rematches += frozenset((a, b)) in met
            met.add(frozenset((a, b)))
            for first, second in ((a, b), (b, a)):
                firsts[first] += 1
                firsts[second] -= 1
                outcome = rng.random()
                if outcome < 0.1:
                    points[first] += 1
                    points[second] += 1
                else:
                    points[first if outcome < 0.55 else second] += 2
    return times, rematches, False


def row(label: str, count: int, seeds: int, pair: Callable, cap: float) -> None:
    times, rematches, capped = [], 0, 0
    load = os.getloadavg()[0]
    for seed in range(seeds):
        found, again, stopped = play(count, seed, pair, cap)
        times += found
        rematches += again
        capped += stopped
    ms = [t * 1000 for t in times]
    over = sum(t > 1 for t in times)
    figures = f"{min(ms):.1f} / {statistics.median(ms):.1f} / {max(ms):.1f}" if ms else "-"
    stopped = f"{capped} of {seeds} seeds stopped at a round over {cap:g} s" if capped else "none"
    print(
        f"| {count} | {label} | {figures} | {len(ms)} | {over} | {rematches} | {stopped} | "
        f"{load:.1f} → {os.getloadavg()[0]:.1f} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--cap", type=float, default=5.0, help="seconds a round of the baseline may take")
    parser.add_argument("--sizes", default="16,30,40,56,70,128,1000")
    parser.add_argument("--baseline-sizes", default="16,30,40,56,70")
    parser.add_argument("--every-pair-sizes", default="128,1000")
    options = parser.parse_args()

    def stop(signum, frame):
        raise Capped

    signal.signal(signal.SIGALRM, stop)
    print(f"Swiss pairing, {ROUNDS} rounds of random results, {options.seeds} seeds, on {os.uname().nodename}\n")
    print(
        "| players | pairer | ms a round: min / median / max | rounds | rounds over 1 s | rematches | capped | load (1 min) |"
    )
    print("|---:|---|---:|---:|---:|---:|---|---|")
    for count in map(int, options.sizes.split(",")):
        if str(count) in options.baseline_sizes.split(","):
            row("baseline: the backtracking", count, options.seeds, backtracking_pairs, options.cap)
        row("matching", count, options.seeds, pairing.swiss_pairs, 600)
        if str(count) in options.every_pair_sizes.split(","):
            row("matching, every pair offered", count, 1, every_pair_offered, 600)


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
