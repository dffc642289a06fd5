"""Row softmax with clipped logits, its backward pass, and row statistics.

Forward, for scores s (…, n) and an optional 0/1 key mask M (…, n) (broadcast against s):

    m  = max_{j : M_j = 1} s_j                the row maximum over the allowed keys only
    c  = clip(s − m, −CLIP, 0)                the logits that reach exp (allowed keys)
    e  = exp(c) · M
    A  = e / Σ_j e_j

Shifting by the maximum of the allowed keys keeps exp ≤ 1 (no overflow) and leaves the
largest allowed weight at e^0 = 1 before normalising, so the clip at −CLIP only touches
weights below e^−30 ≈ 9e−14 of the largest: under float32's resolution of a row sum near 1.
A masked key never enters the shift: however high it scores, the allowed keys keep their
softmax. A row with no allowed key is defined as all zeros, with a zero gradient.

Backward, with dA = ∂L/∂A:  ∂L/∂s = A ⊙ (dA − Σ_j dA_j A_j), set to 0 where the clip was
active or the key is masked (there A does not depend on s).
"""
from __future__ import annotations

import numpy as np

CLIP = 30.0


def softmax_forward(s: np.ndarray, mask: np.ndarray | None = None):
    """A (same shape as s) and the boolean array of logits the clip and the mask left alone.

    s: (…, n) scores; mask: None or a 0/1 array broadcastable to s (1 = the key is allowed).
    """
    if mask is None:
        c = s - s.max(axis=-1, keepdims=True)
        free = c > -CLIP
    else:
        allowed = np.broadcast_to(mask != 0, s.shape)
        top = np.where(allowed, s, -np.inf).max(axis=-1, keepdims=True)
        # A fully masked row has no maximum; any finite shift will do, its weights are all 0.
        top[~np.isfinite(top)] = 0
        c = np.where(allowed, s - top, -CLIP).astype(s.dtype, copy=False)
        free = (c > -CLIP) & allowed
    np.maximum(c, -CLIP, out=c)
    e = np.exp(c)
    if mask is not None:
        e *= mask
    total = e.sum(axis=-1, keepdims=True)
    total[total == 0] = 1                      # fully masked rows stay 0, not 0/0
    e /= total
    return e, free


def softmax_backward(d_weights: np.ndarray, weights: np.ndarray, free: np.ndarray) -> np.ndarray:
    """∂L/∂s (same shape as weights) from dA = ∂L/∂A, the forward's A and its `free` array."""
    ds = weights * (d_weights - (d_weights * weights).sum(axis=-1, keepdims=True))
    ds *= free
    return ds


def row_entropy(weights: np.ndarray) -> np.ndarray:
    """H = −Σ_j A_j ln A_j (nats) of each row; 0·ln 0 counts as 0."""
    safe = np.where(weights > 0, weights, 1)
    return -(weights * np.log(safe)).sum(axis=-1)
