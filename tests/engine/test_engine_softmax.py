"""engine.softmax against closed forms: normalisation, stability, temperature limits,
entropy, max-probability and the Jacobian diag(p) − ppᵀ."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.softmax import entropy, jacobian_norm, max_probability, softmax, softmax_jacobian

finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)
score_lists = st.lists(finite, min_size=1, max_size=16)
wide = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)


def reference_softmax(s, t=1.0):
    """Textbook form, evaluated in extended precision on small inputs."""
    s = np.asarray(s, dtype=np.longdouble) / t
    e = np.exp(s - s.max())
    return (e / e.sum()).astype(np.float64)


# --- normalisation and numerical stability -------------------------------------------------

@pytest.mark.parametrize("shape", [(1,), (2,), (7,), (3, 5), (2, 3, 4)])
def test_sums_to_one_on_last_axis(shape):
    s = np.random.default_rng(0).normal(0, 10, shape)
    p = softmax(s)
    assert p.shape == s.shape
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, rtol=0, atol=1e-14)
    assert np.all(p >= 0)


def test_batch_rows_equal_single_rows():
    s = np.random.default_rng(1).normal(0, 3, (4, 6))
    np.testing.assert_array_equal(softmax(s), np.stack([softmax(row) for row in s]))


def test_matches_textbook_formula():
    s = [0.5, -1.0, 2.0, 0.0]
    e = np.exp(s)
    np.testing.assert_allclose(softmax(s), e / e.sum(), rtol=1e-15)


def test_single_entry_is_one():
    assert softmax([123.0]).tolist() == [1.0]


@pytest.mark.parametrize("scores, expected", [
    ([1e300, 0.0], [1.0, 0.0]),
    ([-1e300, 0.0], [0.0, 1.0]),
    ([1e300, -1e300], [1.0, 0.0]),
    ([-1e300, 1e300, -1e300], [0.0, 1.0, 0.0]),
    ([1e308, -1e308], [1.0, 0.0]),          # s − max = −2e308 overflows to −inf; exp(−inf) = 0
    ([1e300, 1e300], [0.5, 0.5]),
    ([-1e300, -1e300, -1e300, -1e300], [0.25] * 4),
])
def test_extreme_magnitudes_are_stable(scores, expected):
    p = softmax(scores)
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p, expected, rtol=0, atol=1e-300)


@pytest.mark.parametrize("scores, t", [([1e308, -1e308], 1.0), ([1e307, -1e307], 0.01)])
def test_overflow_to_minus_inf_is_silent(scores, t):
    # s − max (or (s − max)/T) overflows to −inf, whose exp is exactly the right limit 0.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert softmax(scores, t).tolist() == [1.0, 0.0]


def test_mixed_signs_large_magnitudes():
    # Differences of 1 between huge equal-magnitude values are lost at 1e300 (spacing ≫ 1),
    # but the result must still be a finite probability vector putting its mass on the max.
    s = np.array([-5e299, 1e300, 3.0, -2.0, 1e300 * 0.999])
    p = softmax(s)
    assert np.all(np.isfinite(p))
    assert p.sum() == pytest.approx(1.0, abs=1e-15)
    assert p[1] == 1.0


def test_ten_thousand_entries():
    rng = np.random.default_rng(2)
    s = rng.normal(0, 50, 10_000)
    p = softmax(s)
    assert np.all(np.isfinite(p)) and np.all(p >= 0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(p, reference_softmax(s), rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose(softmax(np.zeros(10_000)), 1e-4, rtol=1e-12)
    spread = softmax(np.linspace(-1e300, 1e300, 10_000))
    assert spread[-1] == 1.0 and spread[:-1].max() == 0.0


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_scores_raise_clear_error(bad):
    with pytest.raises(ValueError, match="NaN or ±inf"):
        softmax([1.0, bad, 2.0])
    with pytest.raises(ValueError, match="finite"):
        softmax(np.array([[0.0, 1.0], [bad, 0.0]]))


@pytest.mark.parametrize("temperature", [0.0, -1.0, float("nan"), float("inf"), -float("inf")])
def test_bad_temperature_raises(temperature):
    with pytest.raises(ValueError, match="temperature"):
        softmax([1.0, 2.0], temperature)


def test_empty_input_raises():
    with pytest.raises(ValueError, match="at least one"):
        softmax([])
    with pytest.raises(ValueError, match="at least one"):
        softmax(3.0)


def test_input_is_not_modified():
    s = np.array([3.0, 1.0, -2.0])
    copy = s.copy()
    softmax(s, 0.5)
    np.testing.assert_array_equal(s, copy)


# --- temperature ---------------------------------------------------------------------------

def test_temperature_divides_scores():
    s = np.array([2.0, -1.0, 0.5])
    np.testing.assert_allclose(softmax(s, 2.5), softmax(s / 2.5), rtol=1e-15)


@pytest.mark.parametrize("t", [10.0, 1e3, 1e6, 1e12])
def test_high_temperature_tends_to_uniform(t):
    # p_i / p_j = exp((s_i − s_j)/T), so every p_i lies in [e^{−R/T}/n, e^{R/T}/n], R = range.
    s = np.array([5.0, -3.0, 0.0, 2.0, 1.0])
    n, r = s.size, np.ptp(s)
    p = softmax(s, t)
    assert np.all(p >= math.exp(-r / t) / n * (1 - 1e-14))
    assert np.all(p <= math.exp(r / t) / n * (1 + 1e-14))
    assert entropy(p) >= math.log(n) - r / t  # H ≥ −ln max p ≥ ln n − R/T


@pytest.mark.parametrize("t", [1.0, 0.1, 0.01, 1e-4])
def test_low_temperature_tends_to_one_hot(t):
    # 1 − p_max = Σ_{j≠max} p_j ≤ (n − 1)·exp(−gap/T), gap = max − second max.
    s = np.array([3.0, 1.0, 0.0, 2.5])
    gap = 0.5
    p = softmax(s, t)
    assert p.argmax() == 0
    assert 1 - p[0] <= (s.size - 1) * math.exp(-gap / t) * (1 + 1e-12) + 1e-16


@given(delta=st.floats(-50, 50), t=st.floats(0.01, 100))
def test_two_scores_give_the_logistic(delta, t):
    def logistic(x):
        return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))

    p = softmax([delta, 0.0], t)
    assert p[0] == pytest.approx(logistic(delta / t), rel=1e-12, abs=1e-300)
    assert p[1] == pytest.approx(logistic(-delta / t), rel=1e-12, abs=1e-300)


# --- entropy and max-probability -----------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5, 64, 10_000])
def test_entropy_uniform_is_log_n(n):
    p = softmax(np.zeros(n))
    assert entropy(p) == pytest.approx(math.log(n), abs=1e-12)
    assert max_probability(p) == pytest.approx(1 / n, rel=1e-12)


@pytest.mark.parametrize("n", [1, 2, 9])
def test_one_hot_has_zero_entropy_and_max_one(n):
    p = np.zeros(n)
    p[n // 2] = 1.0
    assert entropy(p) == 0.0
    assert max_probability(p) == 1.0
    assert entropy(softmax(np.r_[0.0, np.full(n, -1e300)])) == 0.0


@given(a=st.floats(1e-9, 1 - 1e-9))
def test_entropy_two_point_closed_form(a):
    expected = -a * math.log(a) - (1 - a) * math.log(1 - a)
    assert entropy([a, 1 - a]) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_entropy_and_max_probability_act_on_last_axis():
    p = np.array([[0.5, 0.5, 0.0, 0.0], [0.25] * 4, [0.7, 0.1, 0.1, 0.1]])
    np.testing.assert_allclose(entropy(p), [math.log(2), math.log(4),
                                            -0.7 * math.log(0.7) - 0.3 * math.log(0.1)], rtol=1e-14)
    np.testing.assert_array_equal(max_probability(p), [0.5, 0.25, 0.7])


@given(score_lists)
def test_entropy_and_max_probability_bounds(s):
    p = softmax(s)
    n = len(s)
    h = entropy(p)
    assert -1e-12 <= h <= math.log(n) + 1e-12
    m = max_probability(p)
    assert 1 / n - 1e-12 <= m <= 1.0
    assert h >= -math.log(m) - 1e-12  # Shannon ≥ min-entropy


# --- Jacobian ------------------------------------------------------------------------------

def test_jacobian_is_diag_minus_outer():
    p = softmax([1.0, -0.5, 2.0, 0.0])
    np.testing.assert_allclose(softmax_jacobian(p), np.diag(p) - np.outer(p, p), rtol=0, atol=1e-16)


def test_jacobian_batches():
    p = softmax(np.random.default_rng(3).normal(size=(2, 3, 5)))
    jac = softmax_jacobian(p)
    assert jac.shape == (2, 3, 5, 5)
    for i in range(2):
        for j in range(3):
            np.testing.assert_allclose(jac[i, j], np.diag(p[i, j]) - np.outer(p[i, j], p[i, j]),
                                       atol=1e-17)


def finite_difference_jacobian(s, t=1.0, h=1e-6):
    s = np.asarray(s, dtype=np.float64)
    cols = []
    for j in range(s.size):
        step = np.zeros_like(s)
        step[j] = h
        cols.append((softmax(s + step, t) - softmax(s - step, t)) / (2 * h))
    return np.stack(cols, axis=1)  # column j = ∂p/∂s_j


@pytest.mark.parametrize("s", [[0.0, 0.0, 0.0], [1.0, -0.5, 2.0, 0.0], [4.0, 3.0, -1.0, 0.5, 0.2]])
def test_jacobian_matches_finite_differences(s):
    # Central differences: truncation O(h²) ≈ 1e-12, rounding O(ε/h) ≈ 1e-10.
    np.testing.assert_allclose(softmax_jacobian(softmax(s)), finite_difference_jacobian(s),
                               rtol=0, atol=1e-8)


def test_jacobian_with_temperature_has_factor_one_over_t():
    s, t = [1.0, -0.5, 2.0, 0.0], 2.5
    np.testing.assert_allclose(softmax_jacobian(softmax(s, t)) / t,
                               finite_difference_jacobian(s, t), rtol=0, atol=1e-8)


@given(score_lists)
def test_jacobian_norm_equals_frobenius_of_full_matrix(s):
    p = softmax(s)
    assert jacobian_norm(p) == pytest.approx(np.linalg.norm(softmax_jacobian(p)), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 8, 100, 4096])
def test_jacobian_norm_at_uniform(n):
    p = np.full(n, 1 / n)
    assert jacobian_norm(p) == pytest.approx(math.sqrt(n - 1) / n, rel=1e-10, abs=1e-15)
    if n <= 100:  # the full n×n matrix is small enough to form
        assert np.linalg.norm(softmax_jacobian(p)) == pytest.approx(math.sqrt(n - 1) / n,
                                                                    rel=1e-10, abs=1e-15)


@given(x=st.floats(0, 300))
def test_jacobian_norm_two_point_closed_form_down_to_saturation(x):
    # p = (1 − a, a) gives J = a(1 − a)·[[1, −1], [−1, 1]], so ‖J‖_F = 2a(1 − a): full
    # relative precision is needed where softmax saturates (a = e^{−300} ≈ 5e-131 here).
    a = math.exp(-x) / (1 + math.exp(-x))
    p = softmax([0.0, -x])
    expected = 2 * a * (1 - a)
    assert jacobian_norm(p) == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(softmax_jacobian(p), expected / 2 * np.array([[1, -1], [-1, 1]]),
                               rtol=1e-12, atol=0)


def test_jacobian_norm_saturated_rows_keep_relative_precision():
    # One dominant entry and tiny others: ‖J‖_F² = Σ_i p_i²[(1 − p_i)² + Σ_{j≠i} p_j²], with
    # 1 − p_max = Σ_{j≠max} p_j; evaluated in exact rational arithmetic for the reference.
    from fractions import Fraction
    small = [Fraction(1, 10**12), Fraction(3, 10**13), Fraction(7, 10**15)]
    p = [1 - sum(small)] + small
    exact = sum(pi**2 * ((1 - pi)**2 + sum(pj**2 for j, pj in enumerate(p) if j != i))
                for i, pi in enumerate(p))
    value = jacobian_norm(np.array([float(v) for v in p]))
    assert value == pytest.approx(math.sqrt(exact), rel=1e-9)


def test_jacobian_norm_one_hot_is_zero_and_batches():
    p = np.array([[0.0, 1.0, 0.0], [1 / 3] * 3])
    np.testing.assert_allclose(jacobian_norm(p), [0.0, math.sqrt(2) / 3], atol=1e-16)


# --- properties ----------------------------------------------------------------------------

@given(st.lists(wide, min_size=1, max_size=16), st.floats(0.01, 100))
def test_property_sums_to_one(s, t):
    p = softmax(s, t)
    assert np.all(np.isfinite(p)) and np.all(p >= 0)
    assert p.sum() == pytest.approx(1.0, abs=1e-13)


@given(score_lists, st.floats(-1e3, 1e3), st.floats(0.1, 10))
def test_property_shift_invariance(s, c, t):
    # softmax(s + c) = softmax(s); adding c rounds each score by ≤ ε·2e3 ≈ 4.5e-13.
    np.testing.assert_allclose(softmax(np.add(s, c), t), softmax(s, t), rtol=1e-9, atol=1e-12)


@given(score_lists, st.lists(st.floats(0.01, 100), min_size=2, max_size=8))
def test_property_entropy_non_decreasing_in_temperature(s, temps):
    # dH/dT = Var_p(s)/T³ ≥ 0: raising T flattens softmax.
    h = [float(entropy(softmax(s, t))) for t in sorted(temps)]
    assert all(b >= a - 1e-9 for a, b in zip(h, h[1:]))


def test_shift_invariance_of_the_article_example():
    # (100, 91, 91, 91) is (10, 1, 1, 1) shifted by 90: the same distribution, not "more one-hot".
    np.testing.assert_allclose(softmax([100.0, 91, 91, 91]), softmax([10.0, 1, 1, 1]), rtol=1e-14)
    p = softmax([10.0, 1, 1, 1])
    assert p[0] == pytest.approx(1 / (1 + 3 * math.exp(-9)), rel=1e-14)
