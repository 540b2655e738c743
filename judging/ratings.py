"""Ratings with their uncertainty, from a stage's counted results (issue 27's core; not yet
read by the standings).

The model is Bradley–Terry: entry ``a`` beats ``b`` with probability 1 / (1 + e^-(s_a - s_b)),
``s`` a strength in logits (1 is 174 Elo points), a draw counting half a win. Each strength has
the population's prior N(0, tau²), so an unbeaten or a winless entry stays finite and one with
no game sits at the mean. The fit (maximum a posteriori, by Newton's method) reads only the
pair table, the games and points of each pair, so it is the same whatever the order the games
finished in, and a re-run or a cancelled game changes it by that game exactly.

The uncertainty is the Laplace approximation: the posterior as N(s, H⁻¹), H the curvature at
the fit. Ranks are read from draws of it: an entry's 95% rank interval is the 2.5th and 97.5th
percentiles of its rank over the draws (each row's own: a whole table is inside its intervals
less often), and a boundary between two places is settled when the rows above it are exactly
the top ones in 95% of the draws. Rows between settled boundaries are statistically tied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

TAU = 10.0  # the prior's spread: weaker priors shrink a long ladder's scale (docs: issue 27)
LEVEL = 0.95
DRAWS = 1000


@dataclass(frozen=True)
class Pair:
    """What entries ``a`` and ``b`` (indices) did against each other: ``games`` played, of
    which ``a`` scored ``points`` (a win 1, a draw 1/2)."""

    a: int
    b: int
    games: float
    points: float


DENSE_MAX = 2000  # entries; above, the curvature is not inverted (an n x n matrix, n³ to invert)


@dataclass(frozen=True)
class Fit:
    strength: np.ndarray  # logits, the population's mean 0
    covariance: np.ndarray | None  # None above DENSE_MAX entries: each strength's own variance only
    variance: np.ndarray

    @property
    def sigma(self) -> np.ndarray:
        return np.sqrt(self.variance)

    @property
    def approximate(self) -> bool:
        return self.covariance is None


def fit(entries: int, pairs: Sequence[Pair], tau: float = TAU, tolerance: float = 1e-9) -> Fit:
    """The strengths of ``entries`` entries from their pairs' results, with their covariance
    (above ``DENSE_MAX`` entries, each one's variance with the others held fixed: the Newton
    steps are solved by conjugate gradients on the sparse curvature, never inverted)."""
    if entries > DENSE_MAX:
        return _fit_sparse(entries, pairs, tau, tolerance)
    a = np.array([p.a for p in pairs], dtype=np.int64)
    b = np.array([p.b for p in pairs], dtype=np.int64)
    games = np.array([p.games for p in pairs], dtype=float)
    points = np.array([p.points for p in pairs], dtype=float)
    precision = 1.0 / tau**2

    def log_posterior(s: np.ndarray) -> float:
        margin = s[a] - s[b]
        return float(np.sum(points * margin - games * np.logaddexp(0.0, margin)) - precision * s @ s / 2)

    strength = np.zeros(entries)
    now = log_posterior(strength)
    for _ in range(100):
        expected = games / (1.0 + np.exp(-(strength[a] - strength[b])))
        gradient = _sums(entries, a, b, points - expected) - precision * strength
        curvature = _curvature(entries, a, b, expected * (1.0 - expected / np.maximum(games, 1e-300)), precision)
        step = np.linalg.solve(curvature, gradient)
        while True:  # concave: a Newton step rarely overshoots, and then half of it does not
            ahead = log_posterior(strength + step)
            if ahead >= now - 1e-12 or np.max(np.abs(step), initial=0.0) < tolerance:
                break
            step /= 2
        strength, now = strength + step, ahead
        if np.max(np.abs(step), initial=0.0) < tolerance:
            break
    expected = games / (1.0 + np.exp(-(strength[a] - strength[b])))
    curvature = _curvature(entries, a, b, expected * (1.0 - expected / np.maximum(games, 1e-300)), precision)
    covariance = np.linalg.inv(curvature)
    return Fit(strength, covariance, np.diag(covariance).copy())


def _arrays(pairs: Sequence[Pair]) -> tuple[np.ndarray, ...]:
    return (
        np.array([p.a for p in pairs], dtype=np.int64),
        np.array([p.b for p in pairs], dtype=np.int64),
        np.array([p.games for p in pairs], dtype=float),
        np.array([p.points for p in pairs], dtype=float),
    )


def _fit_sparse(entries: int, pairs: Sequence[Pair], tau: float, tolerance: float) -> Fit:
    a, b, games, points = _arrays(pairs)
    precision = 1.0 / tau**2

    def log_posterior(s: np.ndarray) -> float:
        margin = s[a] - s[b]
        return float(np.sum(points * margin - games * np.logaddexp(0.0, margin)) - precision * s @ s / 2)

    def weights(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        expected = games / (1.0 + np.exp(-(s[a] - s[b])))
        return expected, expected * (1.0 - expected / np.maximum(games, 1e-300))

    strength = np.zeros(entries)
    now = log_posterior(strength)
    for _ in range(100):
        expected, weight = weights(strength)
        gradient = _sums(entries, a, b, points - expected) - precision * strength
        diagonal = np.bincount(a, weight, entries) + np.bincount(b, weight, entries) + precision

        def times(v: np.ndarray, weight=weight, diagonal=diagonal) -> np.ndarray:
            return diagonal * v - np.bincount(a, weight * v[b], entries) - np.bincount(b, weight * v[a], entries)

        step = _conjugate_gradients(times, gradient, diagonal)
        while True:
            ahead = log_posterior(strength + step)
            if ahead >= now - 1e-12 or np.max(np.abs(step), initial=0.0) < tolerance:
                break
            step /= 2
        strength, now = strength + step, ahead
        if np.max(np.abs(step), initial=0.0) < tolerance:
            break
    _, weight = weights(strength)
    diagonal = np.bincount(a, weight, entries) + np.bincount(b, weight, entries) + precision
    return Fit(strength, None, 1.0 / diagonal)


def _conjugate_gradients(times, right: np.ndarray, diagonal: np.ndarray, iterations: int = 500) -> np.ndarray:
    """The solution x of A x = right, A symmetric positive definite given as ``times``
    (preconditioned by its diagonal)."""
    x = np.zeros_like(right)
    residual = right.copy()
    z = residual / diagonal
    direction = z.copy()
    rz = residual @ z
    limit = 1e-20 * max(right @ right, 1e-300)
    for _ in range(iterations):
        if residual @ residual <= limit:
            break
        moved = times(direction)
        length = rz / (direction @ moved)
        x += length * direction
        residual -= length * moved
        z = residual / diagonal
        rz, was = residual @ z, rz
        direction = z + (rz / was) * direction
    return x


def _sums(entries: int, a: np.ndarray, b: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each entry's sum of ``values``, counted for ``a`` and against ``b``."""
    return np.bincount(a, weights=values, minlength=entries) - np.bincount(b, weights=values, minlength=entries)


def _curvature(entries: int, a: np.ndarray, b: np.ndarray, weight: np.ndarray, precision: float) -> np.ndarray:
    """Minus the log posterior's second derivatives: the pairs' weighted graph Laplacian and
    the prior's precision on the diagonal."""
    h = np.zeros((entries, entries))
    np.add.at(h, (a, b), -weight)
    np.add.at(h, (b, a), -weight)
    h[np.diag_indices(entries)] = np.bincount(a, weights=weight, minlength=entries)
    h[np.diag_indices(entries)] += np.bincount(b, weights=weight, minlength=entries) + precision
    return h


def draws(found: Fit, count: int = DRAWS, seed: int = 0) -> np.ndarray:
    """``count`` draws of every strength at once from N(strength, covariance), seeded: the same
    results give the same intervals on every page."""
    noise = np.random.default_rng(seed).standard_normal((count, len(found.strength)))
    if found.covariance is None:  # each strength on its own
        return found.strength + noise * found.sigma
    root = np.linalg.cholesky(found.covariance)
    return found.strength + noise @ root.T


def ranks(samples: np.ndarray) -> np.ndarray:
    """Each draw's ranks (1 the strongest), row by row."""
    order = np.argsort(-samples, axis=1, kind="stable")
    placed = np.empty_like(order)
    np.put_along_axis(placed, order, np.arange(1, samples.shape[1] + 1)[None, :], axis=1)
    return placed


def rank_intervals(samples: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's interval of ranks holding it in ``level`` of the draws (its own row's)."""
    placed = ranks(samples)
    tail = (1.0 - level) / 2
    low = np.quantile(placed, tail, axis=0, method="inverted_cdf")
    high = np.quantile(placed, 1.0 - tail, axis=0, method="inverted_cdf")
    return low.astype(int), high.astype(int)


def settled(samples: np.ndarray, order: Sequence[int]) -> np.ndarray:
    """For the table shown in ``order`` (entries, first place first): at each boundary below
    place r (r = 1 .. n-1), the share of draws whose top r are exactly the first r shown."""
    entries = samples.shape[1]
    shown = np.empty(entries, dtype=np.int64)
    shown[np.asarray(order)] = np.arange(entries)
    drawn = np.argsort(-samples, axis=1, kind="stable")
    lowest = np.maximum.accumulate(shown[drawn], axis=1)  # the lowest place shown among a draw's top r
    return (lowest == np.arange(entries)[None, :])[:, :-1].mean(axis=0)


def tied_groups(shares: np.ndarray, level: float = LEVEL) -> list[int]:
    """A group number for each place shown: a new group starts below each settled boundary."""
    groups = [0]
    for share in shares:
        groups.append(groups[-1] + int(share >= level))
    return groups
