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
    """Per-grid-point quartiles, each of shape (len(DK_GRID),)."""

    q25: np.ndarray
    median: np.ndarray
    q75: np.ndarray


def _metrics(scores: np.ndarray, temperature: float, axis: int = -1) -> dict[str, np.ndarray]:
    p = softmax(scores, temperature, axis)
    return {"max_prob": max_probability(p, axis), "entropy": entropy(p, axis),
            "jacobian_norm": jacobian_norm(p, axis)}


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
        blocks = [_metric_rows(sample_query_scores(
            dk, int(min(trials, max(16, UNIFORM_BUDGET // (dk * (keys + 1))))), keys, rng,
            distribution, sigma), dk, temperature) for dk in dks]
        table = np.stack([np.percentile(b, (25, 50, 75), axis=1).T for b in blocks], axis=-1)
    else:
        scores = sample_query_scores_grid(dks, trials, keys, rng, distribution, sigma)
        rows = _metric_rows(scores, dks[:, None, None], temperature)
        table = np.moveaxis(np.percentile(rows, (25, 50, 75), axis=-1), 0, 1)
    return {key: Quartiles(*table[j]) for j, key in enumerate(keys_order)}


def _metric_rows(scores: np.ndarray, dk, temperature: float) -> np.ndarray:
    """Stack the metrics in `keys_order`: shape (6, *scores.shape[:-1])."""
    both = np.stack([scores, scores / np.sqrt(dk)])   # one pass over raw and scaled
    # Keys first: the per-query reductions then run across rows, not along short ones.
    values = _metrics(np.ascontiguousarray(np.moveaxis(both, -1, 0)), temperature, axis=0)
    return np.concatenate([values[m][:, None] for m in METRICS], axis=1).reshape(
        2 * len(METRICS), *scores.shape[:-1])
