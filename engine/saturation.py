"""How softmax saturates as d_k grows, with and without ÷√d_k.

For each d_k on a log grid, `trials` queries are scored against n keys
(scores q·k_j, see `dot_product.sample_query_scores`), passed through softmax
with temperature T, and summarised by max-probability, entropy (nats) and the
Frobenius norm of the softmax Jacobian. Median and quartiles are reported.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dot_product import sample_query_scores, sample_query_scores_grid
from .softmax import entropy, jacobian_norm, max_probability, softmax

#: d_k = 1, 2, 4, …, 16 384 (4096 = 2¹² is on the grid).
DK_GRID = tuple(2**i for i in range(15))
METRICS = ("max_prob", "entropy", "jacobian_norm")
#: Most components drawn per grid point for the uniform law (explicit vectors).
UNIFORM_BUDGET = 2**18


@dataclass(frozen=True)
class Quartiles:
    """Per-grid-point quartiles, each of shape (len(DK_GRID),), and a distribution-free
    95 % confidence interval [median_lo, median_hi] of the median (order statistics,
    see `median_ci_ranks`): what a quoted median is known to."""

    q25: np.ndarray
    median: np.ndarray
    q75: np.ndarray
    median_lo: np.ndarray
    median_hi: np.ndarray


def median_ci_ranks(n: int) -> tuple[int, int]:
    """0-based ranks (j, k = n − 1 − j) of the narrowest symmetric pair of order statistics
    X_(j) ≤ median ≤ X_(k) that covers the population median with probability ≥ 95 % for
    n i.i.d. samples of a continuous law: P(j < B ≤ k) with B ~ Binomial(n, ½) counting the
    samples below the median (about n/2 ∓ 1.96·√n/2). n = 128 gives ranks 52 and 75."""
    from .dot_product import binomial_half_pmf

    cdf = np.cumsum(binomial_half_pmf(n))
    j = (n - 1) // 2
    while j > 0 and cdf[n - 1 - j] - cdf[j] < 0.95:   # X_(j) ≤ m ≤ X_(k) ⇔ j < B ≤ k
        j -= 1
    return j, n - 1 - j


def _percentile_levels(n: int) -> tuple[float, ...]:
    """25, 50, 75 and the median's confidence ranks as percentiles (exact order statistics
    under numpy's linear interpolation: rank r is percentile 100·r/(n − 1))."""
    j, k = median_ci_ranks(n)
    return (25.0, 50.0, 75.0, 100.0 * j / max(n - 1, 1), 100.0 * k / max(n - 1, 1))


def _metrics(scores: np.ndarray, temperature: float, axis: int = -1) -> dict[str, np.ndarray]:
    p = softmax(scores, temperature, axis)
    return {"max_prob": max_probability(p, axis), "entropy": entropy(p, axis),
            "jacobian_norm": jacobian_norm(p, axis)}


def trial_counts(distribution: str, keys: int, trials: int, grid=DK_GRID) -> np.ndarray:
    """Queries actually scored at each d_k of `grid`: `trials`, except for the uniform law,
    whose explicit vectors are limited to about UNIFORM_BUDGET components per grid point:
    min(trials, max(16, UNIFORM_BUDGET // (d_k·(keys + 1))))."""
    dks = np.asarray(grid)
    if distribution != "uniform":
        return np.full(dks.shape, trials)
    return np.minimum(trials, np.maximum(16, UNIFORM_BUDGET // (dks * (keys + 1))))


def saturation_study(keys: int, rng: np.random.Generator, temperature: float = 1.0,
                     distribution: str = "normal", sigma: float = 1.0, trials: int = 256,
                     grid=DK_GRID) -> dict[tuple[str, bool], Quartiles]:
    """Quartiles of each metric over `trials` queries at every d_k in `grid`.

    Returns {(metric, scaled): Quartiles}; scaled=True divides the scores by
    √d_k before softmax. Both variants use the same sampled scores. For the
    uniform law at large d_k the trial count is lowered (to no fewer than 16)
    so that a grid point draws about UNIFORM_BUDGET components.
    """
    keys_order = [(m, s) for s in (False, True) for m in METRICS]
    dks = np.asarray(grid)
    if distribution == "uniform":
        counts = trial_counts(distribution, keys, trials, grid)
        blocks = [_metric_rows(sample_query_scores(int(dk), int(m), keys, rng, distribution, sigma),
                               dk, temperature) for dk, m in zip(dks, counts)]
        table = np.stack([np.percentile(b, _percentile_levels(b.shape[1]), axis=1).T
                          for b in blocks], axis=-1)
    else:
        scores = sample_query_scores_grid(dks, trials, keys, rng, distribution, sigma)
        rows = _metric_rows(scores, dks[:, None, None], temperature)
        table = np.moveaxis(np.percentile(rows, _percentile_levels(trials), axis=-1), 0, 1)
    return {key: Quartiles(*table[j]) for j, key in enumerate(keys_order)}


def _metric_rows(scores: np.ndarray, dk, temperature: float) -> np.ndarray:
    """Stack the metrics in `keys_order`: shape (6, *scores.shape[:-1])."""
    both = np.stack([scores, scores / np.sqrt(dk)])   # one pass over raw and scaled
    # Keys first: the per-query reductions then run across rows, not along short ones.
    values = _metrics(np.ascontiguousarray(np.moveaxis(both, -1, 0)), temperature, axis=0)
    return np.concatenate([values[m][:, None] for m in METRICS], axis=1).reshape(
        2 * len(METRICS), *scores.shape[:-1])
