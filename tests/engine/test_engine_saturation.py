"""engine.saturation: softmax saturates as d_k grows unless the scores are divided by √d_k.

Quartiles from the engine are checked against reference distributions simulated here
directly from the definition (explicit q, k vectors and a textbook softmax). A sample
quantile q̂_α of m trials satisfies F(q̂_α) ≈ α ± √(α(1−α)/m), whatever the law F, so
the test is |F_ref(q̂_α) − α| ≤ 4·√(α(1−α)/m) + (reference error).
"""
import math

import numpy as np
import pytest

from engine.saturation import DK_GRID, METRICS, Quartiles, saturation_study

KEYS = 8
TRIALS = 256


@pytest.fixture(scope="module")
def studies():
    return {dist: saturation_study(KEYS, np.random.default_rng(2024), distribution=dist,
                                   trials=TRIALS)
            for dist in ("normal", "uniform", "rademacher")}


def textbook_metrics(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p = e / e.sum(axis=-1, keepdims=True)
    jac = p[..., :, None] * (np.eye(p.shape[-1]) - p[..., None, :])  # diag(p) − ppᵀ
    return {"max_prob": p.max(axis=-1), "jacobian_norm": np.sqrt((jac**2).sum(axis=(-2, -1)))}


def reference_scores(dk, m, rng, scaled, chunk=25_000):
    """m explicit queries against KEYS explicit keys, normal components, σ = 1. The keys are
    drawn `chunk` queries at a time (the same numbers as one draw) and each block of dot
    products is one matrix product, not an (m, KEYS, dk) temporary."""
    q = rng.standard_normal((m, 1, dk))
    s = np.empty((m, KEYS))
    for start in range(0, m, chunk):
        k = rng.standard_normal((min(chunk, m - start), KEYS, dk))
        s[start:start + len(k)] = np.einsum("mkd,md->mk", k, q[start:start + len(k), 0])
    return s / math.sqrt(dk) if scaled else s


def quantile_band_ok(reference, estimate, alpha, m):
    f = np.mean(reference <= estimate)
    ref_err = 4 * math.sqrt(alpha * (1 - alpha) / reference.size)
    return abs(f - alpha) <= 4 * math.sqrt(alpha * (1 - alpha) / m) + ref_err


def test_grid_is_powers_of_two_to_16384():
    assert DK_GRID[0] == 1 and DK_GRID[-1] == 16384 and 4096 in DK_GRID
    assert all(b == 2 * a for a, b in zip(DK_GRID, DK_GRID[1:]))


@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
def test_structure_and_quartile_order(studies, dist):
    study = studies[dist]
    assert set(study) == {(m, s) for m in METRICS for s in (False, True)}
    for (metric, scaled), q in study.items():
        assert isinstance(q, Quartiles)
        for a in (q.q25, q.median, q.q75):
            assert a.shape == (len(DK_GRID),) and np.all(np.isfinite(a))
        assert np.all(q.q25 <= q.median) and np.all(q.median <= q.q75)
    # Closed-form ranges: 1/n ≤ max p ≤ 1, 0 ≤ H ≤ ln n, ‖J‖_F ≥ 0.
    for scaled in (False, True):
        mp = study["max_prob", scaled]
        assert np.all(mp.q25 >= 1 / KEYS - 1e-12) and np.all(mp.q75 <= 1.0)
        h = study["entropy", scaled]
        assert np.all(h.q25 >= -1e-12) and np.all(h.q75 <= math.log(KEYS) + 1e-12)
        assert np.all(study["jacobian_norm", scaled].q25 >= 0)


@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
def test_scaling_is_the_identity_at_dk1(studies, dist):
    # √1 = 1 and both variants use the same sampled scores.
    for metric in METRICS:
        a, b = studies[dist][metric, False], studies[dist][metric, True]
        assert a.median[0] == b.median[0] and a.q25[0] == b.q25[0] and a.q75[0] == b.q75[0]


@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
def test_unscaled_saturates(studies, dist):
    mp = studies[dist]["max_prob", False].median
    jn = studies[dist]["jacobian_norm", False].median
    h = studies[dist]["entropy", False].median
    every_4x = mp[::2]  # d_k = 1, 4, 16, …, 16 384
    # Clear rise while far from 1, then non-decreasing up to noise: the uniform law uses
    # as few as 16 trials at large d_k, and medians there differ from 1 by < 1e-3.
    assert np.all(np.diff(every_4x[:4]) > 0.05)
    assert np.all(np.diff(every_4x) > -1e-3)
    assert mp[0] < 0.6 and mp[-1] > 0.999
    # ‖J‖ falls towards 0 (it first rises slightly off near-uniform rows at tiny d_k).
    dk = np.asarray(DK_GRID)
    assert np.all(jn[dk >= 1024] < 0.01 * jn[0])
    if dist != "uniform":  # 256 trials at every d_k: strictly decreasing in 16× steps
        assert np.all(np.diff(jn[4::4]) < 0)  # d_k = 16, 256, 4096
    # At d_k = 16 384 the score gap is ~128× the unit-variance gap: ‖J‖ and H ≈ 0.
    assert jn[-1] < 1e-6 and h[-1] < 1e-5


@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
def test_scaled_medians_stay_flat(studies, dist):
    # The scaled scores have variance σ⁴ at every d_k, but their law is not normal at
    # d_k = 1 (a product law; a ±1 lattice for Rademacher), so the d_k = 1 median may sit
    # up to about one interquartile range away from the large-d_k one; allow 1.5 IQR.
    for metric in METRICS:
        q = studies[dist][metric, True]
        spread = max(q.q75[0] - q.q25[0], q.q75[-1] - q.q25[-1])
        assert abs(q.median[-1] - q.median[0]) <= 1.5 * spread, metric
    scaled = studies[dist]["max_prob", True].median
    unscaled = studies[dist]["max_prob", False].median
    assert np.all(scaled < 0.6)
    assert abs(scaled[-1] - scaled[0]) < 0.25 * abs(unscaled[-1] - unscaled[0])


def test_normal_quartiles_match_a_direct_simulation(studies):
    rng = np.random.default_rng(99)
    study = studies["normal"]
    for dk, index in ((1, 0), (64, DK_GRID.index(64))):
        for scaled in (False, True):
            ref = textbook_metrics(reference_scores(dk, 20_000, rng, scaled))
            for metric in ("max_prob", "jacobian_norm"):
                q = study[metric, scaled]
                for alpha, est in ((0.25, q.q25), (0.5, q.median), (0.75, q.q75)):
                    assert quantile_band_ok(ref[metric], est[index], alpha, TRIALS), \
                        (dk, scaled, metric, alpha)


def test_scaled_large_dk_matches_iid_unit_normal_scores(studies):
    # At d_k = 16 384, q·k_j/√d_k = (‖q‖/√d_k)·z_j with ‖q‖/√d_k = 1 ± 0.6 %: the scaled
    # scores are i.i.d. N(0, 1) up to that factor.
    rng = np.random.default_rng(7)
    ref = textbook_metrics(rng.standard_normal((40_000, KEYS)))
    for metric in ("max_prob", "jacobian_norm"):
        q = studies["normal"][metric, True]
        for alpha, est in ((0.25, q.q25), (0.5, q.median), (0.75, q.q75)):
            assert quantile_band_ok(ref[metric], est[-1], alpha, TRIALS), (metric, alpha)


def test_temperature_flattens():
    # At T = 100 and d_k = 1 every p_i is within e^{±R/T}/n of 1/n, R = score range.
    hot = saturation_study(KEYS, np.random.default_rng(3), temperature=100.0, trials=64,
                           grid=(1, 16))
    assert np.all(hot["max_prob", False].median < 0.2)
    assert np.all(np.abs(hot["entropy", True].median - math.log(KEYS)) < 0.01)
    cold = saturation_study(KEYS, np.random.default_rng(3), temperature=0.01, trials=64, grid=(1,))
    assert cold["max_prob", True].median[0] > 0.99


@pytest.mark.parametrize("dist", ["normal", "rademacher"])
def test_metrics_depend_on_sigma_squared_over_temperature(dist):
    # Scores scale by σ² and softmax divides them by T: (σ = 2, T = 4) draws the same
    # samples as (σ = 1, T = 1) times 4, then divides by 4 — exact in binary floating point.
    grid = (1, 8, 64)
    a = saturation_study(4, np.random.default_rng(5), 1.0, dist, 1.0, trials=32, grid=grid)
    b = saturation_study(4, np.random.default_rng(5), 4.0, dist, 2.0, trials=32, grid=grid)
    for key in a:
        assert a[key].median.shape == (len(grid),)
        np.testing.assert_allclose(b[key].median, a[key].median, rtol=1e-12, atol=1e-300)
        np.testing.assert_allclose(b[key].q25, a[key].q25, rtol=1e-12, atol=1e-300)


def test_trial_counts_say_what_was_scored():
    from engine.saturation import UNIFORM_BUDGET, trial_counts

    assert list(trial_counts("normal", 8, 128)) == [128] * len(DK_GRID)
    assert list(trial_counts("rademacher", 8, 128)) == [128] * len(DK_GRID)
    counts = trial_counts("uniform", 8, 128)
    for dk, m in zip(DK_GRID, counts):
        assert m == min(128, max(16, UNIFORM_BUDGET // (dk * 9)))
    assert counts[0] == 128 and counts[-1] == 16   # the uniform law cuts 128 to 16 at 16 384
    # The study really scores that many queries: its quartiles come from `counts` samples,
    # so the confidence ranks (which depend on the count) match.
    study = saturation_study(8, np.random.default_rng(1), distribution="uniform", trials=128)
    assert study["max_prob", False].median.shape == (len(DK_GRID),)


@pytest.mark.parametrize("n", [16, 17, 128, 256, 1000])
def test_median_confidence_ranks_cover_95_percent(n):
    from engine.live_scores import binomial_half_cdf
    from engine.saturation import median_ci_ranks

    j, k = median_ci_ranks(n)
    assert 0 <= j < n // 2 <= k < n
    cdf = binomial_half_cdf(n)
    assert cdf[k] - cdf[j] >= 0.95
    # Not needlessly wide: one rank narrower on both sides falls below 95 %.
    assert cdf[k - 1] - cdf[j + 1] < 0.95


def test_median_interval_covers_the_true_median():
    # The true median of raw max p at d_k = 64 (normal components), from 200 000 explicit
    # queries (its own error is ~0.3 % of the interval width).
    rng = np.random.default_rng(5)
    ref = textbook_metrics(reference_scores(64, 200_000, rng, scaled=False))["max_prob"]
    true_median = float(np.median(ref))
    i = DK_GRID.index(64)
    hits = 0
    for seed in range(40):
        q = saturation_study(KEYS, np.random.default_rng(seed), trials=128)["max_prob", False]
        assert q.median_lo[i] <= q.median[i] <= q.median_hi[i]
        assert q.q25[i] <= q.median_hi[i] and q.median_lo[i] <= q.q75[i]
        hits += q.median_lo[i] <= true_median <= q.median_hi[i]
    assert hits >= 33   # coverage ≥ 95 %: P(Binomial(40, 0.95) ≤ 32) < 0.1 %
