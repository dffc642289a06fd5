"""Softmax and the quantities that describe how saturated it is.

All functions act on the last axis, so a batch of shape (..., n) works as well
as a single score vector of shape (n,). Probabilities are dimensionless.
"""
from __future__ import annotations

import numpy as np


def _as_finite(scores) -> np.ndarray:
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim == 0 or x.shape[-1] == 0:
        raise ValueError("softmax needs at least one score")
    if not np.all(np.isfinite(x)):
        raise ValueError("softmax input contains NaN or ±inf; scores must be finite numbers")
    return x


def softmax(scores, temperature: float = 1.0) -> np.ndarray:
    """p_i = exp(s_i / T) / Σ_j exp(s_j / T) along the last axis.

    Stable for any finite input: the row maximum is subtracted before exp, so the
    largest exponent is exp(0) = 1. Raises ValueError for NaN/±inf input or a
    temperature that is not a positive finite number.
    """
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be a positive finite number, got {temperature!r}")
    x = _as_finite(scores)
    # Subtract the max before dividing by T: (s - max)/T cannot overflow where s/T could.
    e = x - x.max(axis=-1, keepdims=True)
    if temperature != 1.0:
        e /= temperature
    np.exp(e, out=e)
    e /= e.sum(axis=-1, keepdims=True)
    return e


def entropy(probs) -> np.ndarray:
    """Shannon entropy H(p) = −Σ p_i ln p_i in nats (0 ln 0 = 0); 0 ≤ H ≤ ln n."""
    p = np.asarray(probs, dtype=np.float64)
    logs = np.log(p, out=np.zeros_like(p), where=p > 0)
    logs *= p
    return -logs.sum(axis=-1)


def max_probability(probs) -> np.ndarray:
    """max_i p_i; 1/n for a uniform distribution, 1 for one-hot."""
    return np.asarray(probs, dtype=np.float64).max(axis=-1)


def softmax_jacobian(probs) -> np.ndarray:
    """J = diag(p) − p pᵀ, the derivative ∂p/∂z of softmax w.r.t. its logits z.

    Shape (..., n) → (..., n, n). With temperature T and raw scores s the chain
    rule adds a factor 1/T: ∂p/∂s = J / T.
    """
    p = np.asarray(probs, dtype=np.float64)
    jac = -p[..., :, None] * p[..., None, :]
    idx = np.arange(p.shape[-1])
    jac[..., idx, idx] += p
    return jac


def jacobian_norm(probs) -> np.ndarray:
    """Frobenius norm ‖diag(p) − ppᵀ‖_F without forming the matrix.

    ‖J‖_F² = Σ p_i² − 2 Σ p_i³ + (Σ p_i²)². It is 0 for one-hot p and √(n−1)/n
    for uniform p over n entries; it is what vanishes when softmax saturates.
    """
    p = np.asarray(probs, dtype=np.float64)
    p2 = p * p
    s2 = p2.sum(axis=-1)
    p2 *= p
    s3 = p2.sum(axis=-1)
    return np.sqrt(np.maximum(s2 - 2.0 * s3 + s2 * s2, 0.0))
