"""Tolerances from floating-point error analysis, for comparisons of float32 results.

A tolerance here is a bound derived from the computation, not a number that passed once: on
another BLAS (another summation order, FMA or not) a float32 result may move anywhere inside
its rounding bound, and the test must still pass; outside it, something is wrong.

Notation (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., ch. 2-3):
    ε = EPS32 = 2⁻²³      float32's machine epsilon, the spacing of floats at 1
    u = ε/2               the unit roundoff: fl(x ∘ y) = (x ∘ y)(1 + δ), |δ| ≤ u
    γ_n = n·u/(1 − n·u)   ≤ n·ε while n·u ≤ ½
Standard bounds used:
    inner products, a @ b with inner length n: |fl(a @ b) − a @ b| ≤ γ_n·(|a| @ |b|), in any
        summation order (blocked, pairwise, with or without FMA)      → matmul_bound
    sums of n terms: |fl(Σ x) − Σ x| ≤ γ_{n−1}·Σ|x| ≤ n·ε·Σ|x|       → row_sum_bound
    softmax: if every score s_j is off by at most Δ, each weight p_i is off by a factor in
        [e^−2Δ, e^2Δ] (numerator e^δ_i, denominator Σ p_j e^δ_j)      → softmax_bound
    exp, log, tanh: numpy's float32 versions are within FUNC_ULPS ulp, and one ulp of v is at
        most ε·|v|
Bounds are evaluated in float64, whose own rounding (EPS64 ≈ 2.2e-16) is negligible beside ε
unless a term says otherwise.
"""
from __future__ import annotations

import numpy as np

EPS32 = float(np.finfo(np.float32).eps)
U32 = EPS32 / 2
EPS64 = float(np.finfo(np.float64).eps)
#: The smallest subnormal of each precision: below the normal range rounding is absolute,
#: |fl(x) − x| ≤ u·|x| + TINY/2 (gradual underflow).
TINY = {EPS32: float(np.finfo(np.float32).smallest_subnormal),
        EPS64: float(np.finfo(np.float64).smallest_subnormal)}
TINY32 = TINY[EPS32]
#: numpy's SIMD float32 exp and log: 2.52 and 3.83 ulp at most (numpy PR #13134; its
#: validation sets allow 3 and 4); glibc's scalar versions are within 1-2 ulp.
FUNC_ULPS = 4


def _abs64(x) -> np.ndarray:
    return np.abs(np.asarray(x, dtype=np.float64))


def matmul_bound(a, b, eps: float = EPS32) -> np.ndarray:
    """Elementwise bound on |fl(a @ b) − a @ b| when a @ b is computed in the precision of
    `eps`: n·ε·(|a| @ |b|) ≥ γ_n·(|a| @ |b|), n = a.shape[-1] the inner length. Compare the
    rounded product with a @ b formed in float64 from the same (float32) a and b."""
    a, b = _abs64(a), _abs64(b)
    return a.shape[-1] * eps * (a @ b)


def row_sum_bound(n: int, eps: float = EPS32) -> float:
    """Bound on |Σ_j p̂_j − 1| for a row of n weights normalised as p̂_j = fl(e_j / fl(Σ e)) and
    summed again in the same precision: the division by the rounded sum leaves the row
    summing to 1 within (n − 1)·u + u, re-summing adds (n − 1)·u: (2n − 1)·u < n·ε."""
    return n * eps


def softmax_bound(p, scores, score_error, eps: float = EPS64, axis: int = -1) -> np.ndarray:
    """Bound on |p̂ − p| for softmax weights p (…, n) along `axis`, computed in the precision
    of `eps` from scores (the logits, already divided by T) that are each off by at most
    `score_error` (broadcastable; give 0 at masked keys, where p = 0).

    Δ = the row's largest score error plus the shift by the row maximum and the division by
    T (a rounding each, on values ≤ 2·max|s|: ≤ 2ε·max|s| in all), so p̂/p is within
    e^±2Δ. The arithmetic then adds a relative a ≤ (2·FUNC_ULPS + n/2)·ε: exp's FUNC_ULPS
    ulp on each term and so on the sum, n − 1 roundings summing, one dividing; doubled,
    a = (4·FUNC_ULPS + n)·ε also covers a reference softmax computed in the same precision or
    better. |p̂ − p| ≤ p·(e^2Δ − 1 + a·e^2Δ). Weights below the normal range also carry
    (FUNC_ULPS + 1) subnormal spacings (exp's ulp there, and the division's rounding; the
    sum is ≥ 1)."""
    p = np.asarray(p, dtype=np.float64)
    err = np.broadcast_to(np.asarray(score_error, dtype=np.float64), p.shape)
    s = np.where(p > 0, _abs64(scores), 0.0)
    delta = err.max(axis=axis, keepdims=True) + 2 * eps * s.max(axis=axis, keepdims=True)
    arithmetic = (p.shape[axis] + 4 * FUNC_ULPS) * eps
    with np.errstate(over="ignore", invalid="ignore"):   # an infinite Δ: no bound
        relative = np.where(p > 0, p * (np.expm1(2 * delta) + arithmetic * np.exp(2 * delta)),
                            0.0)
    return relative + (FUNC_ULPS + 1) * TINY.get(eps, 0.0)


def variance_bound(x, error) -> float:
    """Bound on |Var(x̂) − Var(x)| (population variance, in float64) when each x̂_i is off
    from x_i by at most error_i: Var(x + δ) − Var(x) = 2·mean((x − x̄)·δ) + Var(δ), so
    ≤ 2·mean(|x − x̄|·error) + mean(error²); the float64 variance itself adds
    ≤ 2·n·EPS64·mean(x²) on each side."""
    x = np.asarray(x, dtype=np.float64)
    err = np.broadcast_to(np.asarray(error, dtype=np.float64), x.shape)
    return float(2 * np.mean(np.abs(x - x.mean()) * err) + np.mean(err * err)
                 + 4 * x.size * EPS64 * np.mean(x * x))


def assert_within(actual, desired, bound, err_msg: str = "") -> None:
    """Assert |actual − desired| ≤ bound elementwise (bound broadcast to actual's shape).

    desired must have actual's shape or be a scalar, so broadcasting cannot hide a shape
    mistake. NaN anywhere fails. The message names the worst entry (largest |diff|/bound)."""
    actual = np.asarray(actual, dtype=np.float64)
    desired = np.asarray(desired, dtype=np.float64)
    if desired.ndim and desired.shape != actual.shape:
        raise AssertionError(f"{err_msg}: shapes differ: actual {actual.shape}, "
                             f"desired {desired.shape}")
    bound = np.broadcast_to(np.asarray(bound, dtype=np.float64), actual.shape)
    diff = np.abs(actual - desired)
    bad = ~(diff <= bound)
    if not bad.any():
        return
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(bad, diff / bound, -np.inf)
    ratio = np.where(np.isnan(ratio), np.inf, ratio)
    worst = np.unravel_index(int(np.argmax(ratio)), actual.shape) if actual.ndim else ()
    desired_full = np.broadcast_to(desired, actual.shape)
    raise AssertionError(
        f"{err_msg + ': ' if err_msg else ''}{int(bad.sum())} of {actual.size} entries exceed "
        f"their error bound; worst at index {tuple(int(i) for i in worst)}: actual "
        f"{float(actual[worst])!r}, desired {float(desired_full[worst])!r}, |diff| "
        f"{diff[worst]:.3g} > bound "
        f"{bound[worst]:.3g} ({diff[worst] / bound[worst] if bound[worst] else np.inf:.3g}×)")
