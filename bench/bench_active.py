"""Games where they matter: how many games a continuous stage plays before its places that
matter are separated at 95%, when its games after the warm-up go where the platform's
scheduler sends them (``judging.schedule.steering.pairs_to_play``) or to pairs drawn uniformly (the
baseline, in the same run, on the same seeds). A markdown table (no pass/fail).

    python bench/bench_active.py [--runs 40]

Each run plants a strict order (strengths in logits, best first; or the demo's Chomp programs,
the perfect player careless on some moves, as each pair's shares of wins, draws and losses
measured from real matches played here first), plays the warm-up every
continuous stage plays (each pair twice), then batches of as many games as entries; after
each batch the platform's fit (``judging.record.ratings``), its 1,000 draws and the settled
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

from judging.record import confidence, ratings  # noqa: E402
from judging.record.ratings import Pair  # noqa: E402
from judging.schedule import steering  # noqa: E402

FIELDS = {
    "12 entries, gaps 0.2-0.4 logits, places 1, 2, 3": (
        [2.0, 1.6, 1.2, 0.9, 0.7, 0.5, 0.3, 0.1, -0.1, -0.3, -0.5, -0.7], [1, 2, 3], 40_000,
    ),
    "20 entries, gaps 0.2 logits, places 1, 2, 3": (list(np.linspace(2.0, -1.8, 20)), [1, 2, 3], 60_000),
    "the demo: strong, medium, two equal weak; places 1, 2": ([1.0, 0.5, 0.0, 0.0], [1, 2], 20_000),
}  # fmt: skip
LEVEL = 0.95


def chomp_outcomes(chances: list[float], matches: int, seed: int = 1) -> np.ndarray:
    """The real Chomp player (games/chomp/players/perfect.py), careless on a share of its moves,
    played in this process on the demo's 7 x 9 board: for each ordered pair, the shares of its
    matches (two games, each side first once) the first won, drew and lost."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "chomp" / "players"))
    import perfect

    rng = random.Random(seed)

    def move(widths, chance):
        perfect.nodes = 0
        careless = rng.random() >= chance and perfect.moves(widths)
        return rng.choice(perfect.moves(widths)) if careless else perfect.choose(widths)

    def game(first: float, second: float) -> int:  # the seat that won
        widths, turn = tuple([9] * 7), 0
        while True:
            r, c = move(widths, (first, second)[turn])
            if (r, c) == (0, 0):
                return 1 - turn
            widths, turn = perfect.chomp(widths, r, c), 1 - turn

    size = len(chances)
    outcomes = np.zeros((size, size, 3))
    for a in range(size):
        for b in range(a + 1, size):
            for _ in range(matches):
                won = (game(chances[a], chances[b]) == 0) + (game(chances[b], chances[a]) == 1)
                outcomes[a, b, 2 - won] += 1
            outcomes[a, b] /= matches
            outcomes[b, a] = outcomes[a, b][::-1]
    return outcomes


def run(strengths, cuts: list[int], cap: int, active: bool, seed: int) -> tuple[int, bool]:
    """Games played until every cut-off settled (or the cap), and whether the cut-offs were
    right. ``strengths``: logits, or (an array of size x size x 3) each ordered pair's shares of
    win, draw and loss."""
    size = len(strengths)
    rng = np.random.default_rng(seed)
    picker = random.Random(seed)
    games = np.zeros((size, size))
    won = np.zeros((size, size))  # won[a, b]: a's wins over b, a draw a half

    def play(pairs: list[tuple[int, int]]) -> None:
        for a, b in pairs:
            if isinstance(strengths, np.ndarray):
                scored = 1 - rng.choice(3, p=strengths[a, b]) / 2
            else:
                scored = float(rng.random() < 1 / (1 + np.exp(strengths[b] - strengths[a])))
            games[a, b] += 1
            games[b, a] += 1
            won[a, b] += scored
            won[b, a] += 1 - scored

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
            play(steering.pairs_to_play(found, open_cuts, size, picker))
        else:
            play([tuple(picker.sample(range(size), 2)) for _ in range(size)])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--chomp-matches", type=int, default=60, help="real Chomp matches a pair, to measure them")
    args = parser.parse_args()
    runs = args.runs
    print(f"Games to separate the places that matter at {LEVEL:.0%}, {runs} runs each way on the same seeds\n")
    print(
        "| field | uniform: games, median [quartiles] | scheduler | uniform / scheduler (95% CI) | wrong at stop: uniform / scheduler |"
    )
    print("|---|---:|---:|---:|---:|")
    fields = dict(FIELDS)
    for chances, cuts, said in (
        ([1.0, 0.7, 0.35, 0.35], [1, 2], "the demo's"),
        ([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0], [1, 2, 3], "eleven"),
    ):
        outcomes = chomp_outcomes(chances, args.chomp_matches)
        fields[
            f"Chomp programs perfect on {', '.join(f'{c:g}' for c in chances)} of their moves ({said}), "
            f"{args.chomp_matches} real matches a pair measured; places {', '.join(map(str, cuts))}"
        ] = (outcomes, cuts, 40_000)
    for label, (strengths, cuts, cap) in fields.items():
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
    from bench import common

    common.exit_on_signals()
    main()
