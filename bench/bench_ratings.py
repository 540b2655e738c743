"""The ratings' arithmetic (judging/ratings.py) at a stage's size, as a markdown table of min /
median / max (no pass/fail).

    python bench/bench_ratings.py [--runs 5]

Games are drawn from known strengths and summed into the pair table the kept totals give
(games and points per pair): 200 entries and 40,000 games between any two, and a ladder of
1,000 entries and 500,000 games where each entry meets the 50 nearest it in strength. Timed:
the fit (strengths and covariance), 1,000 draws of it, the rank intervals and the settled
boundaries read from the draws. Baseline, in the same run: summing the games into the pair
table, the one step the kept totals already take off a read.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judging import ratings
from judging.ratings import Pair


def games_of(entries: int, games: int, neighbours: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """``games`` games between entries at most ``neighbours`` apart in strength (all of them when
    ``neighbours`` >= ``entries``): who played whom and what the first scored."""
    strengths = np.sort(rng.normal(0.0, 1.5, entries))[::-1]
    a = rng.integers(0, entries, games)
    b = (a + rng.integers(1, min(neighbours, entries - 1) + 1, games)) % entries
    chance = 1.0 / (1.0 + np.exp(-(strengths[a] - strengths[b])))
    return a, b, (rng.random(games) < chance).astype(float)


def pair_table(entries: int, a: np.ndarray, b: np.ndarray, scored: np.ndarray) -> list[Pair]:
    low, high = np.minimum(a, b), np.maximum(a, b)
    points = np.where(a < b, scored, 1.0 - scored)
    key = low * entries + high
    games = np.bincount(key, minlength=entries * entries)
    won = np.bincount(key, weights=points, minlength=entries * entries)
    played = np.flatnonzero(games)
    return [Pair(int(k // entries), int(k % entries), float(games[k]), float(won[k])) for k in played]


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    found = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        found.append((time.perf_counter() - started) * 1000)
    return found


def measure(label: str, entries: int, games: int, neighbours: int, runs: int, rng: np.random.Generator) -> None:
    a, b, scored = games_of(entries, games, neighbours, rng)
    pairs = pair_table(entries, a, b, scored)
    found = ratings.fit(entries, pairs)
    samples = ratings.draws(found)
    order = list(np.argsort(-found.strength, kind="stable"))
    steps: list[tuple[str, Callable[[], object]]] = [
        ("baseline: the games summed into the pair table", lambda: pair_table(entries, a, b, scored)),
        (f"the fit ({len(pairs):,} pairs)", lambda: ratings.fit(entries, pairs)),
        ("1,000 draws", lambda: ratings.draws(found)),
        ("the rank intervals", lambda: ratings.rank_intervals(samples)),
        ("the settled boundaries", lambda: ratings.settled(samples, order)),
    ]
    for step, fn in steps:
        values = timed(fn, runs)
        print(
            f"| {label} | {step} | {min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print(f"Ratings' arithmetic, {runs} runs each, on {os.uname().nodename}\n")
    print("| stage | step | ms: min / median / max |")
    print("|---|---|---:|")
    rng = np.random.default_rng(26)
    measure("200 entries, 40,000 games between any two", 200, 40_000, 200, runs, rng)
    measure("ladder, 1,000 entries, 500,000 games", 1_000, 500_000, 50, runs, rng)


if __name__ == "__main__":
    main()
