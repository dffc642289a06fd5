"""engine.cost: FLOPs derived here from matrix shapes (a (a×b)·(b×c) product is a·b·c
multiply–adds = 2abc FLOPs), and parameter counts from the actual matrices."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cost import SOFTMAX_FLOPS_PER_ENTRY, TERMS, attention_cost, compare_single_multi
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


def test_w_o_only_for_multi_head_by_default():
    single = attention_cost(64, 1, 10)
    assert single.total["w_o"] == 0 and single.params_w_o == 0
    multi = attention_cost(64, 2, 10)
    assert multi.total["w_o"] == 2 * 10 * 64 * 64 and multi.params_w_o == 64 * 64
    forced = attention_cost(64, 1, 10, with_w_o=True)
    assert forced.total["w_o"] == 2 * 10 * 64 * 64
    assert attention_cost(64, 8, 10, with_w_o=False).total["w_o"] == 0


def test_heads_must_divide():
    with pytest.raises(ValueError, match="h = 7 does not divide d_model = 512"):
        attention_cost(512, 7, 10)


@given(st.integers(1, 4096).flatmap(lambda d: st.tuples(st.just(d), st.lists(
    st.sampled_from(divisors(d)), min_size=1, max_size=6))), st.integers(1, 10**6))
def test_matmul_work_does_not_depend_on_h(shape, n):
    d, hs = shape
    base = attention_cost(d, 1, n)
    for h in hs:
        c = attention_cost(d, h, n)
        for term in ("projections", "scores", "weighted_sum"):
            assert c.total[term] == base.total[term], term
            assert c.total[term] == h * c.per_head[term]
        assert c.total["projections"] == 6 * n * d * d
        assert c.total["scores"] == c.total["weighted_sum"] == 2 * n * n * d
        # Softmax work is h score matrices of n² entries: it grows linearly with h.
        assert c.total["softmax"] == h * base.total["softmax"] == SOFTMAX_FLOPS_PER_ENTRY * h * n * n
        assert c.total["w_o"] == (2 * n * d * d if h > 1 else 0)
        assert c.params_qkv == 3 * d * d
        assert c.flops == sum(c.total.values())


def test_compare_single_multi():
    single, multi = compare_single_multi(512, 8, 128)
    assert (single.heads, multi.heads) == (1, 8)
    assert single.total["w_o"] == 0 and multi.total["w_o"] == 2 * 128 * 512 * 512
    assert multi.flops - single.flops == (multi.total["w_o"]
                                          + (8 - 1) * SOFTMAX_FLOPS_PER_ENTRY * 128 * 128)
    # Even h = 1 "multi" gets W_O here: the comparison is one head vs the h-head layer.
    assert compare_single_multi(512, 1, 4)[1].total["w_o"] == 2 * 4 * 512 * 512


@pytest.mark.parametrize("d, heads", [(64, 1), (64, 8), (96, 12)])
def test_param_counts_match_the_matrices(d, heads):
    r = run_multihead(d, heads, 3, np.random.default_rng(0))
    cost = attention_cost(d, heads, 3, with_w_o=True)
    assert cost.params_qkv == r.w_q.size + r.w_k.size + r.w_v.size
    assert cost.params_w_o == r.w_o.size
