"""FLOPs, parameter counts and memory of one attention layer.

Counting convention: a multiply–add is 2 FLOPs; n is the sequence length,
d = d_model, h query heads of width d_k = d / h, g key/value heads (g divides h;
g = h is multi-head attention, g = 1 multi-query attention, between them
grouped-query attention: each K/V head serves h / g query heads). No biases.

    term          per query head           total                    (g = h: total)
    projections   2·n·d·d_k + 4·n·g·d_k²   2·n·d² + 4·n·d·g·d_k     6·n·d²   (Q; K and V)
    scores QKᵀ    2·n²·d_k                 2·n²·d                   2·n²·d
    softmax       5·n²                     5·h·n²                   5·h·n²  (scale, max, exp, sum, divide)
    weights·V     2·n²·d_k                 2·n²·d                   2·n²·d
    W_O           —  (acts on the concat)  2·n·d²                   2·n·d²

    parameters    W_Q d², W_K and W_V d·g·d_k each, W_O d²: 2·d² + 2·d·g·d_k (4·d² when g = h)

The layer is Concat(head_1 … head_h)·W_O for every h, as in Vaswani et al. 2017 (Table 3,
row (A): h = 1 has the base model's parameter count), so h = 1 and the one full-width head
are the same layer: identical FLOPs and parameters. At a fixed d the matrix products total
the same for every h (h·d_k = d); only softmax (and masking: h score matrices of n² entries)
grows with h, by 5·(h − 1)·n² FLOPs over one head. `no_output_projection` is the separate
figure of one head without W_O, the baseline some texts compare the multi-head layer against.

Memory (bytes, b bytes per value):
    KV cache per token   2 · L · g · d_k · b     (K and V of L cached layers)
    attention scores     h · n² · b              (one layer's h score matrices)
"""
from __future__ import annotations

from dataclasses import dataclass

SOFTMAX_FLOPS_PER_ENTRY = 5
TERMS = ("projections", "scores", "softmax", "weighted_sum", "w_o")
#: Bits per stored value for which MemoryCost gives figures (32-bit float, 16-bit, 8-bit, 4-bit).
PRECISION_BITS = (32, 16, 8, 4)


@dataclass(frozen=True)
class LayerCost:
    """FLOPs per term (per query head and total) and parameter counts of one layer."""

    d_model: int
    heads: int
    kv_heads: int
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

    @property
    def softmax_share(self) -> float:
        """Softmax FLOPs as a fraction of the layer's FLOPs."""
        return self.total["softmax"] / self.flops


def attention_cost(d_model: int, heads: int, seq_len: int, kv_heads: int | None = None,
                   with_w_o: bool = True) -> LayerCost:
    """Cost of one attention layer with `kv_heads` key/value heads (default: h, i.e. MHA)."""
    if d_model % heads:
        raise ValueError(f"h = {heads} does not divide d_model = {d_model}")
    g = heads if kv_heads is None else kv_heads
    if not 1 <= g <= heads or heads % g:
        raise ValueError(f"kv_heads = {g} must divide h = {heads}")
    n, d, dk = seq_len, d_model, d_model // heads
    per_head = {
        "projections": 2 * n * d * dk + 4 * n * g * dk * dk,  # own Q; a 1/(h/g) share of K, V
        "scores": 2 * n * n * dk,
        "softmax": SOFTMAX_FLOPS_PER_ENTRY * n * n,
        "weighted_sum": 2 * n * n * dk,
        "w_o": 0,
    }
    total = {term: heads * flops for term, flops in per_head.items()}
    total["w_o"] = 2 * n * d * d if with_w_o else 0
    return LayerCost(d_model=d, heads=heads, kv_heads=g, seq_len=n, per_head=per_head,
                     total=total, params_qkv=d * d + 2 * d * g * dk,
                     params_w_o=d * d if with_w_o else 0)


def compare_single_multi(d_model: int, heads: int, seq_len: int,
                         kv_heads: int | None = None) -> tuple[LayerCost, LayerCost]:
    """(one full-width head with W_O, h heads with kv_heads K/V heads and W_O) at the same d."""
    return attention_cost(d_model, 1, seq_len), attention_cost(d_model, heads, seq_len, kv_heads)


def no_output_projection(d_model: int, seq_len: int) -> LayerCost:
    """One full-width head without W_O: attention as some texts count it."""
    return attention_cost(d_model, 1, seq_len, with_w_o=False)


def kv_cache_bytes_per_token(layers: int, kv_heads: int, dk: int, bits: int = 16) -> int:
    """2 · layers · kv_heads · d_k · bits/8: the keys and values one token adds to the cache."""
    return 2 * layers * kv_heads * dk * bits // 8


def attention_score_bytes(heads: int, seq_len: int, bits: int = 16) -> int:
    """h · n² · bits/8: one layer's h attention score matrices of n × n entries."""
    return heads * seq_len * seq_len * bits // 8


@dataclass(frozen=True)
class MemoryCost:
    """Memory figures; each dict maps bits per value (PRECISION_BITS) to bytes.

    cache_per_token   KV cache one token adds over `layers` cached layers
    cache_at_context  the same for `seq_len` tokens of context
    scores            one layer's h·n² attention scores at n = seq_len
    """

    layers: int
    kv_heads: int
    dk: int
    heads: int
    seq_len: int
    cache_per_token: dict
    cache_at_context: dict
    scores: dict


def memory_cost(layers: int, heads: int, kv_heads: int, dk: int, seq_len: int) -> MemoryCost:
    per_token = {b: kv_cache_bytes_per_token(layers, kv_heads, dk, b) for b in PRECISION_BITS}
    return MemoryCost(layers=layers, kv_heads=kv_heads, dk=dk, heads=heads, seq_len=seq_len,
                      cache_per_token=per_token,
                      cache_at_context={b: v * seq_len for b, v in per_token.items()},
                      scores={b: attention_score_bytes(heads, seq_len, b) for b in PRECISION_BITS})
