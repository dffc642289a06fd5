"""engine.cost: FLOPs derived here from matrix shapes (a (a×b)·(b×c) product is a·b·c
multiply–adds = 2abc FLOPs), and parameter counts from the actual matrices."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cost import (PRECISION_BITS, SOFTMAX_FLOPS_PER_ENTRY, TERMS, attention_cost,
                         attention_score_bytes, compare_single_multi, kv_cache_bytes_per_token,
                         memory_cost, no_output_projection)
from engine.multihead import run_multihead
from engine.params import divisors


def matmul_flops(a, b, c):
    return 2 * a * b * c


def test_small_case_from_shapes():
    n, d, h = 3, 8, 2
    dk = d // h
    cost = attention_cost(d, h, n)
    per_head = {
        "projections": 3 * matmul_flops(n, d, dk),   # X (n×d) · W^i (d×d_k), for Q, K, V
        "scores": matmul_flops(n, dk, n),             # Q_i (n×d_k) · K_iᵀ (d_k×n)
        "softmax": SOFTMAX_FLOPS_PER_ENTRY * n * n,    # per score entry
        "weighted_sum": matmul_flops(n, n, dk),       # A_i (n×n) · V_i (n×d_k)
        "w_o": 0,
    }
    assert cost.per_head == per_head
    assert cost.total == {"projections": 1152, "scores": 144, "softmax": 90,
                          "weighted_sum": 144, "w_o": matmul_flops(n, d, d)}
    assert cost.total["w_o"] == 384
    assert cost.flops == 1152 + 144 + 90 + 144 + 384
    assert cost.params_qkv == 3 * d * d and cost.params_w_o == d * d
    assert cost.params == 4 * d * d
    assert set(cost.total) == set(TERMS)


def test_w_o_in_every_layer_unless_asked_not_to():
    # MultiHead = Concat(heads)·W_O for every h, one head included (Vaswani et al. 2017).
    for h in (1, 2):
        c = attention_cost(64, h, 10)
        assert c.total["w_o"] == 2 * 10 * 64 * 64 and c.params_w_o == 64 * 64
    bare = attention_cost(64, 8, 10, with_w_o=False)
    assert bare.total["w_o"] == 0 and bare.params_w_o == 0


def test_heads_must_divide():
    with pytest.raises(ValueError, match="h = 7 does not divide d_model = 512"):
        attention_cost(512, 7, 10)
    with pytest.raises(ValueError, match="kv_heads = 3 must divide h = 8"):
        attention_cost(512, 8, 10, kv_heads=3)
    with pytest.raises(ValueError, match="kv_heads = 16 must divide h = 8"):
        attention_cost(512, 8, 10, kv_heads=16)


@given(st.integers(1, 4096).flatmap(lambda d: st.tuples(st.just(d), st.lists(
    st.sampled_from(divisors(d)), min_size=1, max_size=6))), st.integers(1, 10**6))
def test_matmul_work_does_not_depend_on_h(shape, n):
    d, hs = shape
    base = attention_cost(d, 1, n)
    for h in hs:
        c = attention_cost(d, h, n)
        for term in ("projections", "scores", "weighted_sum", "w_o"):
            assert c.total[term] == base.total[term], term
        for term in ("projections", "scores", "softmax", "weighted_sum"):
            assert c.total[term] == h * c.per_head[term]
        assert c.total["projections"] == 6 * n * d * d
        assert c.total["scores"] == c.total["weighted_sum"] == 2 * n * n * d
        assert c.total["w_o"] == 2 * n * d * d and c.per_head["w_o"] == 0
        # Softmax work is h score matrices of n² entries: it grows linearly with h,
        # and it is the whole difference from one head.
        assert c.total["softmax"] == h * base.total["softmax"] == SOFTMAX_FLOPS_PER_ENTRY * h * n * n
        assert c.flops - base.flops == SOFTMAX_FLOPS_PER_ENTRY * (h - 1) * n * n
        assert c.params_qkv == 3 * d * d and c.params == base.params == 4 * d * d
        assert c.flops == sum(c.total.values())
        assert c.softmax_share == c.total["softmax"] / c.flops


@given(st.integers(1, 64).flatmap(lambda h: st.tuples(st.just(h), st.sampled_from(divisors(h)))),
       st.integers(1, 256), st.integers(1, 4096))
def test_grouped_query_closed_forms(hg, dk, n):
    h, g = hg
    d = h * dk
    c = attention_cost(d, h, n, kv_heads=g)
    assert c.kv_heads == g
    # Q: X (n×d)·W_Q (d×d); K and V: X (n×d)·W (d×g·d_k).
    assert c.total["projections"] == matmul_flops(n, d, d) + 2 * matmul_flops(n, d, g * dk)
    assert c.total["projections"] == h * c.per_head["projections"]
    assert c.params == 2 * d * d + 2 * d * g * dk
    assert c.params_qkv == d * d + 2 * d * g * dk
    for term in ("scores", "softmax", "weighted_sum", "w_o"):  # K/V sharing does not change these
        assert c.total[term] == attention_cost(d, h, n).total[term]
    assert attention_cost(d, h, n, kv_heads=h) == attention_cost(d, h, n)


def test_h_equal_one_is_the_single_head():
    # The comparison's two bars at h = 1 are one and the same layer.
    single, multi = compare_single_multi(512, 1, 512)
    assert single == multi
    assert single.flops == multi.flops and single.params == multi.params == 4 * 512**2


def test_compare_single_multi():
    single, multi = compare_single_multi(512, 8, 128)
    assert (single.heads, multi.heads) == (1, 8)
    assert single.total["w_o"] == multi.total["w_o"] == 2 * 128 * 512 * 512
    assert multi.flops - single.flops == (8 - 1) * SOFTMAX_FLOPS_PER_ENTRY * 128 * 128
    assert single.params == multi.params
    bare = no_output_projection(512, 128)
    assert single.flops - bare.flops == 2 * 128 * 512 * 512 and bare.params == 3 * 512**2
    # With grouped K/V heads the multi-head layer is cheaper than one full head.
    _, gqa = compare_single_multi(512, 8, 128, kv_heads=2)
    assert gqa.params == 2 * 512**2 + 2 * 512 * 2 * 64 < single.params


def test_softmax_share_at_h_512():
    # d = 512, h = 512 (d_k = 1), n = 512: softmax = 5·h·n² against the matrix products
    # 6nd² + 2n²d + 2n²d + 2nd² (all of them n·512²·const here).
    n = d = h = 512
    c = attention_cost(d, h, n)
    softmax = 5 * h * n * n
    rest = 6 * n * d * d + 2 * n * n * d + 2 * n * n * d + 2 * n * d * d
    assert c.total["softmax"] == softmax
    assert c.softmax_share == softmax / (softmax + rest) == 5 / 17
    assert round(100 * c.softmax_share) == 29
    # At h = 8 it is under 0.1 %.
    assert attention_cost(512, 8, 512).softmax_share == 40 / (40 + 12 * 512)


def test_llama_2_70b_attention_params():
    # d = 8192, h = 64, d_k = 128, 8 K/V heads: 2·8192² + 2·8192·8·128 = 150 994 944 ≈ 151 M,
    # not 4d² = 268 M.
    c = attention_cost(8192, 64, 1, kv_heads=8)
    assert c.params == 2 * 8192**2 + 2 * 8192 * 8 * 128 == 150_994_944
    assert round(c.params / 1e6) == 151
    assert attention_cost(8192, 64, 1).params == 4 * 8192**2 == 268_435_456


def test_kv_cache_and_score_memory():
    # LLaMA-2 70B: 2 (K and V) × 80 layers × 8 K/V heads × 128 × 2 bytes = 327 680 = 320 KiB.
    assert kv_cache_bytes_per_token(80, 8, 128, 16) == 327_680 == 320 * 1024
    assert kv_cache_bytes_per_token(80, 64, 128, 16) == 8 * 320 * 1024  # MHA: 8× more
    assert kv_cache_bytes_per_token(80, 8, 128, 4) == 320 * 1024 // 4
    assert attention_score_bytes(64, 4096, 16) == 64 * 4096**2 * 2
    m = memory_cost(80, 64, 8, 128, 4096)
    assert set(m.cache_per_token) == set(PRECISION_BITS)
    for bits in PRECISION_BITS:
        assert m.cache_per_token[bits] == 2 * 80 * 8 * 128 * bits // 8
        assert m.cache_at_context[bits] == 4096 * m.cache_per_token[bits]
        assert m.scores[bits] == 64 * 4096 * 4096 * bits // 8
    assert m.cache_at_context[16] == 1_342_177_280  # 1.25 GiB for 4 096 tokens


@pytest.mark.parametrize("d, heads", [(64, 1), (64, 8), (96, 12)])
def test_param_counts_match_the_matrices(d, heads):
    r = run_multihead(d, heads, 3, 0)
    cost = attention_cost(d, heads, 3, with_w_o=True)
    assert cost.params_qkv == r.w_q.size + r.w_k.size + r.w_v.size
    assert cost.params_w_o == r.w_o.size


@pytest.mark.parametrize("d, heads, kv", [(64, 8, 1), (64, 8, 2), (96, 12, 4)])
def test_grouped_param_counts_match_the_matrices(d, heads, kv):
    r = run_multihead(d, heads, 3, 0, kv_heads=kv)
    cost = attention_cost(d, heads, 3, kv_heads=kv)
    assert r.w_k.shape == r.w_v.shape == (d, kv * d // heads)
    assert cost.params == r.w_q.size + r.w_k.size + r.w_v.size + r.w_o.size
