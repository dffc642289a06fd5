"""Per-head variance of attention scores: within each query's row, and pooled.

For one head, raw scores S (n, n) (S[i, j] = q_i·k_j) and the mask `allowed` (n, n) bool
(all True in an encoder, j ≤ i in a decoder); K_i = {j : allowed[i, j]}, n_i = |K_i|:

    row mean      m_i = (1/n_i) Σ_{j∈K_i} S[i, j]
    row variance  v_i = (1/n_i) Σ_{j∈K_i} (S[i, j] − m_i)²          (population variance)
    within_row    W = mean of v_i over the rows R = {i : n_i ≥ 2}
    pooled        P = Var{S[i, j] : allowed[i, j]}                    (population variance)

Softmax ignores a constant added to a row, so W is the spread softmax actually sees; P also
counts how the row means m_i differ. By the law of total variance, with N = Σ n_i,

    P = Σ_i (n_i/N) v_i + Σ_i (n_i/N) (m_i − m̄)²,   m̄ = Σ_i (n_i/N) m_i,

so in an encoder (every n_i = n) P = W + Var_i(m_i): adding an offset c_i to row i leaves W
unchanged and moves P to W + Var_i(m_i + c_i). A decoder's first row holds one key (its
weight is 1 whatever the score): it has no spread and is left out of W (R), but its one
pair is in P, as in the per-layer figure. The scaled scores S/√d_k have W/d_k and P/d_k.

    head_score_variance(raw (h, n, n), allowed (n, n)) -> (within (h,), pooled (h,))
    per_head_summary(values (L, h), reference=1.0) -> PerHeadSummary   median per layer,
        the extremes, how many heads lie below `reference`
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def head_score_variance(raw: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(within_row (h,), pooled (h,)) of scores raw (h, n, n) over the pairs `allowed` (n, n),
    in float64 (module docstring). Rows with fewer than two allowed keys are left out of
    within_row; with no such row at all (one token) within_row is 0."""
    s = np.asarray(raw, dtype=np.float64)
    allowed = np.asarray(allowed, dtype=bool)
    pooled = s[:, allowed].var(axis=1)
    counts = allowed.sum(axis=1)                               # (n,) n_i
    rows = counts >= 2
    if not rows.any():
        return np.zeros(s.shape[0]), pooled
    masked = np.where(allowed, s, 0.0)
    means = masked.sum(axis=2) / np.maximum(counts, 1)         # (h, n) m_i
    centred = np.where(allowed, s - means[:, :, None], 0.0)
    row_var = (centred * centred).sum(axis=2) / np.maximum(counts, 1)   # (h, n) v_i
    return row_var[:, rows].mean(axis=1), pooled


@dataclass(frozen=True)
class PerHeadSummary:
    """The distribution of one value per head, values (L, h): medians (L,) per layer;
    lowest / highest with their (layer, head); `below` of `count` heads under `reference`;
    highest_layer_median, the median of the highest head's layer (what an outlier is seen
    against)."""

    medians: tuple[float, ...]
    lowest: float
    lowest_at: tuple[int, int]
    highest: float
    highest_at: tuple[int, int]
    below: int
    count: int
    reference: float
    highest_layer_median: float

    @property
    def highest_over_median(self) -> float:
        """highest / highest_layer_median: how far the top head stands out of its layer."""
        return self.highest / self.highest_layer_median


def per_head_summary(values: np.ndarray, reference: float = 1.0) -> PerHeadSummary:
    """Summary of values (L, h), one per head (see PerHeadSummary); NaN is not allowed."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2 or v.size == 0 or not np.isfinite(v).all():
        raise ValueError("per_head_summary needs a finite (layers, heads) array")
    medians = np.median(v, axis=1)
    lo = np.unravel_index(int(v.argmin()), v.shape)
    hi = np.unravel_index(int(v.argmax()), v.shape)
    return PerHeadSummary(
        medians=tuple(float(m) for m in medians), lowest=float(v[lo]),
        lowest_at=(int(lo[0]), int(lo[1])), highest=float(v[hi]),
        highest_at=(int(hi[0]), int(hi[1])), below=int((v < reference).sum()), count=v.size,
        reference=float(reference), highest_layer_median=float(medians[hi[0]]))
