"""The ratings' figures stay those of the first version of the fit (issue 27's, commit 78b2e24)
now that it is faster (issue 35): the same strengths, spreads, rank intervals and settled
boundaries on fixed fields, within a tolerance far below what a page shows.

``data/ratings_reference.json`` was written by that commit's ``judging/record/ratings.py`` from the
fields ``cases()`` makes (``write_reference`` below, run there); a change of the arithmetic
that moves a figure fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from judging.record import ratings

REFERENCE = Path(__file__).parent / "data" / "ratings_reference.json"
SEED = 7  # the draws' seed


def _games(strengths: np.ndarray, a: np.ndarray, b: np.ndarray, rng: np.random.Generator) -> ratings.Table:
    """One game for each (a, b) drawn from the strengths, summed into the pair table (a < b)."""
    won = (rng.random(len(a)) < 1 / (1 + np.exp(-(strengths[a] - strengths[b])))).astype(float)
    low, high = np.minimum(a, b), np.maximum(a, b)
    points = np.where(a < b, won, 1 - won)
    n = len(strengths)
    key = low * n + high
    games, scored = np.bincount(key, minlength=n * n), np.bincount(key, points, n * n)
    kept = np.flatnonzero(games)
    return kept // n, kept % n, games[kept].astype(float), scored[kept]


def cases() -> list[dict]:
    """Fixed fields: a round robin with an unbeaten leader (a posterior far from normal), a
    ladder of the nearest in strength, a field where a third of the nodes are not shown (a
    continuous stage's old versions) and one above ``DENSE_MAX`` (patched to 50)."""
    rng = np.random.default_rng(35)
    made = []
    strengths = np.sort(rng.normal(0, 1, 30))[::-1].copy()
    a, b = np.triu_indices(30, 1)
    a, b = np.repeat(a, 4), np.repeat(b, 4)
    table = _games(strengths, a, b, rng)
    leader = table[0] == 0
    table = (table[0], table[1], table[2], np.where(leader, table[2], table[3]))  # entry 0 won every game
    made.append({"name": "round robin of 30, an unbeaten leader", "entries": 30, "table": table})
    strengths = np.sort(rng.normal(0, 1.5, 150))[::-1].copy()
    a = rng.integers(0, 150, 6000)
    b = (a + rng.integers(1, 9, 6000)) % 150
    made.append({"name": "ladder of 150, the 8 nearest", "entries": 150, "table": _games(strengths, a, b, rng)})
    strengths = rng.normal(0, 1, 90)
    a = rng.integers(0, 90, 3000)
    b = (a + rng.integers(1, 90, 3000)) % 90
    shown = sorted(rng.choice(90, 60, replace=False).tolist())
    made.append({"name": "90 nodes, 60 shown", "entries": 90, "table": _games(strengths, a, b, rng), "shown": shown})
    strengths = rng.normal(0, 1, 60)
    a, b = np.triu_indices(60, 1)
    a, b = np.repeat(a, 2), np.repeat(b, 2)
    made.append({"name": "60 above DENSE_MAX", "entries": 60, "table": _games(strengths, a, b, rng), "dense_max": 50})
    return made


def figures(case: dict, only_shown: bool = True) -> dict:
    """What a page shows of a case, computed by the current code (drawing every node's strength
    and keeping the shown ones, as the first version did, unless ``only_shown``)."""
    found = ratings.fit(case["entries"], case["table"])
    shown = case.get("shown", list(range(case["entries"])))
    samples = (
        ratings.draws(found, seed=SEED, columns=shown) if only_shown else ratings.draws(found, seed=SEED)[:, shown]
    )
    low, high = ratings.rank_intervals(samples)
    order = list(np.lexsort((np.arange(len(shown)), -found.strength[shown].round(6))))  # equal records: by index
    return {
        "strength": found.strength.tolist(),
        "sigma": found.sigma.tolist(),
        "rank_low": low.tolist(),
        "rank_high": high.tolist(),
        "settled": ratings.settled(samples, order).tolist(),
    }


@pytest.mark.parametrize("index", range(4))
def test_the_figures_are_the_first_fits(index, monkeypatch):
    case = cases()[index]
    want = json.loads(REFERENCE.read_text())[index]
    assert want["name"] == case["name"]
    if "dense_max" in case:
        monkeypatch.setattr(ratings, "DENSE_MAX", case["dense_max"])
    got = figures(case)
    assert np.allclose(got["strength"], want["strength"], rtol=0, atol=1e-7)
    assert np.allclose(got["sigma"], want["sigma"], rtol=1e-5, atol=0)
    # the draws are the same numbers to ~1e-6 of a sigma: an interval moves only if two draws
    # of two rows tie that closely, and a boundary's share by a draw or two in 1,000
    assert got["rank_low"] == want["rank_low"] and got["rank_high"] == want["rank_high"]
    assert np.allclose(got["settled"], want["settled"], rtol=0, atol=0.002)


def write_reference() -> None:
    """Run at commit 78b2e24 to write the reference (its ``draws`` has no ``columns``)."""
    out = []
    for case in cases():
        ratings.DENSE_MAX = case.get("dense_max", 2000)
        out.append({"name": case["name"], **figures(case, only_shown=False)})
    REFERENCE.write_text(json.dumps(out, indent=0) + "\n")
