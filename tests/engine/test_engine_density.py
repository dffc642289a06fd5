"""The theory density of q·k against closed forms and against sampled histograms.

For normal components q·k with d_k = d has the variance-gamma law; closed forms:
    d = 1:  f(x) = K₀(|x|)/π             (K₀: modified Bessel function, 2nd kind)
    d = 2:  f(x) = ½·e^{−|x|}            (Laplace: characteristic function (1 + t²)^{−1})
    d = 4:  f(x) = (1 + |x|)·e^{−|x|}/4
numpy has no K₀, so it is integrated here from K₀(x) = ∫₀^∞ exp(−x·cosh t) dt.
"""
import math

import numpy as np
import pytest

from engine.dot_product import (
    exact_normal_dot_density, normal_density, sample_dot_products_exact,
    sample_dot_products_explicit, theory_density,
)


def bessel_k0(x):
    x = np.atleast_1d(np.asarray(x, dtype=np.float64))
    # exp(−x·cosh 10) < e^{−1100} for x ≥ 0.1; the integrand is smooth and decays
    # double-exponentially, so the trapezoid rule converges fast.
    t = np.linspace(0.0, 10.0, 4_001)
    return np.trapezoid(np.exp(-x[:, None] * np.cosh(t)[None, :]), t, axis=1)


def test_bessel_helper_is_right():
    # K₀(1) = 0.42102443824070834 (Abramowitz & Stegun, Table 9.8).
    assert bessel_k0(1.0)[0] == pytest.approx(0.42102443824070834, rel=1e-10)


def test_dk1_matches_bessel_k0():
    # The quadrature uses 160 midpoints over r ∈ (0, 7]; near x = 0 the integrand is sharp
    # on the scale r ≈ |x|, so compare where |x| ≥ 0.3 (≥ 7 nodes across the peak).
    x = np.array([0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0])
    expected = bessel_k0(x) / math.pi
    np.testing.assert_allclose(exact_normal_dot_density(x, 1), expected, rtol=1e-3)
    np.testing.assert_allclose(exact_normal_dot_density(-x, 1), expected, rtol=1e-3)


@pytest.mark.parametrize("dk, closed_form", [
    (2, lambda x: 0.5 * np.exp(-np.abs(x))),
    (4, lambda x: (1 + np.abs(x)) * np.exp(-np.abs(x)) / 4),
])
def test_even_dk_closed_forms(dk, closed_form):
    x = np.r_[-np.geomspace(0.5, 20, 25), np.geomspace(0.5, 20, 25)]
    np.testing.assert_allclose(exact_normal_dot_density(x, dk), closed_form(x), rtol=1e-5)


@pytest.mark.parametrize("dk", [2, 8, 64, 4096])
def test_density_integrates_to_one_with_variance_dk_sigma4(dk):
    sigma = 1.3
    sd = math.sqrt(dk) * sigma**2
    half = (40 if dk <= 8 else 12) * sd  # heavy (exponential) tails at small d_k
    x = np.linspace(-half, half, 40_001)  # odd count: x = 0 is a node
    f = exact_normal_dot_density(x, dk, sigma)
    assert np.all(f >= 0)
    assert np.trapezoid(f, x) == pytest.approx(1.0, abs=1e-3)
    assert np.trapezoid(x * x * f, x) == pytest.approx(dk * sigma**4, rel=1e-3)
    assert np.trapezoid(x * f, x) == pytest.approx(0.0, abs=1e-9 * sd)


def test_large_dk_approaches_the_normal():
    # CLT: with d_k = 4096 the density is within ~1/d_k (relative, excess kurtosis 6/d_k)
    # of N(0, d_k) over the central ±3 sd.
    dk = 4096
    x = np.linspace(-3, 3, 61) * math.sqrt(dk)
    np.testing.assert_allclose(exact_normal_dot_density(x, dk), normal_density(x, dk), rtol=0.01)


def test_sigma_scaling():
    # q·k with components of sd σ is σ² times the σ = 1 product: f_σ(x) = f₁(x/σ²)/σ².
    x = np.linspace(-30, 30, 31)
    for sigma in (0.5, 2.0):
        np.testing.assert_allclose(exact_normal_dot_density(x, 16, sigma),
                                   exact_normal_dot_density(x / sigma**2, 16) / sigma**2,
                                   rtol=1e-12)


def test_normal_density_closed_form():
    assert normal_density(0.0, 4.0) == pytest.approx(1 / math.sqrt(8 * math.pi), rel=1e-15)
    assert normal_density(2.0, 4.0) == pytest.approx(math.exp(-0.5) / math.sqrt(8 * math.pi),
                                                     rel=1e-15)


@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
@pytest.mark.parametrize("dk", [1, 64, 4096])
def test_scaled_density_relation(dist, dk):
    # q·k/√d_k has density f_s(x) = √d_k·f(√d_k·x).
    sigma = 1.2
    x = np.linspace(-4, 4, 41) * sigma**2
    scaled, kind_s = theory_density(x, dk, dist, sigma, scaled=True)
    raw, kind_u = theory_density(x * math.sqrt(dk), dk, dist, sigma)
    assert kind_s == kind_u == ("exact" if dist == "normal" else "normal approximation")
    np.testing.assert_allclose(scaled, math.sqrt(dk) * raw, rtol=1e-12)
    if dist != "normal":  # the central-limit approximation N(0, d_k σ⁴)
        np.testing.assert_allclose(raw, normal_density(x * math.sqrt(dk), dk * sigma**4),
                                   rtol=1e-14)
        np.testing.assert_allclose(scaled, normal_density(x, sigma**4), rtol=1e-12)
    else:
        np.testing.assert_allclose(raw, exact_normal_dot_density(x * math.sqrt(dk), dk, sigma),
                                   rtol=1e-14)


def chi_square_against_density(samples, dk, edges):
    """χ² of the histogram against bin probabilities of the theory density."""
    counts, _ = np.histogram(samples, edges)
    probs = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        x = np.linspace(lo, hi, 65)
        probs.append(np.trapezoid(exact_normal_dot_density(x, dk), x))
    expected = samples.size * np.array(probs)
    return ((counts - expected) ** 2 / expected).sum(), len(probs)


@pytest.mark.parametrize("method, n", [("exact", 400_000), ("explicit", 40_000)])
def test_histogram_matches_density_at_dk64(method, n):
    dk = 64
    rng = np.random.default_rng(64)
    sampler = sample_dot_products_exact if method == "exact" else sample_dot_products_explicit
    x = sampler(dk, n, rng, "normal")
    edges = np.linspace(-3.5, 3.5, 36) * math.sqrt(dk)  # cells with ≥ ~0.1 % mass
    chi2, df = chi_square_against_density(x, dk, edges)
    # A χ² with df degrees of freedom has mean df and sd √(2 df); bins are the full
    # partition of (−3.5σ, 3.5σ), the mass outside is left out, so df = bins.
    assert chi2 <= df + 5 * math.sqrt(2 * df), chi2


def test_histogram_matches_bessel_density_at_dk1():
    # The χ·z shortcut at d_k = 1 against K₀(|x|)/π, on cells away from the log peak at 0.
    n = 400_000
    x = sample_dot_products_exact(1, n, np.random.default_rng(1), "normal")
    edges = np.geomspace(0.3, 6, 15)  # cells on |x|; (−0.3, 0.3) holds the singularity
    counts = np.histogram(x, edges)[0] + np.histogram(-x, edges)[0]
    t = np.linspace(edges[:-1], edges[1:], 33, axis=1)  # 33 nodes per cell
    probs = 2 * np.trapezoid(bessel_k0(t.ravel()).reshape(t.shape) / math.pi, t, axis=1)
    expected = n * probs
    chi2 = ((counts - expected) ** 2 / expected).sum()
    df = counts.size
    assert chi2 <= df + 5 * math.sqrt(2 * df), chi2
