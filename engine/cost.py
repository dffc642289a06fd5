"""FLOPs and parameter counts of one attention layer.

Counting convention: a multiply–add is 2 FLOPs; n is the sequence length,
d = d_model, h heads of width d_k = d / h.

    term          per head              total over h heads
    projections   3 · 2·n·d·d_k         6·n·d²          (Q, K, V)
    scores QKᵀ    2·n²·d_k              2·n²·d
    softmax       5·n²                  5·h·n²          (scale, max, exp, sum, divide)
    weights·V     2·n²·d_k              2·n²·d
    W_O           —                     2·n·d²          (multi-head only)

Projections, QKᵀ and weights·V total the same for every h because h·d_k = d.
Softmax work grows with h (h score matrices of n² entries). A single head
(h = 1, d_k = d) needs no output projection; the multi-head layer adds W_O.
"""
from __future__ import annotations

from dataclasses import dataclass

SOFTMAX_FLOPS_PER_ENTRY = 5
TERMS = ("projections", "scores", "softmax", "weighted_sum", "w_o")


@dataclass(frozen=True)
class LayerCost:
    """FLOPs per term (per head and total) and parameter counts of one layer."""

    d_model: int
    heads: int
    seq_len: int
    per_head: dict
    total: dict
    params_qkv: int
    params_w_o: int

    @property
    def flops(self) -> int:
        return sum(self.total.values())

    @property
    def params(self) -> int:
        return self.params_qkv + self.params_w_o


def attention_cost(d_model: int, heads: int, seq_len: int, with_w_o: bool | None = None) -> LayerCost:
    """Cost of one attention layer; `with_w_o` defaults to True when h > 1."""
    if d_model % heads:
        raise ValueError(f"h = {heads} does not divide d_model = {d_model}")
    if with_w_o is None:
        with_w_o = heads > 1
    n, d, dk = seq_len, d_model, d_model // heads
    per_head = {
        "projections": 3 * 2 * n * d * dk,
        "scores": 2 * n * n * dk,
        "softmax": SOFTMAX_FLOPS_PER_ENTRY * n * n,
        "weighted_sum": 2 * n * n * dk,
        "w_o": 0,
    }
    total = {term: heads * flops for term, flops in per_head.items()}
    total["w_o"] = 2 * n * d * d if with_w_o else 0
    return LayerCost(d_model=d, heads=heads, seq_len=n, per_head=per_head, total=total,
                     params_qkv=3 * d * d, params_w_o=d * d if with_w_o else 0)


def compare_single_multi(d_model: int, heads: int, seq_len: int) -> tuple[LayerCost, LayerCost]:
    """(one full-width head without W_O, h heads with W_O) at the same d_model."""
    return attention_cost(d_model, 1, seq_len, with_w_o=False), \
        attention_cost(d_model, heads, seq_len, with_w_o=True)
