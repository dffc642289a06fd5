"""Row softmax with clipped logits, its backward pass, and row statistics.

Forward, for scores s (…, n) and an optional 0/1 key mask (…, n):

    c  = clip(s − max_j s_j, −CLIP, 0)       the logits that reach exp
    e  = exp(c) · mask
    A  = e / Σ_j e_j

Shifting by the row maximum keeps exp ≤ 1 (no overflow); clipping at −CLIP keeps it
≥ e^−30 ≈ 9e−14 (no denormals, which are slow). A clipped weight is below float32's
resolution of a row sum near 1, so the clip changes no weight that float32 can see.
(With a mask the maximum runs over every key; a masked key only changes that shift,
which softmax ignores.)

Backward, with dA = ∂L/∂A:  ∂L/∂s = A ⊙ (dA − Σ_j dA_j A_j), set to 0 where the clip was
active (there c does not depend on s).
"""
from __future__ import annotations

import numpy as np

CLIP = 30.0


def softmax_forward(s: np.ndarray, mask: np.ndarray | None = None):
    """A (same shape as s) and the boolean array of logits the clip left alone."""
    c = s - s.max(axis=-1, keepdims=True)
    free = c > -CLIP
    np.maximum(c, -CLIP, out=c)
    e = np.exp(c)
    if mask is not None:
        e *= mask
    e /= e.sum(axis=-1, keepdims=True)
    return e, free


def softmax_backward(d_weights: np.ndarray, weights: np.ndarray, free: np.ndarray) -> np.ndarray:
    ds = weights * (d_weights - (d_weights * weights).sum(axis=-1, keepdims=True))
    ds *= free
    return ds


def row_entropy(weights: np.ndarray) -> np.ndarray:
    """H = −Σ_j A_j ln A_j (nats) of each row; 0·ln 0 counts as 0."""
    safe = np.where(weights > 0, weights, 1)
    return -(weights * np.log(safe)).sum(axis=-1)
