"""engine.compute: purity, immutability, and agreement of Results with the parts."""
import dataclasses
import math

import numpy as np
import pytest
from tolerances import EPS32, assert_within

from engine import Params, compute, random_scores
from engine.cost import attention_cost
from engine.dot_product import EXPLICIT_PRODUCT_BUDGET, theory_density
from engine.report import results_to_dict
from engine.saturation import DK_GRID, METRICS
from engine.simulation import HISTOGRAM_BINS, HISTOGRAM_SPAN
from engine.softmax import entropy, jacobian_norm, max_probability, softmax


def arrays_in(obj, path="r"):
    """Every numpy array reachable from a Results object, with its attribute path."""
    if isinstance(obj, np.ndarray):
        yield path, obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from arrays_in(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from arrays_in(v, f"{path}[{k!r}]")


@pytest.fixture(scope="module")
def default_results():
    return compute(Params())


def test_every_array_is_read_only(default_results):
    found = dict(arrays_in(default_results))
    assert len(found) > 30  # softmax, histograms, 18 quartile arrays, multi-head matrices
    for path, a in found.items():
        assert not a.flags.writeable, path
        with pytest.raises(ValueError):
            a[(0,) * a.ndim] = 1.0


def test_results_are_frozen(default_results):
    with pytest.raises(dataclasses.FrozenInstanceError):
        default_results.params = Params(seed=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        default_results.variance.dk = 1


@pytest.mark.parametrize("params", [Params(), Params(distribution="uniform", dk=256, heads=2,
                                                      d_model=512, causal=True, samples=500),
                                    Params(distribution="rademacher", seed=9)])
def test_same_params_identical_results(params):
    a, b = compute(params), compute(params)
    pa, pb = dict(arrays_in(a)), dict(arrays_in(b))
    assert pa.keys() == pb.keys()
    for path in pa:
        np.testing.assert_array_equal(pa[path], pb[path], err_msg=path)
    assert results_to_dict(a) == results_to_dict(b)


def test_different_seeds_differ(default_results):
    other = compute(Params(seed=1))
    assert other.variance.empirical_unscaled != default_results.variance.empirical_unscaled
    assert not np.array_equal(other.multihead.x, default_results.multihead.x)
    assert not np.array_equal(other.saturation.quartiles("max_prob", False).median,
                              default_results.saturation.quartiles("max_prob", False).median)
    # The softmax demo has no randomness.
    np.testing.assert_array_equal(other.softmax.probs_scaled, default_results.softmax.probs_scaled)


def test_streams_are_independent(default_results):
    # Changing the sample count must not move the multi-head or saturation draws.
    other = compute(Params(samples=1234))
    np.testing.assert_array_equal(other.multihead.output, default_results.multihead.output)
    np.testing.assert_array_equal(other.saturation.quartiles("entropy", True).q25,
                                  default_results.saturation.quartiles("entropy", True).q25)


def test_softmax_summary_matches_engine(default_results):
    p = Params()
    sm = default_results.softmax
    assert sm.divisor == math.sqrt(p.dk)
    np.testing.assert_array_equal(sm.probs_unscaled, softmax(p.scores, p.temperature))
    np.testing.assert_array_equal(sm.probs_scaled,
                                  softmax(np.array(p.scores) / math.sqrt(p.dk), p.temperature))
    assert sm.entropy_scaled == pytest.approx(float(entropy(sm.probs_scaled)), rel=1e-15)
    assert sm.max_prob_unscaled == float(max_probability(sm.probs_unscaled))
    assert sm.jacobian_norm_scaled == float(jacobian_norm(sm.probs_scaled))
    # The scores (10, 1, 1, 1): unscaled p₁ = 1/(1 + 3e^{−9}), scaled p₁ = 1/(1 + 3e^{−9/8}).
    assert sm.probs_unscaled[0] == pytest.approx(1 / (1 + 3 * math.exp(-9)), rel=1e-14)
    assert sm.probs_scaled[0] == pytest.approx(1 / (1 + 3 * math.exp(-9 / 8)), rel=1e-14)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("dist, dk", [("normal", 64), ("normal", 16384), ("rademacher", 4096),
                                      ("uniform", 64), ("uniform", 16384)])
def test_variance_result_within_four_se(seed, dist, dk):
    sigma = 0.5
    r = compute(Params(dk=dk, heads=1, d_model=dk, distribution=dist, seed=seed, sigma=sigma,
                       samples=20_000)).variance
    assert r.theory_unscaled == dk * sigma**4 and r.theory_scaled == sigma**4
    assert abs(r.empirical_unscaled - r.theory_unscaled) <= 4 * r.stderr_unscaled
    assert r.empirical_scaled == pytest.approx(r.empirical_unscaled / dk, rel=1e-15)
    assert r.stderr_scaled == pytest.approx(r.stderr_unscaled / dk, rel=1e-15)
    expected_n = 20_000 if dist != "uniform" else min(20_000, max(64, EXPLICIT_PRODUCT_BUDGET // dk))
    assert r.samples == expected_n
    assert r.method == {"normal": "chi·z", "rademacher": "binomial", "uniform": "explicit"}[dist]
    assert r.theory_kind == ("exact" if dist == "normal" else "normal approximation")


@pytest.mark.parametrize("dist", ["normal", "rademacher", "uniform"])
def test_histograms(dist):
    dk, sigma = 64, 1.5
    r = compute(Params(distribution=dist, sigma=sigma, samples=50_000)).variance
    sd = math.sqrt(dk) * sigma**2
    for hist, scale in ((r.hist_unscaled, 1.0), (r.hist_scaled, 1 / math.sqrt(dk))):
        half = HISTOGRAM_SPAN * sd * scale
        assert hist.edges.shape == (HISTOGRAM_BINS + 1,)
        assert hist.edges[0] == pytest.approx(-half) and hist.edges[-1] == pytest.approx(half)
        width = np.diff(hist.edges)
        mass = (hist.density * width).sum()
        # Normalised by all samples: the mass is the fraction inside ±4.5 sd, ≤ 1 and close.
        assert 0.99 < mass <= 1 + 1e-12
        assert hist.theory_x[0] == pytest.approx(-half) and hist.theory_x[-1] == pytest.approx(half)
        expected, _ = theory_density(hist.theory_x, dk, dist, sigma, scaled=scale != 1.0)
        np.testing.assert_allclose(hist.theory_density, expected, rtol=1e-9)
        assert np.trapezoid(hist.theory_density, hist.theory_x) == pytest.approx(1.0, abs=0.002)


def test_saturation_result(default_results):
    sat = default_results.saturation
    np.testing.assert_array_equal(sat.dk_grid, DK_GRID)
    assert sat.keys == Params().keys
    for metric in METRICS:
        for scaled in (False, True):
            q = sat.quartiles(metric, scaled)
            assert q.median.shape == (len(DK_GRID),)
            assert np.all(q.q25 <= q.median) and np.all(q.median <= q.q75)


@pytest.mark.parametrize("kwargs", [dict(), dict(dk=128, heads=4, d_model=512, tokens=3),
                                    dict(dk=1, heads=16384, d_model=16384, causal=True)])
def test_multihead_and_cost_follow_params(kwargs):
    p = Params(**kwargs)
    r = compute(p)
    mh = r.multihead
    assert (mh.d_model, mh.heads, mh.dk) == (p.d_model, p.heads, p.dk)
    assert mh.output_shape == (p.tokens, p.d_model)
    assert mh.reduced == (p.d_model > 1024)
    single = attention_cost(p.d_model, 1, p.seq_len, with_w_o=True)
    multi = attention_cost(p.d_model, p.heads, p.seq_len, with_w_o=True)
    assert r.cost_single == single and r.cost_multi == multi
    assert r.cost_no_output_projection == attention_cost(p.d_model, 1, p.seq_len, with_w_o=False)
    if p.causal:
        i, j = np.triu_indices(p.tokens, 1)
        assert np.all(mh.weights[:, i, j] == 0)


def test_random_scores():
    a = random_scores(64, 8, seed=3)
    assert len(a) == 8 and all(isinstance(v, float) for v in a)
    assert random_scores(64, 8, seed=3) == a and random_scores(64, 8, seed=4) != a
    b = random_scores(16, 2, seed=0, distribution="rademacher", sigma=1.0)
    assert all((v + 16) % 2 == 0 and abs(v) <= 16 for v in b)  # the ±1 lattice 2B − d
    c = random_scores(16, 4, seed=0, distribution="uniform")
    assert len(c) == 4


def test_memoised_variance_equals_a_fresh_study_and_is_reused():
    import numpy as np

    from engine.simulation import variance_for, variance_summary

    args = (96, 5000, 11, "normal", 1.5)
    cached = variance_for(*args)
    rng = np.random.default_rng(np.random.SeedSequence(11, spawn_key=(0,)))
    fresh = variance_summary(96, 5000, rng, "normal", 1.5)
    assert cached.empirical_unscaled == fresh.empirical_unscaled
    np.testing.assert_array_equal(cached.hist_unscaled.density, fresh.hist_unscaled.density)
    assert variance_for(*args) is cached
    assert compute(Params(dk=96, heads=1, d_model=96, samples=5000, seed=11, sigma=1.5)
                   ).variance is cached


def test_seeded_matrices_are_corners_of_one_draw_scaled_by_fan_in():
    from engine.multihead import LEVEL_VARIANCE_FACTOR, seeded_draw, seeded_matrices

    wide = seeded_matrices(5, 6, 768)          # every width: a corner of the same numbers
    x_wider, levels_wider = seeded_draw(5, 6, 1000)
    np.testing.assert_array_equal(seeded_draw(5, 6, 768)[1], levels_wider[:, :768, :768])
    np.testing.assert_array_equal(seeded_draw(5, 6, 768)[0], x_wider[:, :768])
    assert seeded_draw(5, 7, 768)[1].tobytes() == levels_wider[:, :768, :768].tobytes()  # X only
    for width in (768, 700, 640, 513, 512, 64, 1):
        x, *weights = seeded_matrices(5, 6, width)
        np.testing.assert_array_equal(x, wide[0][:, :width])
        for w, w_wide in zip(weights, wide[1:]):
            assert w.shape == (width, width) and not w.flags.writeable
            # the same levels, rescaled from a = √(3/768) to a = √(3/width). Each side is
            # (i + ½)·a/128 after float32 roundings: w two (the constant, the product), the
            # rescaled one four (two constants, two products): within 6u = 3ε of it, relative
            # (the factor 1 + 4ε covers the second-order terms).
            rescaled = w_wide[:width, :width] * math.sqrt(768 / width)
            assert rescaled.dtype == np.float32
            assert_within(w, rescaled, 3 * EPS32 * (1 + 4 * EPS32) * np.abs(rescaled), "rescaled")
    def assert_fan_in_variance(m):
        # fan-in: Var = (1 − 2⁻¹⁶)/width for the uniform levels; a sample variance of N
        # entries of a uniform law scatters by σ²·√(0.8/N) (μ₄ = 9σ⁴/5): within 4 of those.
        theory = LEVEL_VARIANCE_FACTOR / m.shape[0]
        assert abs(m.astype(np.float64).var() - theory) <= 4 * theory * math.sqrt(0.8 / m.size)

    w_q = seeded_matrices(5, 6, 640)[1]
    assert_fan_in_variance(w_q)
    assert seeded_matrices(5, 6, 640) is seeded_matrices(5, 6, 640)
    assert not np.array_equal(seeded_matrices(6, 6, 640)[1], w_q)
    w = seeded_matrices(5, 6, 512)
    assert_fan_in_variance(w[1])
    assert not np.array_equal(w[1], w[2])


@pytest.mark.parametrize("sigma", [0.5, 1.0, 2.0])
def test_variance_theory_follows_sigma(sigma):
    v = compute(Params(dk=16, heads=4, d_model=64, sigma=sigma, samples=50_000)).variance
    assert v.sigma == sigma
    assert v.theory_unscaled == 16 * sigma**4 and v.theory_scaled == sigma**4
    assert abs(v.empirical_unscaled - v.theory_unscaled) <= 4 * v.stderr_unscaled


@pytest.mark.parametrize("dk", [1, 4, 16, 183, 184, 1024])
def test_rademacher_pmf_is_the_exact_law(dk):
    from engine.simulation import PMF_STEMS_MAX_DK

    sigma = 1.5
    v = compute(Params(dk=dk, heads=1, d_model=dk, distribution="rademacher", sigma=sigma,
                       samples=40_000)).variance
    pmf = v.pmf_unscaled
    b = (pmf.x / sigma**2 + dk) / 2                      # x = σ²(2b − d_k)
    np.testing.assert_allclose(b, np.round(b), atol=1e-9)
    exact = np.array([math.comb(dk, int(round(k))) / 2**dk for k in b])
    np.testing.assert_allclose(pmf.prob, exact, rtol=1e-9)
    assert pmf.spacing == 2 * sigma**2
    half = v.hist_unscaled.edges[-1]
    assert np.all(np.abs(pmf.x) <= half) and pmf.prob.sum() > 0.9999  # ±4.5 SD holds it all
    np.testing.assert_allclose(v.pmf_scaled.x, pmf.x / math.sqrt(dk), rtol=1e-12)
    assert v.pmf_scaled.spacing == pytest.approx(pmf.spacing / math.sqrt(dk), rel=1e-12)
    # Stems where some bins fall between lattice points: bin width < spacing.
    width = v.hist_unscaled.edges[1] - v.hist_unscaled.edges[0]
    assert (v.theory_kind == "exact pmf") == (dk <= PMF_STEMS_MAX_DK) == (width < pmf.spacing)
    if v.theory_kind != "exact pmf":
        assert v.theory_kind == "normal approximation"
    # The sampled histogram agrees with the pmf: each bin's mass is the sum of its points'.
    counts = v.hist_unscaled.density * width
    expected = np.histogram(pmf.x, bins=v.hist_unscaled.edges, weights=pmf.prob)[0]
    n = v.samples
    assert np.all(np.abs(counts - expected) <= 5 * np.sqrt(expected * (1 - expected) / n) + 1e-3)


def test_normal_pmf_absent_and_dk1_density_unbounded():
    v1 = compute(Params(dk=1, heads=1, d_model=1)).variance
    assert v1.theory_kind == "exact" and v1.theory_bounded is False and v1.pmf_unscaled is None
    assert compute(Params(dk=2, heads=1, d_model=2)).variance.theory_bounded is True
    assert compute(Params(dk=1, heads=1, d_model=1, distribution="rademacher")).variance.theory_bounded
    assert compute(Params(dk=1, heads=1, d_model=1, distribution="uniform")).variance.theory_bounded


def test_jacobian_with_respect_to_raw_scores_by_finite_differences():
    from engine.simulation import softmax_summary

    s, dk, t = np.array([3.0, 1.0, -0.5, 0.2]), 16, 1.7
    sm = softmax_summary(s, dk, t)
    h = 1e-6
    for scaled, value in ((False, sm.jacobian_norm_raw_unscaled), (True, sm.jacobian_norm_raw_scaled)):
        divisor = math.sqrt(dk) if scaled else 1.0
        jac = np.empty((4, 4))
        for j in range(4):
            e = np.zeros(4)
            e[j] = h
            jac[:, j] = (softmax((s + e) / divisor, t) - softmax((s - e) / divisor, t)) / (2 * h)
        assert value == pytest.approx(float(np.linalg.norm(jac)), rel=1e-6)
    assert sm.jacobian_norm_raw_scaled == pytest.approx(sm.jacobian_norm_scaled / (t * 4), rel=1e-15)


def test_saturation_reports_real_trial_counts():
    r = compute(Params(distribution="uniform"))
    sat = r.saturation
    assert sat.trials == 128 and sat.trials_per_dk[0] == 128 and sat.trials_per_dk[-1] == 16
    assert compute(Params()).saturation.trials_per_dk.tolist() == [128] * len(DK_GRID)


def test_compute_follows_kv_heads_and_scale_by():
    p = Params(kv_heads=2, scale_by="d_model", cached_layers=6)
    r = compute(p)
    assert r.cost_multi.kv_heads == 2 and r.cost_multi.params == 2 * 512**2 + 2 * 512 * 2 * 64
    assert r.multihead.kv_heads == 2 and r.multihead.w_k.shape == (512, 128)
    assert r.multihead.divisor == math.sqrt(512)
    assert r.memory.cache_per_token[16] == 2 * 6 * 2 * 64 * 2
    assert r.memory.scores[16] == 8 * 512**2 * 2
    # The matrices are the same draw: only K/V width and divisor change.
    base = compute(Params())
    np.testing.assert_array_equal(r.multihead.w_q, base.multihead.w_q)
    assert base.multihead.divisor == 8.0


@pytest.mark.parametrize("temperature", [1.0, 2.5])
def test_saturation_jacobian_with_respect_to_raw_scores(temperature):
    sat = compute(Params(temperature=temperature)).saturation
    assert sat.temperature == temperature
    for scaled in (False, True):
        raw = sat.jacobian_wrt_raw_scores(scaled)
        plotted = sat.quartiles("jacobian_norm", scaled)
        factor = temperature * (np.sqrt(sat.dk_grid) if scaled else 1.0)
        for name in ("q25", "median", "q75", "median_lo", "median_hi"):
            np.testing.assert_allclose(getattr(raw, name) * factor, getattr(plotted, name),
                                       rtol=1e-15)
    # At d_k = 1 scaling is the identity, so the two agree there.
    assert sat.jacobian_wrt_raw_scores(True).median[0] == pytest.approx(
        sat.jacobian_wrt_raw_scores(False).median[0], rel=1e-15)
