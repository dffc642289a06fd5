"""Scores q·k_j of one query against `count` keys, coupled across d_k.

For a fixed seed the same underlying standard draws serve every d_k, so dragging d_k
moves the scores smoothly: the raw scores grow like √d_k while the scores divided by
√d_k keep their shape. At each single d_k the scores have exactly the law of q·k_j for
i.i.d. components of standard deviation σ (keys independent, one shared query):

normal      q = σa, so q·k_j = σ²·‖a‖·z_j with z_j ~ N(0, 1) i.i.d. (given a, rotation
            invariance). The z_j are drawn once; ‖a‖² is the prefix sum Σ_{i<d_k} a_i²
            of one fixed draw a ∈ R^{DK_MAX}, an exact χ²_{d_k} for every d_k.
            The ÷√d_k scores are σ²·(‖a‖/√d_k)·z_j: the same z shape at every d_k.
rademacher  q_i·k_ji = ±σ² independently for all i, j, so q·k_j = σ²(2B_j − d_k) with
            B_j ~ Binomial(d_k, ½) i.i.d. B_j is the binomial quantile of one fixed
            uniform u_j (the same u_j for every d_k), so (2B_j − d_k)/√d_k → Φ⁻¹(u_j).
uniform     no closed law: explicit components q_i, k_ji ~ U(−σ√3, σ√3) drawn once
            for i < DK_MAX, and q·k_j = Σ_{i<d_k} q_i k_ji, a prefix sum. Exact, and
            it changes by one term per unit of d_k (its shape is not fixed).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from .dot_product import binomial_half_pmf
from .params import DISTRIBUTIONS, DK_MAX

#: Spawn key of the live-score stream (0–2 serve the variance, saturation and matrices).
STREAM = 3
METHODS = {"normal": "χ·z, shared z", "rademacher": "binomial quantiles, shared u",
           "uniform": "prefix sums of explicit components"}


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STREAM,)))


@functools.lru_cache(maxsize=4)
def _normal_draws(seed: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(z (count,), prefix sums of a_i² (DK_MAX,)) for one seed."""
    rng = _rng(seed)
    z = rng.standard_normal(count)
    a = rng.standard_normal(DK_MAX)
    return z, np.cumsum(a * a)


@functools.lru_cache(maxsize=4)
def _uniforms(seed: int, count: int) -> np.ndarray:
    """u_j ∈ (0, 1), one per key; the Rademacher quantiles' common random numbers."""
    return _rng(seed).random(count)


@functools.lru_cache(maxsize=2)
def _uniform_prefix(seed: int, count: int) -> np.ndarray:
    """(count, DK_MAX) prefix sums Σ_{i<d} q_i k_ji for standard-width components (σ = 1)."""
    rng = _rng(seed)
    half = math.sqrt(3.0)
    q = rng.uniform(-half, half, DK_MAX)
    k = rng.uniform(-half, half, (count, DK_MAX))
    return np.cumsum(q * k, axis=1)


def binomial_half_cdf(n: int) -> np.ndarray:
    """P(B ≤ b) for b = 0 … n, B ~ Binomial(n, ½); shape (n + 1,)."""
    cdf = np.cumsum(binomial_half_pmf(n))
    cdf /= cdf[-1]
    return cdf


def live_scores(dk: int, count: int, seed: int, distribution: str = "normal",
                sigma: float = 1.0) -> np.ndarray:
    """`count` scores q·k_j at width d_k, coupled across d_k as the module docstring says."""
    if not 1 <= dk <= DK_MAX or count < 1:
        raise ValueError(f"need 1 ≤ d_k ≤ {DK_MAX} and count ≥ 1, got d_k={dk}, count={count}")
    if distribution not in DISTRIBUTIONS:
        raise ValueError(f"distribution must be one of {DISTRIBUTIONS}, got {distribution!r}")
    if distribution == "normal":
        z, norm2 = _normal_draws(seed, count)
        return sigma**2 * math.sqrt(float(norm2[dk - 1])) * z
    if distribution == "rademacher":
        heads = np.searchsorted(binomial_half_cdf(dk), _uniforms(seed, count), side="right")
        return sigma**2 * (2.0 * np.minimum(heads, dk) - dk)
    return sigma**2 * _uniform_prefix(seed, count)[:, dk - 1].copy()
