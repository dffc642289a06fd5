"""engine.models.score_variance: per-head within-row and pooled score variance, against a
direct loop over rows and the law of total variance; per_head_summary on known arrays.

Tolerances: every quantity is a float64 population variance of at most N = n² values x,
whose rounding is ≤ 2·N·EPS64·mean(x²) (tests/tolerances.py variance_bound's last term);
a sum of two such results is within the sum of their bounds."""
import numpy as np
import pytest
from tolerances import EPS64, assert_within

from engine.models.score_variance import head_score_variance, per_head_summary


def f64_bound(x) -> float:
    x = np.asarray(x, dtype=np.float64)
    return 2 * x.size * EPS64 * float(np.mean(x * x))


def masks(n):
    return {"encoder": np.ones((n, n), dtype=bool), "decoder": np.tri(n, dtype=bool)}


def loop_reference(raw, allowed):
    """Row by row, with np.var on each row's allowed keys; pooled with np.var."""
    within, pooled = [], []
    for s in np.asarray(raw, dtype=np.float64):
        rows = [np.var(s[i, allowed[i]]) for i in range(len(s)) if allowed[i].sum() >= 2]
        within.append(np.mean(rows) if rows else 0.0)
        pooled.append(np.var(s[allowed]))
    return np.array(within), np.array(pooled)


@pytest.mark.parametrize("kind", ["encoder", "decoder"])
def test_matches_a_direct_computation(kind):
    rng = np.random.default_rng(3)
    raw = (rng.normal(size=(5, 9, 9)) * rng.uniform(0.1, 20, size=(5, 1, 1))).astype(np.float32)
    allowed = masks(9)[kind]
    within, pooled = head_score_variance(raw, allowed)
    ref_within, ref_pooled = loop_reference(raw, allowed)
    assert within.shape == pooled.shape == (5,)
    for h in range(5):
        bound = 2 * f64_bound(raw[h][allowed])   # two float64 evaluations of the same value
        assert_within(within[h], ref_within[h], bound, f"within head {h}")
        assert_within(pooled[h], ref_pooled[h], bound, f"pooled head {h}")


def test_row_offsets_leave_within_row_alone_and_add_their_variance_to_pooled():
    """Encoder: P = W + Var_i(m_i). Rows centred to mean 0, then offsets c_i: W is the same
    and P = W + Var(c)."""
    rng = np.random.default_rng(5)
    n = 12
    base = rng.normal(size=(3, n, n)) * 2.0
    base -= base.mean(axis=2, keepdims=True)
    offsets = rng.normal(size=(3, n, 1)) * 7.0
    allowed = masks(n)["encoder"]
    w0, p0 = head_score_variance(base, allowed)
    w1, p1 = head_score_variance(base + offsets, allowed)
    for h in range(3):
        bound = f64_bound(base[h]) + f64_bound(base[h] + offsets[h]) + f64_bound(offsets[h])
        assert_within(w1[h], w0[h], bound, "within-row moved")
        assert_within(p0[h], w0[h], 2 * f64_bound(base[h]), "centred rows: pooled = within")
        assert_within(p1[h], w0[h] + np.var(offsets[h]), bound, "pooled = within + Var(c)")
        assert p1[h] > p0[h] + 0.5 * np.var(offsets[h])


def test_law_of_total_variance_in_a_decoder():
    """Decoder: P = Σ (n_i/N) v_i + Σ (n_i/N)(m_i − m̄)² over every row (the first row's
    v_0 = 0), while W averages v_i over rows i ≥ 1 only."""
    rng = np.random.default_rng(7)
    n = 10
    raw = rng.normal(size=(2, n, n)) * 3 + rng.normal(size=(2, n, 1)) * 4
    allowed = masks(n)["decoder"]
    within, pooled = head_score_variance(raw, allowed)
    counts = allowed.sum(1)
    for h in range(2):
        rows = [raw[h, i, :counts[i]] for i in range(n)]
        v = np.array([r.var() for r in rows])
        m = np.array([r.mean() for r in rows])
        w = counts / counts.sum()
        total = (w * v).sum() + (w * (m - (w * m).sum()) ** 2).sum()
        bound = 2 * f64_bound(raw[h][allowed])
        assert_within(pooled[h], total, bound, "total variance")
        assert_within(within[h], v[1:].mean(), bound, "within-row skips the one-key row")


def test_one_token_and_constant_scores():
    within, pooled = head_score_variance(np.full((2, 1, 1), 3.0), np.ones((1, 1), bool))
    assert within.tolist() == [0.0, 0.0] and pooled.tolist() == [0.0, 0.0]
    within, pooled = head_score_variance(np.full((1, 4, 4), -2.5), np.tri(4, dtype=bool))
    assert within.tolist() == [0.0] and pooled.tolist() == [0.0]


def test_per_head_summary():
    values = np.array([[0.5, 1.0, 108.0, 2.0], [0.9, 3.0, 4.0, 5.0], [1.5, 1.2, 0.8, 1.1]])
    s = per_head_summary(values)
    assert s.medians == (1.5, 3.5, 1.15)
    assert (s.lowest, s.lowest_at, s.highest, s.highest_at) == (0.5, (0, 0), 108.0, (0, 2))
    assert (s.below, s.count, s.reference, s.highest_layer_median) == (3, 12, 1.0, 1.5)
    assert s.highest_over_median == 72.0
    assert per_head_summary(values, reference=32.0).below == 11
    with pytest.raises(ValueError):
        per_head_summary(np.array([[1.0, np.nan]]))
