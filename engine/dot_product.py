"""Statistics of the dot product q·k of two random vectors of width d_k.

q and k have i.i.d. components with mean 0 and standard deviation σ, drawn from
a normal, a uniform or a Rademacher (±σ) law. Then E[q·k] = 0 and
Var(q·k) = d_k·σ⁴; after dividing by √d_k the variance is σ⁴.
"""
from __future__ import annotations

import math

import numpy as np

from .params import DISTRIBUTIONS

#: Bytes of q and k that `sample_dot_products_explicit` holds at once.
EXPLICIT_CHUNK_BYTES = 64 * 2**20
#: Products q_i·k_i that `sample_dot_products` may draw explicitly per call.
EXPLICIT_PRODUCT_BUDGET = 2**20


def _check(dk: int, n: int, distribution: str) -> None:
    if dk < 1 or n < 0:
        raise ValueError(f"need d_k ≥ 1 and n ≥ 0, got d_k={dk}, n={n}")
    if distribution not in DISTRIBUTIONS:
        raise ValueError(f"distribution must be one of {DISTRIBUTIONS}, got {distribution!r}")


def draw_components(rng: np.random.Generator, shape, distribution: str, sigma: float) -> np.ndarray:
    """Components with mean 0 and standard deviation σ, shape `shape`."""
    if distribution == "normal":
        return rng.standard_normal(shape) * sigma
    if distribution == "uniform":
        half_width = sigma * math.sqrt(3.0)  # Var U(−a, a) = a²/3
        return rng.uniform(-half_width, half_width, shape)
    return rng.choice(np.array([-sigma, sigma]), size=shape)


def sample_dot_products_explicit(dk: int, n: int, rng: np.random.Generator,
                                 distribution: str = "normal", sigma: float = 1.0) -> np.ndarray:
    """n samples of q·k from explicit vectors q, k ∈ R^{d_k}; shape (n,).

    Works in chunks so that q and k together never exceed EXPLICIT_CHUNK_BYTES;
    the time grows as n·d_k.
    """
    _check(dk, n, distribution)
    rows = max(1, EXPLICIT_CHUNK_BYTES // (2 * 8 * dk))
    out = np.empty(n)
    for start in range(0, n, rows):
        m = min(rows, n - start)
        q = draw_components(rng, (m, dk), distribution, sigma)
        k = draw_components(rng, (m, dk), distribution, sigma)
        out[start:start + m] = np.einsum("ij,ij->i", q, k)
    return out


def sample_dot_products_exact(dk: int, n: int, rng: np.random.Generator,
                              distribution: str = "normal", sigma: float = 1.0,
                              keys: int | None = None) -> np.ndarray:
    """Exact samples of q·k whose cost does not grow with d_k.

    normal:      q·k = σ²·‖a‖·z with ‖a‖ ~ χ_{d_k}, z ~ N(0, 1), because given a the
                 product a·b of standard normal vectors is N(0, ‖a‖²).
    rademacher:  each q_i k_i is ±σ² with probability ½, so q·k = σ²(2B − d_k)
                 with B ~ Binomial(d_k, ½).
    uniform has no such shortcut and raises ValueError.

    keys=None returns shape (n,). keys=m returns shape (n, m): row i holds
    q_i·k_1 … q_i·k_m for one query against m independent keys (the rows share
    ‖q_i‖, so the entries of a row are correlated exactly as in attention).
    """
    _check(dk, n, distribution)
    shape = (n,) if keys is None else (n, keys)
    if distribution == "normal":
        norm = np.sqrt(rng.chisquare(dk, n))
        z = rng.standard_normal(shape)
        return sigma**2 * (norm * z if keys is None else norm[:, None] * z)
    if distribution == "rademacher":
        return sigma**2 * (2.0 * rng.binomial(dk, 0.5, shape) - dk)
    raise ValueError("the uniform law has no exact shortcut; use sample_dot_products_explicit")


def has_exact_sampler(distribution: str) -> bool:
    return distribution in ("normal", "rademacher")


def sample_dot_products(dk: int, n: int, rng: np.random.Generator, distribution: str = "normal",
                        sigma: float = 1.0) -> tuple[np.ndarray, str]:
    """q·k samples by the fastest exact method; returns (samples, method name).

    The uniform law needs explicit vectors, so its sample count is cut to
    EXPLICIT_PRODUCT_BUDGET // d_k (at least 64): `len(samples)` may be < n.
    """
    if has_exact_sampler(distribution):
        method = "chi·z" if distribution == "normal" else "binomial"
        return sample_dot_products_exact(dk, n, rng, distribution, sigma), method
    m = min(n, max(64, EXPLICIT_PRODUCT_BUDGET // dk))
    return sample_dot_products_explicit(dk, m, rng, distribution, sigma), "explicit"


def sample_query_scores(dk: int, trials: int, keys: int, rng: np.random.Generator,
                        distribution: str = "normal", sigma: float = 1.0) -> np.ndarray:
    """Scores of `trials` queries against `keys` keys each: shape (trials, keys).

    Exact for normal and Rademacher components; explicit vectors for uniform,
    which costs trials·keys·d_k products.
    """
    if has_exact_sampler(distribution):
        return sample_dot_products_exact(dk, trials, rng, distribution, sigma, keys=keys)
    q = draw_components(rng, (trials, 1, dk), distribution, sigma)
    k = draw_components(rng, (trials, keys, dk), distribution, sigma)
    return np.einsum("tod,tkd->tk", q, k)


def sample_query_scores_grid(dks, trials: int, keys: int, rng: np.random.Generator,
                             distribution: str = "normal", sigma: float = 1.0) -> np.ndarray:
    """`sample_query_scores` at every d_k in `dks` at once: shape (len(dks), trials, keys).

    Exact samplers only (normal, Rademacher); one draw call per law instead of one per d_k.
    """
    dks = np.asarray(dks)
    if distribution == "normal":
        norm = np.sqrt(rng.chisquare(dks[:, None], (dks.size, trials)))
        return sigma**2 * norm[:, :, None] * rng.standard_normal((dks.size, trials, keys))
    if distribution == "rademacher":
        heads_up = rng.binomial(dks[:, None, None], 0.5, (dks.size, trials, keys))
        return sigma**2 * (2.0 * heads_up - dks[:, None, None])
    raise ValueError("the uniform law has no exact shortcut; use sample_query_scores per d_k")


def binomial_half_pmf(n: int) -> np.ndarray:
    """P(B = b) for b = 0 … n, B ~ Binomial(n, ½): C(n, b)/2ⁿ, shape (n + 1,), in log space
    (log C(n, b) = Σ_{i ≤ b} log((n − i + 1)/i)), so n = 16 384 neither overflows nor underflows
    where the probability is representable."""
    b = np.arange(1, n + 1)
    log_c = np.concatenate(([0.0], np.cumsum(np.log((n - b + 1) / b))))
    return np.exp(log_c - n * math.log(2.0))


def rademacher_pmf(dk: int, sigma: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The exact law of q·k for ±σ components: values σ²(2b − d_k), b = 0 … d_k, with
    probabilities C(d_k, b)/2^{d_k} (the binomial the sampler draws). Two arrays (d_k + 1,)."""
    return sigma**2 * (2.0 * np.arange(dk + 1) - dk), binomial_half_pmf(dk)


def theory_variance(dk: int, sigma: float = 1.0, scaled: bool = False) -> float:
    """Var(q·k) = d_k·σ⁴, or σ⁴ after dividing by √d_k."""
    return sigma**4 if scaled else dk * sigma**4


def variance_with_stderr(samples) -> tuple[float, float]:
    """Unbiased sample variance s² and its standard error.

    SE(s²) ≈ √((m₄ − s⁴·(n−3)/(n−1)) / n), where m₄ is the fourth central
    sample moment; this holds for any law with a finite fourth moment.
    """
    x = np.asarray(samples, dtype=np.float64)
    n = x.size
    if n < 4:
        raise ValueError("need at least 4 samples for a variance and its standard error")
    d = x - x.mean()
    d2 = d * d
    var = d2.sum() / (n - 1)
    m4 = np.mean(d2 * d2)
    se2 = (m4 - var * var * (n - 3) / (n - 1)) / n
    return float(var), float(math.sqrt(max(se2, 0.0)))


def normal_density(x, variance: float) -> np.ndarray:
    """N(0, variance) density at x."""
    x = np.asarray(x, dtype=np.float64)
    return np.exp(-0.5 * x * x / variance) / math.sqrt(2.0 * math.pi * variance)


def exact_normal_dot_density(x, dk: int, sigma: float = 1.0, nodes: int = 160) -> np.ndarray:
    """Density of q·k for normal components, by quadrature over ‖a‖ ~ χ_{d_k}.

    f(x) = ∫ χ_{d_k}(r) · φ(x / (σ² r)) / (σ² r) dr, with the χ density
    χ_d(r) = r^{d−1} e^{−r²/2} / (2^{d/2−1} Γ(d/2)). The integral runs over
    r ∈ [√d − 6, √d + 6] ∩ (0, ∞) (the χ law has standard deviation < 0.71),
    on `nodes` midpoints. For d_k = 1 the density has a log singularity at 0.
    """
    x = np.asarray(x, dtype=np.float64)
    centre = math.sqrt(dk)
    lo, hi = max(centre - 6.0, 0.0), centre + 6.0
    step = (hi - lo) / nodes
    r = lo + step * (np.arange(nodes) + 0.5)
    log_chi = ((dk - 1) * np.log(r) - 0.5 * r * r
               - (0.5 * dk - 1.0) * math.log(2.0) - math.lgamma(0.5 * dk))
    weight = np.exp(log_chi) * step
    scale = sigma**2 * r
    u = x[..., None] / scale
    return (weight * np.exp(-0.5 * u * u) / (math.sqrt(2.0 * math.pi) * scale)).sum(axis=-1)


def theory_density(x, dk: int, distribution: str, sigma: float = 1.0,
                   scaled: bool = False) -> tuple[np.ndarray, str]:
    """Theory density of q·k (or q·k/√d_k) at x; returns (density, kind).

    kind is "exact" for normal components and "normal approximation" (the
    central-limit N(0, d_k σ⁴)) for uniform and Rademacher components.
    """
    x = np.asarray(x, dtype=np.float64)
    factor = math.sqrt(dk) if scaled else 1.0
    if distribution == "normal":
        return exact_normal_dot_density(x * factor, dk, sigma) * factor, "exact"
    return normal_density(x, theory_variance(dk, sigma, scaled)), "normal approximation"
