"""Softmax and the quantities that describe how saturated it is.

All functions act on the last axis by default, so a batch of shape (..., n)
works as well as a single score vector of shape (n,). `axis=0` serves batches
stored keys-first, (n, ...): numpy reduces a short last axis row by row, more
than ten times slower than across a leading axis. Probabilities are dimensionless.
"""
from __future__ import annotations

import numpy as np


def _as_finite(scores, axis: int = -1) -> np.ndarray:
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim == 0 or x.shape[axis] == 0:
        raise ValueError("softmax needs at least one score")
    if not np.all(np.isfinite(x)):
        raise ValueError("softmax input contains NaN or ±inf; scores must be finite numbers")
    return x


def softmax(scores, temperature: float = 1.0, axis: int = -1) -> np.ndarray:
    """p_i = exp(s_i / T) / Σ_j exp(s_j / T) along `axis` (default: the last).

    Stable for any finite input: the row maximum is subtracted before exp, so the
    largest exponent is exp(0) = 1. Raises ValueError for NaN/±inf input or a
    temperature that is not a positive finite number.
    """
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be a positive finite number, got {temperature!r}")
    x = _as_finite(scores, axis)
    # Subtract the max before dividing by T: (s - max)/T cannot overflow where s/T could.
    # s − max ≤ 0, so an overflow can only give −inf, whose exp is the correct limit 0:
    # silence the RuntimeWarning that e.g. [1e308, −1e308] would otherwise raise.
    with np.errstate(over="ignore"):
        e = x - x.max(axis=axis, keepdims=True)
        if temperature != 1.0:
            e /= temperature
    np.exp(e, out=e)
    e /= e.sum(axis=axis, keepdims=True)
    return e


def entropy(probs, axis: int = -1) -> np.ndarray:
    """Shannon entropy H(p) = −Σ p_i ln p_i in nats (0 ln 0 = 0); 0 ≤ H ≤ ln n."""
    p = np.asarray(probs, dtype=np.float64)
    logs = np.log(p, out=np.zeros_like(p), where=p > 0)
    logs *= p
    return -logs.sum(axis=axis)


def max_probability(probs, axis: int = -1) -> np.ndarray:
    """max_i p_i; 1/n for a uniform distribution, 1 for one-hot."""
    return np.asarray(probs, dtype=np.float64).max(axis=axis)


def _split_top(p: np.ndarray, axis: int = -1):
    """(is_top, rest, 1 − p) for probabilities p (..., n).

    is_top marks the largest entry of each row and rest is p with it zeroed. For
    the largest entry 1 − p_max is computed as Σ_{j≠max} p_j: near saturation
    p_max = 1 − ε is stored with an absolute error of ~1e-16, so 1.0 − p_max
    would lose all relative precision once ε ≲ 1e-8. Every other entry is ≤ ½,
    so 1.0 − p_i is exact to rounding there.
    """
    shape = [1] * p.ndim
    shape[axis] = p.shape[axis]
    is_top = np.arange(p.shape[axis]).reshape(shape) == np.expand_dims(p.argmax(axis=axis), axis)
    rest = np.where(is_top, 0.0, p)
    one_minus = np.where(is_top, rest.sum(axis=axis, keepdims=True), 1.0 - p)
    return is_top, rest, one_minus


def softmax_jacobian(probs) -> np.ndarray:
    """J = diag(p) − p pᵀ, the derivative ∂p/∂z of softmax w.r.t. its logits z.

    Shape (..., n) → (..., n, n). With temperature T and raw scores s the chain
    rule adds a factor 1/T: ∂p/∂s = J / T. The diagonal p_i(1 − p_i) is formed
    without cancellation, so it stays accurate when softmax saturates.
    """
    p = np.asarray(probs, dtype=np.float64)
    jac = -p[..., :, None] * p[..., None, :]
    idx = np.arange(p.shape[-1])
    jac[..., idx, idx] = p * _split_top(p)[2]
    return jac


def jacobian_norm(probs, axis: int = -1) -> np.ndarray:
    """Frobenius norm ‖diag(p) − ppᵀ‖_F without forming the matrix.

    ‖J‖_F² = Σ_i p_i² [(1 − p_i)² + Σ_{j≠i} p_j²] (= Σ p_i² − 2 Σ p_i³ + (Σ p_i²)²).
    It is 0 for one-hot p and √(n−1)/n for uniform p over n entries; it is what
    vanishes when softmax saturates. The sums are arranged so that nothing
    cancels near one-hot p, keeping full relative precision for norms far
    below 1e-8 (the expanded form above bottoms out at ~1e-8 rounding noise).
    """
    p = np.asarray(probs, dtype=np.float64)
    is_top, rest, one_minus = _split_top(p, axis)
    top = p.max(axis=axis, keepdims=True)
    rest2 = rest * rest
    q = rest2.sum(axis=axis, keepdims=True)            # Σ_{j≠max} p_j²
    others2 = np.where(is_top, q, top * top + (q - rest2))  # Σ_{j≠i} p_j²
    return np.sqrt((p * p * (one_minus * one_minus + others2)).sum(axis=axis))
