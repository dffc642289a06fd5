"""Scores that say what a learned head does, and the role named from them.

For attention maps A (B, T, T) of one head on repeated sequences (BOS, t_1 … t_n,
t_1 … t_n; tasks.repeat_batch) with lengths n (B,), averaged over the rows listed:

    previous_token  mean A[p, p−1]          over p = 2 … 2n   (rows that have a previous token
                                                               other than BOS)
    induction       mean A[p, p−n+1]        over p = n+1 … 2n (the token after the earlier
                                                               copy of the current token)
    bos             mean A[p, 0]            over p = 1 … 2n
    self            mean A[p, p]            over p = 1 … 2n
    entropy         mean −Σ_j A[p, j] ln A[p, j] over p = 1 … 2n   (nats)

Every score but entropy is an attention mass in [0, 1]. `name_role` picks the role whose
score is largest relative to its threshold, or "mixed" when none reaches its threshold,
so a role never comes from a head's index.
"""
from __future__ import annotations

import numpy as np

from .softmax_clip import row_entropy

SCORE_NAMES = ("previous_token", "induction", "bos", "self", "entropy")
#: role → (score it is named from, threshold the score must reach)
ROLE_THRESHOLDS = {"induction": ("induction", 0.3), "previous_token": ("previous_token", 0.3),
                   "bos": ("bos", 0.5), "self": ("self", 0.5)}
ROLES = tuple(ROLE_THRESHOLDS) + ("mixed",)


def _row_mean(values: np.ndarray, rows: np.ndarray) -> float:
    count = float(rows.sum())
    return float((values * rows).sum()) / count if count else 0.0


def score_repeat_head(weights: np.ndarray, lengths: np.ndarray) -> dict[str, float]:
    """The scores above for one head; weights (B, T, T), lengths (B,)."""
    b, t, _ = weights.shape
    weights = weights.astype(np.float64)
    p = np.arange(t)[None, :]
    n = np.asarray(lengths)[:, None]
    valid = (p >= 1) & (p <= 2 * n)
    has_previous = (p >= 2) & (p <= 2 * n)
    second = (p > n) & (p <= 2 * n)
    rows = np.arange(b)[:, None]

    def mass(target):
        return weights[rows, p.repeat(b, 0), np.clip(target, 0, t - 1)]

    return {
        "previous_token": _row_mean(mass(p - 1), has_previous),
        "induction": _row_mean(mass(p - n + 1), second),
        "bos": _row_mean(weights[:, :, 0], valid),
        "self": _row_mean(np.diagonal(weights, axis1=1, axis2=2), valid),
        "entropy": _row_mean(row_entropy(weights), valid),
    }


def name_role(scores: dict[str, float], thresholds=None) -> str:
    """The role whose score exceeds its threshold by the largest factor; "mixed" if none does."""
    thresholds = ROLE_THRESHOLDS if thresholds is None else thresholds
    best, best_ratio = "mixed", 1.0
    for role, (score, threshold) in thresholds.items():
        ratio = scores[score] / threshold
        if ratio >= best_ratio:
            best, best_ratio = role, ratio
    return best
