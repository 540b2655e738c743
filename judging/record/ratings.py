"""Ratings with their uncertainty, from a stage's counted results (issue 27's core, made fast
at 1,000 entries in issue 35; ``judging.record.confidence`` stores them for the standings).

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

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

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
NEAR = 5e-3  # a Newton step this small does not overshoot, and the next is about a fifth of its square
REFRESH = 1e-5  # the covariance is the inverse curvature at strengths this close to the fit's (2e-5 of a weight)


@dataclass(frozen=True)
class Fit:
    strength: np.ndarray  # logits, the population's mean 0
    factor: np.ndarray | None  # lower triangular, factor @ factor.T the covariance; None above DENSE_MAX entries
    variance: np.ndarray  # each strength's (above DENSE_MAX, with the others held fixed)
    table: tuple[np.ndarray, ...] = ()  # the pairs fitted (a, b, games, points) and the prior's precision

    @property
    def sigma(self) -> np.ndarray:
        return np.sqrt(self.variance)

    @property
    def approximate(self) -> bool:
        return self.factor is None

    @cached_property
    def covariance(self) -> np.ndarray | None:
        return None if self.factor is None else self.factor @ self.factor.T

    def variance_about(self, w: np.ndarray) -> np.ndarray:
        """Each strength's variance about the field's mean weighted by ``w`` (summing to 1)."""
        if self.factor is None:  # a very large field: the mean is known well
            return self.variance
        moved_by = self.factor @ (self.factor.T @ w)
        return self.variance - 2 * moved_by + w @ moved_by


Table = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # a, b, games, a's points: a Pair a row


def fit(
    entries: int,
    pairs: Sequence[Pair] | Table,
    tau: float = TAU,
    tolerance: float = 1e-9,
    start: np.ndarray | None = None,
) -> Fit:
    """The strengths of ``entries`` entries from their pairs' results (``Pair`` rows, or the
    four columns as arrays), with their covariance (above ``DENSE_MAX`` entries, each one's
    variance with the others held fixed: the Newton steps are solved by conjugate gradients on
    the sparse curvature, never inverted). ``start``: strengths to start from (the last fit's;
    NaN where unknown), which only saves steps: the fit is the same from anywhere.

    Newton's method: each step solved with the curvature while they are large; once one is below
    ``NEAR`` (the next about its square), the covariance's Cholesky factor is made where it
    ends (``_inverse_factor``: no inverse, no n³ more than a solve) and takes the next steps
    (each a product, shrinking as fast as the factor is near the top's), made again where they
    stop halving, and once more at the top if they moved the strengths more than ``REFRESH``
    since. The first version solved every step and inverted the curvature at the end (two n³
    more)."""
    a, b, games, points = _arrays(pairs)
    precision = 1.0 / tau**2
    dense = entries <= DENSE_MAX

    def log_posterior(s: np.ndarray) -> float:
        margin = s[a] - s[b]
        return float(np.sum(points * margin - games * np.logaddexp(0.0, margin)) - precision * s @ s / 2)

    def weights(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each pair's expected points and its curvature weight."""
        expected = games / (1.0 + np.exp(-(s[a] - s[b])))
        return expected, expected * (1.0 - expected / np.maximum(games, 1e-300))

    def diagonal(weight: np.ndarray) -> np.ndarray:
        return np.bincount(a, weight, entries) + np.bincount(b, weight, entries) + precision

    def sparse_solve(weight: np.ndarray, gradient: np.ndarray) -> np.ndarray:
        own = diagonal(weight)

        def times(v: np.ndarray) -> np.ndarray:
            return own * v - np.bincount(a, weight * v[b], entries) - np.bincount(b, weight * v[a], entries)

        return _conjugate_gradients(times, gradient, own)

    strength = np.zeros(entries) if start is None else np.array(start, dtype=float)
    unknown = np.isnan(strength)
    strength[unknown] = 0.0
    if start is not None and unknown.any():  # each from its own games, the others held: a step or two
        _guess(strength, unknown, a, b, games, points, precision)
    now = None  # the log posterior at ``strength``, when a step needed it
    factor, at, taken = None, strength, 0  # the covariance's factor, where it was made, the steps it took
    last = math.inf  # the last step's largest move
    slow = False
    for _ in range(100):
        expected, weight = weights(strength)
        gradient = _sums(entries, a, b, points - expected) - precision * strength
        if not dense:
            step = sparse_solve(weight, gradient)
        elif factor is None and last >= NEAR:  # far from the top: a solve, a third cheaper than a factor
            step = np.linalg.solve(_curvature(entries, a, b, weight, precision), gradient)
        else:
            if factor is None or slow:
                factor, at, taken = _inverse_factor(_curvature(entries, a, b, weight, precision)), strength, 0
            step = factor @ (factor.T @ gradient)
            taken += 1
        size = float(np.max(np.abs(step), initial=0.0))
        slow = taken > 1 and size > last / 2  # made elsewhere, the factor no longer halves the steps
        if size >= NEAR:  # concave: a Newton step rarely overshoots, and then half of it does not
            now = log_posterior(strength) if now is None else now
            while True:
                ahead = log_posterior(strength + step)
                if ahead >= now - 1e-12 or size < tolerance:
                    break
                step, size = step / 2, size / 2
            now = ahead
        else:
            now = None
        strength, last = strength + step, size
        if size < tolerance:
            break
    _, weight = weights(strength)
    table = (a, b, games, points, np.array(precision))
    if not dense:
        return Fit(strength, None, 1.0 / diagonal(weight), table)
    if factor is None or _moved(strength, at) > REFRESH:
        factor = _inverse_factor(_curvature(entries, a, b, weight, precision))
    return Fit(strength, factor, np.einsum("ij,ij->i", factor, factor), table)


def _guess(
    strength: np.ndarray,
    unknown: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    games: np.ndarray,
    points: np.ndarray,
    precision: float,
) -> None:
    """Set the ``unknown`` strengths (0 so far) from their own games, the others held: two
    Newton steps of each alone (at most a logit each), on the pairs they are in."""
    touched = unknown[a] | unknown[b]
    a, b, games, points = a[touched], b[touched], games[touched], points[touched]
    entries = len(strength)
    for _ in range(2):
        expected = games / (1.0 + np.exp(-(strength[a] - strength[b])))
        weight = expected * (1.0 - expected / np.maximum(games, 1e-300))
        slope = _sums(entries, a, b, points - expected) - precision * strength
        own = np.bincount(a, weight, entries) + np.bincount(b, weight, entries) + precision
        strength[unknown] += np.clip(slope[unknown] / own[unknown], -1.0, 1.0)


def _moved(strength: np.ndarray, since: np.ndarray) -> float:
    return float(np.max(np.abs(strength - since), initial=0.0))


def _inverse_factor(curvature: np.ndarray) -> np.ndarray:
    """The lower triangular F with F Fᵀ the inverse of ``curvature``: the Cholesky factor of the
    covariance, made without the covariance. With J the reversal of the order and R the
    Cholesky factor of J H J, H⁻¹ = (J R⁻ᵀ J)(J R⁻ᵀ J)ᵀ, and J R⁻ᵀ J is lower triangular with
    a positive diagonal: the factor, which is unique."""
    r = np.linalg.cholesky(curvature[::-1, ::-1])
    return np.ascontiguousarray(_lower_inverse(r).T[::-1, ::-1])


def _lower_inverse(t: np.ndarray) -> np.ndarray:
    """The inverse of a lower triangular matrix, by halves ([[A, 0], [B, D]]⁻¹ is
    [[A⁻¹, 0], [-D⁻¹ B A⁻¹, D⁻¹]]): matrix products, about n³/2 (numpy has no triangular
    inverse; its general one is 2 n³)."""
    n = len(t)
    if n <= 64:
        return np.tril(np.linalg.inv(t))
    half = n // 2
    top, bottom = _lower_inverse(t[:half, :half]), _lower_inverse(t[half:, half:])
    out = np.zeros_like(t)
    out[:half, :half] = top
    out[half:, half:] = bottom
    out[half:, :half] = -bottom @ (t[half:, :half] @ top)
    return out


def _arrays(pairs: Sequence[Pair] | Table) -> Table:
    if isinstance(pairs, tuple) and len(pairs) == 4 and isinstance(pairs[0], np.ndarray):
        a, b, games, points = pairs
        return a.astype(np.int64), b.astype(np.int64), games.astype(float), points.astype(float)
    return (
        np.array([p.a for p in pairs], dtype=np.int64),
        np.array([p.b for p in pairs], dtype=np.int64),
        np.array([p.games for p in pairs], dtype=float),
        np.array([p.points for p in pairs], dtype=float),
    )


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
    between = np.bincount(a * entries + b, weight, entries * entries).reshape(entries, entries)
    h = (between + between.T).astype(float)  # no pair: bincount's zeros are integers
    np.negative(h, out=h)
    h[np.diag_indices(entries)] = np.bincount(a, weights=weight, minlength=entries)
    h[np.diag_indices(entries)] += np.bincount(b, weights=weight, minlength=entries) + precision
    return h


def draws(found: Fit, count: int = DRAWS, seed: int = 0, columns: Sequence[int] | None = None) -> np.ndarray:
    """``count`` draws of the strengths of ``columns`` (every node's if None) at once, a column
    each, seeded (the same results give the same intervals on every page): from N(strength,
    covariance), each strength's draws then moved to the shape of its own posterior
    (``_reshaped``). A column is the same whichever others are asked: the noise is drawn for
    every node, only the columns asked are made of it."""
    entries = len(found.strength)
    chosen = np.arange(entries) if columns is None else np.asarray(columns, dtype=np.int64)
    noise = np.random.default_rng(seed).standard_normal((count, entries))
    if found.factor is None:  # each strength on its own
        samples = found.strength[chosen] + noise[:, chosen] * found.sigma[chosen]
    else:
        samples = found.strength[chosen] + noise @ found.factor[chosen].T
    return _reshaped(found, samples, chosen, noise) if found.table else samples


GRID = np.linspace(-8.0, 8.0, 161)  # a strength's posterior is read at these sigmas from the fit
PROBE = np.array([-3.0, -1.5, 0.0, 1.5, 3.0])  # first, to tell the normal ones
SKEWED = 0.5  # log units off the normal at a probe: read on the whole grid
CHUNK = 20_000  # pairs read at once over the grid (memory: CHUNK x 161 floats, a few times)
THIRD = 1 / (6 * math.sqrt(3))  # the largest |p (1 - p) (1 - 2p)|: a game's third derivative


def _reshaped(found: Fit, samples: np.ndarray, chosen: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """The draws (of the ``chosen`` nodes, made of ``noise``) with each strength's normal shape
    replaced by its posterior's own (the others held at the fit), keeping the draws'
    correlations (a Gaussian copula).

    The normal approximation is poor where the games are one-sided: an entry that won every
    game has a posterior that falls off steeply below it and hardly at all above, and a normal
    of the same curvature puts it below its beaten opponents in a few draws in a hundred: the
    unbeaten leader of a field would show "1–5". Each strength, less the draw's mean of the
    field (the common level, which the weak prior leaves loose and no rank depends on), is
    moved from its normal quantile to the same quantile of its own posterior, read on a grid
    and stretched to its spread about the field's mean."""
    a, b, games, points, precision = found.table
    entries = len(found.strength)
    played_games = np.bincount(a, games, entries) + np.bincount(b, games, entries)
    played = played_games > 0
    if not played.any():
        return samples
    w = played / played.sum()
    spread = np.sqrt(np.maximum(found.variance_about(w), 1e-300))
    own, slope = _own_sigma(found)
    # Most posteriors are normal to half a log unit within three sigmas: only the others are
    # read on the whole grid and moved. Off the normal at t sigmas is at most |slope| t + t³/6
    # the largest third derivative (Taylor), which a strength's games bound: the ones whose
    # bound is well below half a unit (most with some dozens of games) need no probe.
    t = np.abs(PROBE).max()
    bound = own * np.abs(slope) * t + t**3 / 6 * THIRD * own**3 * played_games
    probed = chosen[bound[chosen] > SKEWED / 2]
    probe = _log_density(found, own, probed, PROBE)
    off = np.abs(probe - probe[:, [PROBE.tolist().index(0.0)]] + PROBE**2 / 2).max(axis=1)
    skewed = probed[off > SKEWED]
    if not len(skewed):
        return samples
    log_density = _log_density(found, own, skewed, GRID)
    density = np.exp(log_density - log_density.max(axis=1, keepdims=True))
    steps = (density[:, 1:] + density[:, :-1]) / 2
    cumulative = np.concatenate([np.zeros((len(skewed), 1)), np.cumsum(steps, axis=1)], axis=1)
    cumulative /= cumulative[:, -1:]
    # each draw's mean of the field, of every node's draw (the columns not made included)
    level = found.strength @ w + noise @ (found.sigma * w if found.factor is None else found.factor.T @ w)
    centre = found.strength - found.strength @ w
    column = {int(i): n for n, i in enumerate(chosen)}
    moved = samples.copy()
    for row, i in enumerate(skewed):
        n = column[int(i)]
        quantile = _normal_cdf((samples[:, n] - level - centre[i]) / spread[i])
        moved[:, n] = level + centre[i] + spread[i] * np.interp(quantile, cumulative[row], GRID)
    return moved


def _log_density(found: Fit, own: np.ndarray, chosen: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The log posterior of each ``chosen`` strength at ``grid`` of its own sigmas from the fit,
    the others held at the fit (up to a constant): a row each."""
    if not len(chosen):
        return np.zeros((0, len(grid)))
    a, b, games, points, precision = found.table
    row_of = np.full(len(found.strength), -1)
    row_of[chosen] = np.arange(len(chosen))
    found_at = found.strength[chosen][:, None] + own[chosen][:, None] * grid
    log_density = -0.5 * float(precision) * found_at**2
    me, other = np.concatenate([a, b]), np.concatenate([b, a])
    scored, played = np.concatenate([points, games - points]), np.concatenate([games, games])
    keep = row_of[me] >= 0
    me, other, scored, played = me[keep], other[keep], scored[keep], played[keep]
    order = np.argsort(me, kind="stable")  # grouped by the side whose density it adds to
    me, other, scored, played = me[order], other[order], scored[order], played[order]
    starts = np.flatnonzero(np.r_[True, me[1:] != me[:-1]]) if len(me) else np.array([], dtype=int)
    bounds = [*starts[:: max(1, len(starts) * CHUNK // max(len(me), 1))], len(me)] if len(me) else [0]
    for begin, end in zip(bounds[:-1], bounds[1:], strict=True):
        part = slice(begin, end)
        margin = (found.strength[me[part]] - found.strength[other[part]])[:, None] + own[me[part]][:, None] * grid
        gained = scored[part, None] * margin - played[part, None] * np.logaddexp(0.0, margin)
        firsts = starts[(starts >= begin) & (starts < end)]
        log_density[row_of[me[firsts]]] += np.add.reduceat(gained, firsts - begin, axis=0)
    return log_density


def _normal_cdf(z: np.ndarray) -> np.ndarray:
    """Φ(z), to 1.5e-7 (Abramowitz and Stegun, 7.1.26), without scipy."""
    x = np.abs(z) / math.sqrt(2)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = 1.0 - poly * np.exp(-x * x)
    return 0.5 * (1.0 + np.sign(z) * erf)


def _own_sigma(found: Fit) -> tuple[np.ndarray, np.ndarray]:
    """Each strength's spread with the others held at the fit (the curvature's own term), and
    the log posterior's slope there (0 but for the fit's tolerance)."""
    a, b, games, points, precision = found.table
    entries = len(found.strength)
    expected = games / (1.0 + np.exp(-(found.strength[a] - found.strength[b])))
    weight = expected * (1.0 - expected / np.maximum(games, 1e-300))
    diagonal = np.bincount(a, weight, entries) + np.bincount(b, weight, entries) + float(precision)
    slope = _sums(entries, a, b, points - expected) - float(precision) * found.strength
    return 1.0 / np.sqrt(diagonal), slope


def strongest_first(samples: np.ndarray) -> np.ndarray:
    """Each draw's columns, the strongest first (what ranks and settled boundaries read: pass it
    to both to sort once). Ties have probability 0 in continuous draws."""
    return np.argsort(-samples, axis=1)


def ranks(samples: np.ndarray, drawn: np.ndarray | None = None) -> np.ndarray:
    """Each draw's ranks (1 the strongest), row by row."""
    order = strongest_first(samples) if drawn is None else drawn
    placed = np.empty_like(order)
    np.put_along_axis(placed, order, np.arange(1, samples.shape[1] + 1)[None, :], axis=1)
    return placed


def rank_intervals(
    samples: np.ndarray, level: float = LEVEL, drawn: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's interval of ranks holding it in ``level`` of the draws (its own row's):
    the order statistics ``np.quantile``'s inverted CDF picks, found by partitioning."""
    placed = ranks(samples, drawn)
    tail = (1.0 - level) / 2
    count = len(placed)
    low, high = (int(np.quantile(np.arange(count), q, method="inverted_cdf")) for q in (tail, 1.0 - tail))
    parted = np.partition(placed, [low, high], axis=0)
    return parted[low].astype(int), parted[high].astype(int)


def settled(samples: np.ndarray, order: Sequence[int], drawn: np.ndarray | None = None) -> np.ndarray:
    """For the table shown in ``order`` (entries, first place first): at each boundary below
    place r (r = 1 .. n-1), the share of draws whose top r are exactly the first r shown."""
    entries = samples.shape[1]
    shown = np.empty(entries, dtype=np.int64)
    shown[np.asarray(order)] = np.arange(entries)
    drawn = strongest_first(samples) if drawn is None else drawn
    lowest = np.maximum.accumulate(shown[drawn], axis=1)  # the lowest place shown among a draw's top r
    return (lowest == np.arange(entries)[None, :])[:, :-1].mean(axis=0)


def tied_groups(shares: np.ndarray, level: float = LEVEL) -> list[int]:
    """A group number for each place shown: a new group starts below each settled boundary."""
    groups = [0]
    for share in shares:
        groups.append(groups[-1] + int(share >= level))
    return groups
