"""engine.dot_product: the samplers of q·k against E[q·k] = 0 and Var(q·k) = d_k·σ⁴,
within sampling error, plus the memory bound, lattice, and variance standard error.

All sampling tests use fixed seeds and a 4-standard-error band, so each is a real
statistical test (a wrong variance, e.g. d_k·σ² or d_k²·σ⁴, misses by hundreds of SE)
that is nevertheless reproducible.
"""
import math

import numpy as np
import pytest

import engine.dot_product as dp
from engine.dot_product import (
    draw_components, has_exact_sampler, sample_dot_products, sample_dot_products_exact,
    sample_dot_products_explicit, sample_query_scores, sample_query_scores_grid, theory_variance,
    variance_with_stderr,
)
from engine.params import DISTRIBUTIONS

DKS = (1, 64, 4096, 16384)
#: Explicit sampling costs n·d_k products. These counts keep each case ≲ 0.3 s; the
#: relative standard error of s² is ≈ √((κ−1)/n) (κ = kurtosis of q·k, ≈ 3 at large d_k),
#: i.e. ≈ 0.6 % at n = 1e5, 2 % at 6000, 4 % at 1500 and 7 % at 400 — a 4-SE band of
#: ±28 % at d_k = 16 384, still far tighter than any wrong law (factors of d_k or σ²).
EXPLICIT_N = {1: 100_000, 64: 40_000, 4096: 1_500, 16384: 400}
EXACT_N = 200_000


def cases():
    for dk in DKS:
        for dist in DISTRIBUTIONS:
            yield "explicit", dist, dk
            if has_exact_sampler(dist):
                yield "exact", dist, dk


def draw(method, dist, dk, seed, sigma=1.0):
    rng = np.random.default_rng(seed)
    if method == "exact":
        return sample_dot_products_exact(dk, EXACT_N, rng, dist, sigma)
    return sample_dot_products_explicit(dk, EXPLICIT_N[dk], rng, dist, sigma)


@pytest.mark.parametrize("method, dist, dk", list(cases()))
def test_variance_and_mean_within_four_standard_errors(method, dist, dk):
    sigma = 1.5
    x = draw(method, dist, dk, seed=1000 + dk, sigma=sigma)
    assert x.shape == ((EXACT_N if method == "exact" else EXPLICIT_N[dk]),)
    var, se = variance_with_stderr(x)
    theory = dk * sigma**4
    assert theory_variance(dk, sigma) == theory
    assert theory_variance(dk, sigma, scaled=True) == sigma**4
    tolerance = 4 * se
    if dist == "rademacher" and dk == 1:
        # q·k = ±σ² exactly, so x² ≡ σ⁴ and s² = (σ⁴ − x̄²)·n/(n − 1): the whole error
        # comes from the mean, |s² − σ⁴| = |σ⁴ − n·x̄²|/(n − 1), where n·x̄²/σ⁴ ~ χ²₁.
        # The delta-method SE is degenerate here; use (4 SE of the mean)² instead.
        tolerance = 16 * theory / (x.size - 1)
    assert abs(var - theory) <= tolerance, (var, theory, se)
    assert se < 0.1 * theory  # the band is informative
    mean_se = math.sqrt(var / x.size)
    assert abs(x.mean()) <= 4 * mean_se


@pytest.mark.parametrize("dist", DISTRIBUTIONS)
def test_draw_components_mean_zero_sd_sigma(dist):
    sigma = 0.3
    x = draw_components(np.random.default_rng(5), (400_000,), dist, sigma)
    var, se = variance_with_stderr(x)
    assert abs(var - sigma**2) <= 4 * se
    assert abs(x.mean()) <= 4 * math.sqrt(var / x.size)
    if dist == "rademacher":
        assert set(np.unique(x)) == {-sigma, sigma}
    if dist == "uniform":
        assert np.abs(x).max() <= sigma * math.sqrt(3)


# --- explicit sampler memory bound ---------------------------------------------------------

def record_draws(monkeypatch):
    drawn = []
    real = dp.draw_components

    def spy(rng, shape, distribution, sigma):
        a = real(rng, shape, distribution, sigma)
        drawn.append(a)
        return a

    monkeypatch.setattr(dp, "draw_components", spy)
    return drawn


def test_explicit_chunks_stay_within_64_mb(monkeypatch):
    assert dp.EXPLICIT_CHUNK_BYTES == 64 * 2**20
    drawn = record_draws(monkeypatch)
    out = sample_dot_products_explicit(16384, 600, np.random.default_rng(0))
    assert out.shape == (600,)
    qs, ks = drawn[0::2], drawn[1::2]
    assert len(qs) == len(ks) >= 2  # 600 rows of width 16 384 do not fit one 64 MB chunk
    for q, k in zip(qs, ks):
        assert q.nbytes + k.nbytes <= dp.EXPLICIT_CHUNK_BYTES
    assert sum(q.shape[0] for q in qs) == 600


@pytest.mark.parametrize("dist", DISTRIBUTIONS)
@pytest.mark.parametrize("chunk_bytes, dk, n", [(2 * 8 * 8 * 10, 8, 95), (1, 5, 7), (2**12, 3, 1000)])
def test_explicit_with_small_chunks_is_exact_and_complete(monkeypatch, dist, chunk_bytes, dk, n):
    monkeypatch.setattr(dp, "EXPLICIT_CHUNK_BYTES", chunk_bytes)
    drawn = record_draws(monkeypatch)
    out = sample_dot_products_explicit(dk, n, np.random.default_rng(1), dist, 2.0)
    assert out.shape == (n,)
    rows = max(1, chunk_bytes // (2 * 8 * dk))
    qs, ks = drawn[0::2], drawn[1::2]
    assert [q.shape[0] for q in qs] == [min(rows, n - s) for s in range(0, n, rows)]
    for q, k in zip(qs, ks):
        # At least one row per chunk, otherwise q and k fit the budget.
        assert q.shape[0] == 1 or q.nbytes + k.nbytes <= chunk_bytes
    q, k = np.concatenate(qs), np.concatenate(ks)
    np.testing.assert_allclose(out, (q * k).sum(axis=1), rtol=1e-12, atol=1e-12)


def test_explicit_zero_samples_and_bad_arguments():
    rng = np.random.default_rng(0)
    assert sample_dot_products_explicit(4, 0, rng).shape == (0,)
    with pytest.raises(ValueError, match="d_k"):
        sample_dot_products_explicit(0, 10, rng)
    with pytest.raises(ValueError, match="n ≥ 0"):
        sample_dot_products_exact(4, -1, rng)
    with pytest.raises(ValueError, match="distribution"):
        sample_dot_products_explicit(4, 10, rng, "cauchy")
    with pytest.raises(ValueError, match="uniform"):
        sample_dot_products_exact(4, 10, rng, "uniform")


# --- Rademacher lattice --------------------------------------------------------------------

@pytest.mark.parametrize("dk", [1, 2, 7, 64, 16384])
@pytest.mark.parametrize("method", ["exact", "explicit"])
def test_rademacher_values_lie_on_the_lattice(method, dk):
    sigma = 0.7
    rng = np.random.default_rng(dk)
    if method == "exact":
        x = sample_dot_products_exact(dk, 5000, rng, "rademacher", sigma)
    else:
        x = sample_dot_products_explicit(dk, 5000 if dk <= 64 else 200, rng, "rademacher", sigma)
    b = (x / sigma**2 + dk) / 2  # q·k = σ²(2B − d_k), B ∈ {0, …, d_k}
    np.testing.assert_allclose(b, np.round(b), atol=1e-6)
    assert b.min() >= -1e-9 and b.max() <= dk + 1e-9


@pytest.mark.parametrize("method", ["exact", "explicit"])
def test_rademacher_follows_binomial_law(method):
    # B = (q·k/σ² + d)/2 ~ Binomial(d, ½); chi-square over all d + 1 cells.
    dk, n = 8, 40_000
    rng = np.random.default_rng(77)
    sampler = sample_dot_products_exact if method == "exact" else sample_dot_products_explicit
    b = np.round((sampler(dk, n, rng, "rademacher") + dk) / 2).astype(int)
    observed = np.bincount(b, minlength=dk + 1)
    expected = n * np.array([math.comb(dk, i) for i in range(dk + 1)]) / 2**dk
    chi2 = ((observed - expected) ** 2 / expected).sum()
    df = dk
    assert chi2 <= df + 5 * math.sqrt(2 * df)


# --- variance_with_stderr ------------------------------------------------------------------

def test_variance_with_stderr_small_closed_form():
    # x = ±1: s² = 4/3, m₄ = 1, SE² = (1 − (16/9)·(1/3))/4 = 11/108.
    var, se = variance_with_stderr([1.0, -1.0, 1.0, -1.0])
    assert var == pytest.approx(4 / 3, rel=1e-15)
    assert se == pytest.approx(math.sqrt(11 / 108), rel=1e-14)


def test_variance_is_the_unbiased_sample_variance():
    x = np.random.default_rng(3).gamma(2.0, size=1001)
    assert variance_with_stderr(x)[0] == pytest.approx(np.var(x, ddof=1), rel=1e-13)


def test_variance_with_stderr_needs_four_samples():
    with pytest.raises(ValueError, match="at least 4"):
        variance_with_stderr([1.0, 2.0, 3.0])


def test_stderr_matches_normal_theory():
    # For normal data SE(s²) ≈ s²·√(2/(n − 1)). The estimate uses the sample fourth
    # moment m₄ (relative sd √(E[x⁸] − E[x⁴]²)/(E[x⁴]√n) = √96/(3√n) ≈ 1 % at n = 1e5);
    # SE² ∝ m₄ − s⁴ = 2σ⁴ varies by ≈ 1.5 % and SE by ≈ 0.8 %: a 5 % band is > 6 sd.
    n, s = 100_000, 2.5
    x = np.random.default_rng(11).normal(0, s, n)
    var, se = variance_with_stderr(x)
    assert se == pytest.approx(var * math.sqrt(2 / (n - 1)), rel=0.05)


def test_stderr_matches_spread_of_replicates():
    # Monte-Carlo check of the formula itself: 4000 replicate samples of size 40 from a
    # uniform law (μ₄/σ⁴ = 9/5). Exact Var(s²) = σ⁴(μ₄/σ⁴ − (n−3)/(n−1))/n.
    reps, n = 4000, 40
    x = np.random.default_rng(12).uniform(-1, 1, (reps, n))
    results = np.array([variance_with_stderr(row) for row in x])
    sigma4 = (1 / 3) ** 2
    exact_sd = math.sqrt(sigma4 * (9 / 5 - (n - 3) / (n - 1)) / n)
    # sd of the replicate variances: relative SE ≈ √(κ(s²) − 1)/(2√reps) ≲ 2 %.
    assert results[:, 0].std(ddof=1) == pytest.approx(exact_sd, rel=0.08)
    # mean of the reported SE (biased a little low for small n, as a √ of an estimate).
    assert results[:, 1].mean() == pytest.approx(exact_sd, rel=0.08)


# --- dispatcher ----------------------------------------------------------------------------

@pytest.mark.parametrize("dist, method", [("normal", "chi·z"), ("rademacher", "binomial"),
                                          ("uniform", "explicit")])
@pytest.mark.parametrize("dk", [1, 64, 16384])
def test_sample_dot_products_method_and_count(dist, method, dk):
    n = 5000
    x, name = sample_dot_products(dk, n, np.random.default_rng(0), dist)
    assert name == method
    expected = n if dist != "uniform" else min(n, max(64, dp.EXPLICIT_PRODUCT_BUDGET // dk))
    assert x.shape == (expected,)
    if dist == "uniform":  # explicit vectors: the work n·d_k is capped by the budget
        assert x.size * dk <= max(64 * dk, dp.EXPLICIT_PRODUCT_BUDGET)


# --- query × keys score matrices -----------------------------------------------------------

@pytest.mark.parametrize("dist", DISTRIBUTIONS)
def test_sample_query_scores_shape_and_variance(dist):
    dk, trials, keys, sigma = 16, 20_000, 5, 1.3
    s = sample_query_scores(dk, trials, keys, np.random.default_rng(21), dist, sigma)
    assert s.shape == (trials, keys)
    for column in s.T:  # rows are independent, so each column is an i.i.d. sample
        var, se = variance_with_stderr(column)
        assert abs(var - dk * sigma**4) <= 4 * se


@pytest.mark.parametrize("dist, dk, pair_moment", [
    # Entries of one row share the query q: given q they are independent with variance
    # σ²‖q‖², so E[s₁²s₂²] = σ⁴E‖q‖⁴, not (d_k σ⁴)² as for independent pairs.
    ("normal", 1, 1 * 3),             # E‖q‖⁴ = d(d + 2)
    ("normal", 4, 4 * 6),
    ("uniform", 4, 4 * 9 / 5 + 4 * 3),  # d·E[q⁴] + d(d − 1), E[q⁴] = 9/5 σ⁴
    ("rademacher", 4, 16),            # ‖q‖² = d exactly: the entries are independent
])
def test_scores_in_a_row_share_the_query(dist, dk, pair_moment):
    trials = 100_000
    s = sample_query_scores(dk, trials, 2, np.random.default_rng(31), dist)
    prod = s[:, 0] ** 2 * s[:, 1] ** 2
    se = prod.std(ddof=1) / math.sqrt(trials)
    assert abs(prod.mean() - pair_moment) <= 4 * se
    if dist != "rademacher":  # and the dependence is detectable: dk² is far outside
        assert abs(prod.mean() - dk**2) > 6 * se


def test_exact_keys_rows_share_the_norm():
    # keys=m: the normal rows are ‖q‖·z — so E[s₁²s₂²] = d(d + 2) — and the whole
    # matrix still has variance d_k σ⁴ per entry.
    dk, n, sigma = 3, 100_000, 0.8
    s = sample_dot_products_exact(dk, n, np.random.default_rng(41), "normal", sigma, keys=4)
    assert s.shape == (n, 4)
    var, se = variance_with_stderr(s[:, 2])
    assert abs(var - dk * sigma**4) <= 4 * se
    prod = (s[:, 0] * s[:, 3]) ** 2 / sigma**8
    assert abs(prod.mean() - dk * (dk + 2)) <= 4 * prod.std() / math.sqrt(n)


@pytest.mark.parametrize("dist", ["normal", "rademacher"])
def test_sample_query_scores_grid_shape_and_variance(dist):
    dks = np.array([1, 2, 64, 4096, 16384])
    trials, keys, sigma = 20_000, 3, 2.0
    s = sample_query_scores_grid(dks, trials, keys, np.random.default_rng(51), dist, sigma)
    assert s.shape == (dks.size, trials, keys)
    for i, dk in enumerate(dks):
        var, se = variance_with_stderr(s[i, :, 0])
        assert abs(var - dk * sigma**4) <= 4 * se, (dk, var, se)
    if dist == "rademacher":
        b = (s / sigma**2 + dks[:, None, None]) / 2
        np.testing.assert_array_equal(b, np.round(b))
    # Rows share ‖q‖ at d_k = 1 for the normal law: E[s₁²s₂²] = 3σ⁸ (vs σ⁸ if independent).
    prod = s[0, :, 0] ** 2 * s[0, :, 1] ** 2 / sigma**8
    expected = 3.0 if dist == "normal" else 1.0
    assert abs(prod.mean() - expected) <= 4 * prod.std() / math.sqrt(trials) + 1e-12


def test_sample_query_scores_grid_rejects_uniform():
    with pytest.raises(ValueError, match="uniform"):
        sample_query_scores_grid([1, 2], 4, 3, np.random.default_rng(0), "uniform")
