"""engine.multihead against attention written out by hand."""
import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tolerances import EPS32, EPS64, assert_within, matmul_bound, softmax_bound, variance_bound

from engine.multihead import (
    FULL_WIDTH_LIMIT, REDUCED_WIDTH, attention, computed_shape, concat_heads, fan_in_uniform,
    multi_head_attention, run_multihead, split_heads,
)
from engine.params import divisors


def hand_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def random_weights(d, seed=0, n=5):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w = [rng.standard_normal((d, d)) / math.sqrt(d) for _ in range(4)]
    return x, w


def test_single_head_equals_textbook_attention():
    d, n = 12, 5
    x, (wq, wk, wv, wo) = random_weights(d)
    out = multi_head_attention(x, wq, wk, wv, wo, heads=1)
    q, k, v = x @ wq, x @ wk, x @ wv
    weights = hand_softmax(q @ k.T / math.sqrt(d))
    expected = weights @ v @ wo
    np.testing.assert_allclose(out["weights"][0], weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(out["output"], expected, rtol=1e-10, atol=1e-12)
    assert out["output"].shape == (n, d)


@pytest.mark.parametrize("heads", [1, 2, 3, 4, 6, 12])
@pytest.mark.parametrize("causal", [False, True])
def test_each_head_uses_its_column_block(heads, causal):
    d, n, t = 12, 6, 0.7
    x, (wq, wk, wv, wo) = random_weights(d, seed=heads, n=n)
    out = multi_head_attention(x, wq, wk, wv, wo, heads, temperature=t, causal=causal)
    dk = d // heads
    heads_by_hand = []
    for i in range(heads):
        cols = slice(i * dk, (i + 1) * dk)
        q, k, v = x @ wq[:, cols], x @ wk[:, cols], x @ wv[:, cols]
        s = q @ k.T / (math.sqrt(dk) * t)
        if causal:
            s = np.where(np.triu(np.ones((n, n), bool), 1), -np.inf, s)
        w = hand_softmax(s)
        np.testing.assert_allclose(out["q"][i], q, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(out["weights"][i], w, rtol=1e-10, atol=1e-15)
        heads_by_hand.append(w @ v)
    concat = np.concatenate(heads_by_hand, axis=1)
    np.testing.assert_allclose(out["head_outputs"], np.stack(heads_by_hand), rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(out["concat"], concat, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(out["output"], concat @ wo, rtol=1e-10, atol=1e-12)


def test_divisor_options():
    d, heads = 8, 2
    x, (wq, wk, wv, wo) = random_weights(d)
    q = split_heads(x @ wq, heads)
    k = split_heads(x @ wk, heads)
    raw = q @ np.swapaxes(k, -1, -2)
    unscaled = multi_head_attention(x, wq, wk, wv, wo, heads, scale=False)
    np.testing.assert_allclose(unscaled["weights"], hand_softmax(raw), rtol=1e-12)
    wrong = multi_head_attention(x, wq, wk, wv, wo, heads, divisor=math.sqrt(d))
    np.testing.assert_allclose(wrong["weights"], hand_softmax(raw / math.sqrt(d)), rtol=1e-12)


def test_heads_must_divide_width():
    x, (wq, wk, wv, wo) = random_weights(12)
    with pytest.raises(ValueError, match="h = 5 does not divide d_model = 12"):
        multi_head_attention(x, wq, wk, wv, wo, heads=5)


@given(st.integers(1, 64).flatmap(lambda d: st.tuples(st.just(d), st.sampled_from(divisors(d)))),
       st.integers(1, 6))
def test_split_concat_round_trip(shape, n):
    d, heads = shape
    m = np.arange(n * d, dtype=np.float64).reshape(n, d)
    parts = split_heads(m, heads)
    dk = d // heads
    assert parts.shape == (heads, n, dk)
    for i in range(heads):
        np.testing.assert_array_equal(parts[i], m[:, i * dk:(i + 1) * dk])
    np.testing.assert_array_equal(concat_heads(parts), m)


# --- attention weights ---------------------------------------------------------------------

@given(st.integers(2, 16), st.floats(0.01, 100), st.booleans(), st.integers(0, 2**32 - 1))
def test_rows_sum_to_one_and_causal_mask(n, t, causal, seed):
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((3, n, 4)).astype(np.float32) * 3 for _ in range(3))
    weights, out = attention(q, k, v, 2.0, t, causal)
    assert weights.shape == (3, n, n) and out.shape == (3, n, 4)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, atol=1e-12)
    future = np.triu(np.ones((n, n), bool), 1) if causal else np.zeros((n, n), bool)
    if causal:
        assert np.all(weights[:, future] == 0.0)  # exactly zero, not just tiny
        assert np.all(weights[:, 0, 0] == 1.0)
    # Row i is softmax over keys 0…i only (all keys without the mask).
    kt = np.swapaxes(k, -1, -2)
    s = (q.astype(np.float64) @ kt.astype(np.float64)) / 2.0 / t
    expected = hand_softmax(np.where(future, -np.inf, s))
    # The engine's scores are fl32(q kᵀ) ÷ 2 (exact), then a float64 softmax at T: each score
    # is off by at most γ_4·(|q| @ |kᵀ|)/T, and the weights by softmax_bound of that.
    score_error = np.where(future, 0.0, matmul_bound(q, kt) / 2.0 / t)
    assert_within(weights, expected, softmax_bound(expected, s, score_error), "weights")
    # out = fl32(w₃₂ @ v), n terms: within γ_n·(|w₃₂| @ |v|) of the float64 product.
    w32 = weights.astype(np.float32)
    assert_within(out, w32.astype(np.float64) @ v, matmul_bound(w32, v), "weights @ v")


def test_run_multihead_consistency_and_causal():
    rng = np.random.default_rng(8)
    r = run_multihead(64, 4, 7, 11, causal=True)
    assert not r.reduced and (r.computed_heads, r.computed_dk) == (4, 16)
    assert r.output_shape == (7, 64) and r.output.shape == (7, 64)
    assert r.weights.shape == (4, 7, 7)
    i, j = np.triu_indices(7, 1)
    assert np.all(r.weights[:, i, j] == 0.0)
    np.testing.assert_allclose(r.weights.sum(axis=-1), 1.0, atol=1e-12)
    # Each float32 product is within γ_n·(|a| @ |b|) of the float64 product of its inputs.
    x, w_q = r.x.astype(np.float64), r.w_q.astype(np.float64)
    assert_within(r.q, split_heads(x @ w_q, 4), split_heads(matmul_bound(r.x, r.w_q), 4), "Q")
    w32 = r.weights.astype(np.float32)
    assert_within(r.head_outputs, w32.astype(np.float64) @ r.v, matmul_bound(w32, r.v),
                  "weights @ V")
    np.testing.assert_array_equal(r.concat, concat_heads(r.head_outputs))
    assert_within(r.output, r.concat.astype(np.float64) @ r.w_o, matmul_bound(r.concat, r.w_o),
                  "concat @ W_O")
    for a in (r.x, r.w_q, r.w_k, r.w_v, r.w_o, r.q, r.k, r.v, r.weights, r.head_outputs, r.concat,
              r.output):
        assert not a.flags.writeable


def test_fan_in_uniform_levels_and_variance():
    rows, cols = 256, 512
    w = fan_in_uniform(np.random.default_rng(9), 2, rows, cols)
    assert w.shape == (2, rows, cols) and w.dtype == np.float32
    a = math.sqrt(3 / rows)
    level = w.astype(np.float64) * 128 / a - 0.5  # integers −128 … 127
    # w = fl32(fl32(i + ½)·fl32(a/128)) = (i + ½)(1 + δ₁)(1 + δ₂), |δ| ≤ u: level is i within
    # |i + ½|·(2u + u²) ≤ |i + ½|·ε(1 + ε), plus float64 roundings of values ≤ 128.
    assert_within(level, np.round(level), (np.abs(level) + 0.5) * EPS32 * (1 + EPS32)
                  + 4 * 128 * EPS64, "levels")
    assert np.round(level).min() >= -128 and np.round(level).max() <= 127
    var_theory = a * a / 3 * (1 - 2.0**-16)
    x = w.ravel().astype(np.float64)
    var = x.var(ddof=1)
    # Uniform law: Var(s²) ≈ (μ₄ − σ⁴)/N = (9/5 − 1)σ⁴/N.
    se = var_theory * math.sqrt(0.8 / x.size)
    assert abs(var - var_theory) <= 4 * se
    assert abs(x.mean()) <= 4 * math.sqrt(var_theory / x.size)


# --- reduced width for large d_model -------------------------------------------------------

@given(st.integers(1, 16384).flatmap(lambda d: st.tuples(st.just(d), st.sampled_from(divisors(d)))))
def test_computed_shape_bounds(shape):
    d, heads = shape
    dk = d // heads
    h_c, dk_c = computed_shape(heads, dk)
    assert 1 <= h_c <= heads and 1 <= dk_c <= dk
    if d <= FULL_WIDTH_LIMIT:
        assert (h_c, dk_c) == (heads, dk)
    else:
        assert h_c * dk_c <= REDUCED_WIDTH


@pytest.mark.parametrize("heads", [1, 16, 128, 16384])
def test_d_model_16384_is_reduced_and_small(heads):
    d, tokens = 16384, 6
    tracemalloc.start()
    try:
        r = run_multihead(d, heads, tokens, 0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.reduced
    assert (r.d_model, r.heads, r.dk) == (d, heads, d // heads)
    assert r.output_shape == (tokens, d)
    assert r.computed_heads * r.computed_dk <= REDUCED_WIDTH
    width = r.computed_heads * r.computed_dk
    assert r.x.shape == (tokens, width) and r.w_q.shape == (width, width)
    assert r.weights.shape == (r.computed_heads, tokens, tokens)
    np.testing.assert_allclose(r.weights.sum(axis=-1), 1.0, atol=1e-12)
    # Four full 16 384² float32 matrices would be 4 GiB; the reduced pass stays tiny.
    assert sum(a.nbytes for a in (r.w_q, r.w_k, r.w_v, r.w_o)) <= 4 * REDUCED_WIDTH**2 * 4
    assert peak < 32 * 2**20


def test_full_width_up_to_the_limit():
    r = run_multihead(FULL_WIDTH_LIMIT, 16, 3, 1)
    assert not r.reduced and r.w_o.shape == (FULL_WIDTH_LIMIT, FULL_WIDTH_LIMIT)


@pytest.mark.parametrize("heads", [1, 4, 16])
def test_divisor_comparison(heads):
    from engine.multihead import divisor_comparison

    d, n = 64, 6
    rng = np.random.default_rng(heads)
    q = rng.standard_normal((heads, n, d // heads))
    k = rng.standard_normal((heads, n, d // heads))
    out = divisor_comparison(q, k, d)
    raw = q @ np.swapaxes(k, -1, -2)
    assert out["uniform_entropy"] == pytest.approx(math.log(n))
    # Same raw scores over two constants: the variances differ by exactly d_k/d_model = 1/h.
    assert out["score_variance_d_model"] == pytest.approx(out["score_variance_dk"] / heads,
                                                          rel=1e-12)
    assert out["score_variance_dk"] == pytest.approx((raw / math.sqrt(d // heads)).var(), rel=1e-12)
    for name, divisor in (("dk", math.sqrt(d // heads)), ("d_model", math.sqrt(d))):
        p = hand_softmax(raw / divisor)
        h = -(p * np.log(p)).sum(axis=-1)
        assert out[f"entropy_{name}"] == pytest.approx(h.mean(), rel=1e-12)
        assert out[f"max_prob_{name}"] == pytest.approx(p.max(axis=-1).mean(), rel=1e-12)
        assert out[f"entropy_{name}"] <= math.log(n) + 1e-12
    if heads == 1:  # d_k = d_model: the two divisors coincide
        assert out["entropy_dk"] == out["entropy_d_model"]


def test_expected_score_variance_given_x():
    from engine.multihead import LEVEL_VARIANCE_FACTOR, divisor_comparison, expected_score_variance

    # E over weights of (q_i·k_j)²/d_k, by Monte Carlo over many weight draws for one fixed X.
    d, heads, n = 32, 4, 5
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, d)).astype(np.float32)
    mean_sq = []
    for _ in range(400):
        wq, wk = fan_in_uniform(rng, 2, d, d)
        q, k = split_heads(x @ wq, heads), split_heads(x @ wk, heads)
        mean_sq.append(float(((q @ np.swapaxes(k, -1, -2)) ** 2).mean()) / (d // heads))
    expected = expected_score_variance(x)
    norms = (x.astype(np.float64) ** 2).sum(axis=1) / d
    assert expected == pytest.approx(LEVEL_VARIANCE_FACTOR**2 * norms.mean() ** 2, rel=1e-12)
    assert abs(np.mean(mean_sq) - expected) < 4 * np.std(mean_sq) / math.sqrt(400)
    out = divisor_comparison(q, k, d, x=x)
    assert out["score_count"] == heads * n * n
    assert out["score_variance_expected_d_model"] == pytest.approx(expected / heads, rel=1e-12)


def test_lesson_mistake_figure_is_a_sampled_variance():
    # The lesson's "variance 0.821" at the defaults (seed 0) is the variance of the 8·6·6 = 288
    # scaled scores of this one draw; given these tokens it scatters around 1.015.
    from engine import Params, compute
    from engine.multihead import divisor_comparison

    mh = compute(Params()).multihead
    out = divisor_comparison(mh.q, mh.k, 512, x=mh.x)
    kt = np.swapaxes(mh.k, -1, -2)
    scores = (mh.q.astype(np.float64) @ kt.astype(np.float64)) / 8
    # divisor_comparison's raw scores are fl32(q kᵀ): each within γ_64·(|q| @ |kᵀ|) (÷8 exact).
    bound = variance_bound(scores, matmul_bound(mh.q, kt) / 8)
    assert_within(out["score_variance_dk"], scores.var(), bound, "score variance")
    assert round(out["score_variance_dk"], 3) == 0.821 and out["score_count"] == 288
    assert round(out["score_variance_expected_dk"], 3) == 1.015


@pytest.mark.parametrize("heads, kv", [(8, 1), (8, 2), (8, 8), (4, 4)])
def test_grouped_query_heads_share_keys_and_values(heads, kv):
    d, n = 64, 5
    dk = d // heads
    r = run_multihead(d, heads, n, 3, kv_heads=kv)
    assert (r.kv_heads, r.computed_kv_heads) == (kv, kv)
    assert r.w_k.shape == r.w_v.shape == (d, kv * dk)
    assert r.k.shape == r.v.shape == r.q.shape == (heads, n, dk)
    group = heads // kv
    for i in range(heads):
        g = i // group
        cols = slice(g * dk, (g + 1) * dk)
        # fl32(X @ W) is within γ_d·(|X| @ |W|) of the float64 product, whatever the BLAS.
        for got, w in ((r.k[i], r.w_k[:, cols]), (r.v[i], r.w_v[:, cols]),
                       (r.q[i], r.w_q[:, i * dk:(i + 1) * dk])):
            assert_within(got, r.x.astype(np.float64) @ w, matmul_bound(r.x, w), f"head {i}")
    # K/V heads are the first g·d_k columns of the MHA matrices.
    full = run_multihead(d, heads, n, 3)
    np.testing.assert_array_equal(r.w_k, full.w_k[:, :kv * dk])
    if kv == heads:
        np.testing.assert_array_equal(r.weights, full.weights)


def test_computed_kv_heads_when_reduced():
    from engine.multihead import computed_kv_heads

    assert computed_kv_heads(64, 8, 64) == 8
    assert computed_kv_heads(16384, 1, 512) == 1
    assert computed_kv_heads(16384, 16384, 512) == 512
    assert computed_kv_heads(16384, 2048, 512) == 64      # keeps the share 1/8
    r = run_multihead(16384, 1024, 3, 0, kv_heads=128)
    assert r.reduced and r.computed_heads == 512 and r.computed_kv_heads == 64
    assert r.computed_heads % r.computed_kv_heads == 0


def test_scale_by_d_model_shows_the_mistake():
    d, heads, n = 64, 8, 6
    good = run_multihead(d, heads, n, 1)
    bad = run_multihead(d, heads, n, 1, scale_by="d_model")
    assert good.divisor == math.sqrt(8) and bad.divisor == math.sqrt(64)
    kt = np.swapaxes(good.k, -1, -2)
    raw = good.q.astype(np.float64) @ kt.astype(np.float64)
    expected = hand_softmax(raw / 8)
    # bad's scores are fl32(q kᵀ) ÷ 8 (exact): each off by ≤ γ_8·(|q| @ |kᵀ|)/8.
    bound = softmax_bound(expected, raw / 8, matmul_bound(good.q, kt) / 8)
    assert_within(bad.weights, expected, bound, "weights ÷ √d_model")
    # Flatter: every head's mean entropy rises toward ln n.
    def mean_entropy(w):
        return float(-(w * np.log(w)).sum(axis=-1).mean())
    assert mean_entropy(good.weights) < mean_entropy(bad.weights) <= math.log(n)
    off = run_multihead(d, heads, n, 1, scale=False, scale_by="d_model")
    assert off.divisor == 1.0
    with pytest.raises(ValueError, match="scale_by"):
        run_multihead(d, heads, n, 1, scale_by="d_v")


def test_full_width_k_and_v_are_the_seeded_matrices_themselves():
    """With one K/V head per query head nothing is sliced: the same W_K and W_V objects come
    back for every h at one d_model (the diagram then leaves their images as they are),
    and only GQA/MQA take the first g·d_k columns."""
    from engine.multihead import run_multihead, seeded_matrices

    matrices = seeded_matrices(0, 6, 512)
    for heads in (1, 8, 64):
        mh = run_multihead(512, heads, 6, matrices=matrices)
        assert mh.w_k is matrices[2] and mh.w_v is matrices[3]
    gqa = run_multihead(512, 8, 6, kv_heads=2, matrices=matrices)
    assert gqa.w_k.shape == (512, 128)
    np.testing.assert_array_equal(gqa.w_k, matrices[2][:, :128])


def test_seeded_matrices_keep_a_bounded_number_of_bytes():
    """Many widths near FULL_WIDTH_LIMIT (a d_model or d_k drag there) leave the memo
    holding at most SEEDED_KEPT_BYTES (besides the newest result); the newest is reused."""
    import gc
    import weakref

    from engine import multihead

    alive = []
    for width in range(multihead.FULL_WIDTH_LIMIT, multihead.FULL_WIDTH_LIMIT - 8 * 64, -64):
        matrices = multihead.seeded_matrices(12345, 6, width)
        alive += [(weakref.ref(a), a.nbytes) for a in matrices]
    assert multihead.seeded_matrices(12345, 6, width) is matrices
    del matrices
    gc.collect()
    kept = sum(nbytes for ref, nbytes in alive if ref() is not None)
    assert kept <= multihead.SEEDED_KEPT_BYTES, kept / 2**20


@pytest.mark.parametrize("heads, kv_heads", [(1, None), (8, None), (64, None), (8, 2), (8, 1)])
def test_kept_projections_give_the_same_pass_bit_for_bit(heads, kv_heads):
    """X·W_Q, X·W_K, X·W_V do not depend on h: the pass that reuses seeded_projections is the
    pass that multiplies them out, to the last bit, with or without GQA slices."""
    from engine.multihead import run_multihead, seeded_matrices, seeded_projections

    matrices = seeded_matrices(4, 6, 512)
    fresh = run_multihead(512, heads, 6, matrices=matrices, kv_heads=kv_heads, causal=True)
    kept = run_multihead(512, heads, 6, matrices=matrices, kv_heads=kv_heads, causal=True,
                         projections=seeded_projections(4, 6, 512))
    for name in ("q", "k", "v", "weights", "head_outputs", "concat", "output"):
        np.testing.assert_array_equal(getattr(kept, name), getattr(fresh, name), err_msg=name)


def test_seeded_projections_are_kept_per_width_and_read_only():
    from engine.multihead import seeded_matrices, seeded_projections

    xq, xk, xv = seeded_projections(4, 6, 640)
    x, w_q, w_k, w_v, _ = seeded_matrices(4, 6, 640)
    np.testing.assert_array_equal(xk, x @ w_k)
    assert seeded_projections(4, 6, 640)[0] is xq
    assert not xq.flags.writeable
    assert seeded_projections(4, 6, 512)[0].shape == (6, 512)


def test_seeded_from_names_the_seeded_matrices_a_result_used():
    """Equal seeded_from, equal matrices (what the multi-head view keeps colours by); None
    when the caller handed its own."""
    from engine import Params, compute
    from engine.multihead import seeded_matrices

    r = compute(Params(dk=72, heads=8, d_model=576, seed=4, tokens=7))
    assert r.multihead.seeded_from == (4, 7, 576)
    for got, seeded in zip((r.multihead.x, r.multihead.w_q, r.multihead.w_o),
                           (m for i, m in enumerate(seeded_matrices(4, 7, 576)) if i in (0, 1, 4))):
        np.testing.assert_array_equal(got, seeded)
    reduced = compute(Params(dk=4096, heads=2, d_model=8192, seed=4, tokens=7)).multihead
    assert reduced.seeded_from == (4, 7, reduced.computed_heads * reduced.computed_dk)
    own = run_multihead(512, 8, 6, matrices=seeded_matrices(3, 6, 512))
    assert own.seeded_from is None
