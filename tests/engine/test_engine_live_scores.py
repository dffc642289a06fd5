"""engine.live_scores: scores q·k_j coupled across d_k. At each d_k the law is checked
against closed-form moments over many seeds (mean 0, E s² = d_k·σ⁴ within 4 standard
errors, the lattice for ±1 components); across d_k the coupling is checked exactly (the
same underlying z's, key order never reversed for ±1)."""
import dataclasses
import math

import numpy as np
import pytest

from engine import Params, compute, random_scores
from engine.dot_product import binomial_half_pmf
from engine.live_scores import binomial_half_cdf, live_scores
from engine.params import DK_MAX
from engine.simulation import live_scores_for
from engine.softmax import softmax


def test_normal_scores_share_their_z_across_dk():
    # score_j = σ²·‖a‖·z_j: the ratios between keys are the same at every d_k, and the
    # ÷√d_k scores differ only by the factor ‖a‖/√d_k.
    base = live_scores(1, 6, seed=11)
    for dk in (1, 4, 64, 1024, 4096, DK_MAX):
        s = live_scores(dk, 6, seed=11)
        np.testing.assert_allclose(s / s[0], base / base[0], rtol=1e-12)
    # ‖a‖²/d_k has standard deviation √(2/d_k) (4.4 % at 1 024): the scaled scores at
    # d_k ≥ 1 024 agree within 20 % (over 4.5 SD) with those at 16 384.
    top = live_scores(DK_MAX, 6, seed=11) / math.sqrt(DK_MAX)
    for dk in (1024, 4096):
        ratio = live_scores(dk, 6, seed=11) / math.sqrt(dk) / top
        assert np.all(np.abs(ratio - 1) < 0.2)


def centred_log(p):
    logs = np.log(p)
    return logs - logs.mean()


@pytest.mark.parametrize("seed", range(5))
def test_raw_scores_saturate_while_scaled_keep_their_shape(seed):
    small, big = live_scores(4, 8, seed), live_scores(4096, 8, seed)
    # Raw: the same z's times ‖a‖ ≈ 64 instead of ‖a‖ ≈ 2 (χ_4 < 64 always in practice):
    # softmax of a larger multiple of the same vector is sharper.
    assert softmax(big).max() >= softmax(small).max()
    # Scaled: both are softmax of (‖a‖/√d_k)·z, the same z: their log-probabilities are
    # proportional (one shape at two temperatures).
    a, b = centred_log(softmax(small / 2)), centred_log(softmax(big / 64))
    factor = float(np.dot(a, b) / np.dot(a, a))
    np.testing.assert_allclose(b, factor * a, rtol=1e-9, atol=1e-12)
    assert 0 < factor


def test_raw_goes_one_hot_scaled_does_not_over_seeds():
    seeds = range(200)
    raw_4 = np.median([softmax(live_scores(4, 8, s)).max() for s in seeds])
    raw_4096 = np.median([softmax(live_scores(4096, 8, s)).max() for s in seeds])
    scaled_4096 = np.median([softmax(live_scores(4096, 8, s) / 64).max() for s in seeds])
    assert raw_4 < 0.7 and raw_4096 > 1 - 1e-9 and scaled_4096 < 0.5


def test_same_seed_same_scores_other_seed_differs():
    for dist in ("normal", "uniform", "rademacher"):
        a = live_scores(64, 5, 7, dist, 1.5)
        np.testing.assert_array_equal(a, live_scores(64, 5, 7, dist, 1.5))
        assert not np.array_equal(a, live_scores(64, 5, 8, dist, 1.5))


#: Var((q·k)²) = 2·d_k² + c·d_k for σ = 1, from E(q_i k_i)⁴ = (E q⁴)²: 9 (normal),
#: 3.24 (uniform, E q⁴ = 9/5), 1 (±1); c = (E q⁴)² − 3.
FOURTH_MOMENT_TERM = {"normal": 6.0, "uniform": 0.24, "rademacher": -2.0}


@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
@pytest.mark.parametrize("dk", [1, 16, 256])
def test_law_at_each_dk(dist, dk):
    # Over many seeds the first score has mean 0 and E s² = d_k·σ⁴ (within 4 standard errors).
    sigma, seeds = 1.5, 1500
    s = np.array([live_scores(dk, 2, seed, dist, sigma)[0] for seed in range(seeds)])
    var = dk * sigma**4
    se = sigma**4 * math.sqrt((2 * dk * dk + FOURTH_MOMENT_TERM[dist] * dk) / seeds)
    assert abs(np.mean(s * s) - var) <= 4 * se
    assert abs(np.mean(s)) < 4 * math.sqrt(var / seeds)


def test_rademacher_scores_are_binomial_quantiles_of_fixed_uniforms():
    for dk in (1, 2, 7, 100):
        s = live_scores(dk, 16, 5, "rademacher", 1.0)
        assert np.all((s + dk) % 2 == 0) and np.all(np.abs(s) <= dk)
    # Key order never reverses between d_k values (each B_j is monotone in the same u_j).
    a, b = (live_scores(dk, 16, 5, "rademacher") for dk in (400, 4000))
    assert np.all(np.sign(np.subtract.outer(a, a)) * np.sign(np.subtract.outer(b, b)) >= 0)


def test_binomial_half_cdf_and_pmf():
    for n in (1, 5, 30):
        pmf = binomial_half_pmf(n)
        exact = np.array([math.comb(n, b) / 2**n for b in range(n + 1)])
        np.testing.assert_allclose(pmf, exact, rtol=1e-12)
        np.testing.assert_allclose(binomial_half_cdf(n), np.cumsum(exact), rtol=1e-12)
    big = binomial_half_pmf(DK_MAX)
    assert abs(big.sum() - 1) < 1e-10 and np.all(np.isfinite(big))


def test_bad_arguments():
    with pytest.raises(ValueError, match="d_k"):
        live_scores(0, 4, 0)
    with pytest.raises(ValueError, match="distribution"):
        live_scores(4, 4, 0, "cauchy")


def test_compute_uses_live_scores_when_asked():
    p = Params(live_scores=True, dk=256, heads=2, d_model=512, seed=9)
    r = compute(p)
    assert r.softmax.source == "live" and r.softmax.live_method.startswith("χ·z")
    expected = live_scores_for(p)
    assert len(expected) == len(p.scores)
    np.testing.assert_array_equal(r.softmax.scores, expected)
    assert expected == random_scores(p.dk, len(p.scores), p.seed)
    np.testing.assert_allclose(r.softmax.probs_scaled, softmax(np.array(expected) / 16), rtol=1e-14)
    typed = compute(dataclasses.replace(p, live_scores=False))
    assert typed.softmax.source == "typed" and typed.softmax.live_method == ""
    np.testing.assert_array_equal(typed.softmax.scores, p.scores)
    # Moving d_k redraws the live scores from the same z's.
    moved = compute(dataclasses.replace(p, dk=1024, d_model=2048))
    np.testing.assert_allclose(moved.softmax.scores / moved.softmax.scores[0],
                               r.softmax.scores / r.softmax.scores[0], rtol=1e-12)
