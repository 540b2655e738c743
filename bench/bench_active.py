"""Games where they matter: how many games a continuous stage plays before its places that
matter are separated at 95%, when its games after the warm-up go where the platform's
scheduler sends them (``judging.confidence.pairs_to_play``) or to pairs drawn uniformly (the
baseline, in the same run, on the same seeds). A markdown table (no pass/fail).

    python bench/bench_active.py [--runs 40]

Each run plants a strict order (strengths in logits, best first), plays the warm-up every
continuous stage plays (each pair twice), then batches of as many games as entries; after
each batch the platform's fit (``judging.ratings``), its 1,000 draws and the settled
boundaries decide, as in a stage: stop once every cut-off is settled (or at the cap), else
the next batch. Reported: the games each way took to stop (median and quartiles), the ratio
of the medians with a bootstrap 95% interval, and how often a cut-off was wrong at the stop.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

import django

django.setup()

import random  # noqa: E402

from judging import confidence, ratings  # noqa: E402
from judging.ratings import Pair  # noqa: E402

FIELDS = {
    "12 entries, gaps 0.2-0.4 logits, places 1, 2, 3": (
        [2.0, 1.6, 1.2, 0.9, 0.7, 0.5, 0.3, 0.1, -0.1, -0.3, -0.5, -0.7], [1, 2, 3], 40_000,
    ),
    "20 entries, gaps 0.2 logits, places 1, 2, 3": (list(np.linspace(2.0, -1.8, 20)), [1, 2, 3], 60_000),
    "the demo: strong, medium, two equal weak; places 1, 2": ([1.0, 0.5, 0.0, 0.0], [1, 2], 20_000),
}  # fmt: skip
LEVEL = 0.95


def run(strengths: list[float], cuts: list[int], cap: int, active: bool, seed: int) -> tuple[int, bool]:
    """Games played until every cut-off settled (or the cap), and whether the cut-offs were right."""
    size = len(strengths)
    rng = np.random.default_rng(seed)
    picker = random.Random(seed)
    games = np.zeros((size, size))
    won = np.zeros((size, size))  # won[a, b]: a's wins over b

    def play(pairs: list[tuple[int, int]]) -> None:
        for a, b in pairs:
            a_wins = rng.random() < 1 / (1 + np.exp(strengths[b] - strengths[a]))
            games[a, b] += 1
            games[b, a] += 1
            won[a, b] += a_wins
            won[b, a] += not a_wins

    play([(a, b) for a in range(size) for b in range(a + 1, size)] * 2)
    while True:
        pairs = [Pair(a, b, games[a, b], won[a, b]) for a in range(size) for b in range(a + 1, size) if games[a, b]]
        fit = ratings.fit(size, pairs)
        centre, sigma = confidence._centred(fit, games.sum(axis=1))
        order = sorted(range(size), key=lambda i: -(centre[i] - 2 * sigma[i]))
        samples = ratings.draws(fit, seed=int(games.sum()))
        shares = list(ratings.settled(samples, order))
        found = confidence.Fitted(None, order, samples[:, order], shares)
        open_cuts = [c for c in cuts if shares[c - 1] < LEVEL]
        played = int(games.sum() // 2)
        if not open_cuts or played >= cap:
            return played, all(set(order[:c]) == set(range(c)) for c in cuts)
        if active:
            play(confidence.pairs_to_play(found, open_cuts, size, picker))
        else:
            play([tuple(picker.sample(range(size), 2)) for _ in range(size)])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    print(f"Games to separate the places that matter at {LEVEL:.0%}, {runs} runs each way on the same seeds\n")
    print(
        "| field | uniform: games, median [quartiles] | scheduler | uniform / scheduler (95% CI) | wrong at stop: uniform / scheduler |"
    )
    print("|---|---:|---:|---:|---:|")
    for label, (strengths, cuts, cap) in FIELDS.items():
        found = {
            way: [run(strengths, cuts, cap, way == "active", seed) for seed in range(runs)]
            for way in ("uniform", "active")
        }
        games = {way: np.array([g for g, _ in found[way]], dtype=float) for way in found}
        wrong = {way: 1 - np.mean([ok for _, ok in found[way]]) for way in found}
        boot = np.random.default_rng(0)
        ratios = [
            np.median(boot.choice(games["uniform"], runs)) / np.median(boot.choice(games["active"], runs))
            for _ in range(2000)
        ]

        def said(g: np.ndarray) -> str:
            return f"{np.median(g):,.0f} [{np.percentile(g, 25):,.0f}–{np.percentile(g, 75):,.0f}]"

        ratio = np.median(games["uniform"]) / np.median(games["active"])
        print(
            f"| {label} | {said(games['uniform'])} | {said(games['active'])} | {ratio:.2f} "
            f"({np.percentile(ratios, 2.5):.2f}–{np.percentile(ratios, 97.5):.2f}) | "
            f"{wrong['uniform']:.3f} / {wrong['active']:.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
