"""The forward pass of a loaded model in float32 numpy, recording every head's attention.

Shapes: n tokens, d = d_model, h heads, d_k = d / h, L layers.

    x0 = E_word[ids] + E_pos[0..n-1] (+ E_type[0])        (n, d)
    BERT family (post-LN): x0 ← LN(x0); for each layer
        a = MHA(x);  x ← LN_attn(x + a);  x ← LN_ffn(x + FFN(x))
    GPT-2 (pre-LN): for each layer
        x ← x + MHA(LN_attn(x));  x ← x + FFN(LN_ffn(x))
    MHA(u): Q = u W_Q + b_Q, K, V alike, split into h heads (h, n, d_k);
        S_raw = Q Kᵀ (h, n, n);  A = softmax(S_raw / √d_k) row by row, with S[i, j] = −∞ for
        j > i in a decoder;  out = concat_h(A V) W_O + b_O
    FFN(u) = act(u W_in + b_in) W_out + b_out
    LN(u) = (u − mean(u)) / √(var(u) + eps) · g + b, over the last axis

Score variance per layer ℓ: over every head and every (query, key) pair the mask allows,
raw = Var(S_raw) and scaled = Var(S_raw / √d_k) = raw / d_k. With unit-variance, independent
q and k components theory says raw = d_k and scaled = 1 (the first article's premise);
LayerNorm gains and trained W_Q, W_K move both.

Per head (engine.models.score_variance): head_raw_score_variance (L, h) is the pooled
variance of one head's allowed scores; head_within_row_variance (L, h) the mean over query
rows of the variance over that row's allowed keys, what softmax sees (a row's constant
offset drops out). Scaled: ÷ d_k, as above (head_scaled_* properties).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .loader import LayerWeights, Model
from .score_variance import head_score_variance


@dataclass(frozen=True, eq=False)
class ForwardResult:
    """One forward pass. attentions (L, h, n, n) float32, rows sum to 1;
    raw_score_variance, scaled_score_variance (L,) pooled per layer; per head (L, h):
    head_raw_score_variance pooled, head_within_row_variance within rows (raw q·k)."""

    tokens: tuple[str, ...]
    token_ids: tuple[int, ...]
    attentions: np.ndarray
    raw_score_variance: np.ndarray
    scaled_score_variance: np.ndarray
    head_raw_score_variance: np.ndarray
    head_within_row_variance: np.ndarray
    d_k: int
    causal: bool

    @property
    def head_scaled_score_variance(self) -> np.ndarray:
        """(L, h) pooled Var(q·k/√d_k) per head = head_raw_score_variance / d_k."""
        return self.head_raw_score_variance / self.d_k

    @property
    def head_scaled_within_row_variance(self) -> np.ndarray:
        """(L, h) within-row Var(q·k/√d_k) per head = head_within_row_variance / d_k."""
        return self.head_within_row_variance / self.d_k

    @property
    def shape(self) -> tuple[int, int, int, int]:
        return self.attentions.shape


def layer_norm(x: np.ndarray, norm: tuple[np.ndarray, np.ndarray], eps: float) -> np.ndarray:
    gain, bias = norm
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(var + np.float32(eps)) * gain + bias


# Abramowitz & Stegun 7.1.26: |erf(x) − approx| ≤ 1.5e-7 for all x.
_AS_P = 0.3275911
_AS_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: np.ndarray) -> np.ndarray:
    """erf(x) elementwise, in x's dtype, to 1.5e-7 (A&S 7.1.26); numpy has no erf of its own."""
    sign = np.sign(x)
    ax = np.abs(x)
    t = 1.0 / (1.0 + _AS_P * ax)
    a1, a2, a3, a4, a5 = _AS_A
    poly = t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5))))
    return sign * (1.0 - poly * np.exp(-ax * ax))


def activation(x: np.ndarray, kind: str) -> np.ndarray:
    """gelu_erf: x·Φ(x) = ½x(1 + erf(x/√2)) (BERT's "gelu");
    gelu_tanh: ½x(1 + tanh(√(2/π)(x + 0.044715x³))) (GPT-2's "gelu_new"); relu: max(x, 0)."""
    if kind == "gelu_erf":
        return 0.5 * x * (1.0 + erf(x * (1.0 / math.sqrt(2.0))))
    if kind == "gelu_tanh":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))
    if kind == "relu":
        return np.maximum(x, 0.0)
    raise ValueError(f"unknown activation {kind!r}")


def _split(x: np.ndarray, heads: int) -> np.ndarray:
    n, d = x.shape
    return x.reshape(n, heads, d // heads).transpose(1, 0, 2)  # (h, n, d_k)


def _attention(u: np.ndarray, lw: LayerWeights, heads: int, causal: bool,
               mask: np.ndarray | None = None):
    """(MHA output (n, d), attention (h, n, n), raw scores (h, n, n)). mask (h,) or None:
    head i's context A_i V_i is multiplied by mask[i] before W_O (0 = head off; the output
    is then b_O plus the other heads)."""
    n, d = u.shape
    q = _split(u @ lw.w_q + lw.b_q, heads)
    k = _split(u @ lw.w_k + lw.b_k, heads)
    v = _split(u @ lw.w_v + lw.b_v, heads)
    raw = q @ k.transpose(0, 2, 1)
    scaled = raw * (1.0 / math.sqrt(d // heads))
    if causal:
        scaled = np.where(np.tri(n, dtype=bool), scaled, np.float32(-np.inf))
    scaled = scaled - scaled.max(axis=-1, keepdims=True)
    weights = np.exp(scaled)
    weights /= weights.sum(axis=-1, keepdims=True)
    context = weights @ v
    if mask is not None:
        context = context * mask.astype(context.dtype)[:, None, None]
    context = context.transpose(1, 0, 2).reshape(n, d)
    return context @ lw.w_o + lw.b_o, weights, raw


def _ffn(u: np.ndarray, lw: LayerWeights, kind: str) -> np.ndarray:
    return activation(u @ lw.w_in + lw.b_in, kind) @ lw.w_out + lw.b_out


def _embed(model: Model, ids: tuple[int, ...]) -> np.ndarray:
    """Token, position (and token-type) embeddings of `ids`, layer-normed where the model
    does: the first block's input (n, d)."""
    cfg = model.config
    x = model.word_embeddings[np.asarray(ids)] + model.position_embeddings[:len(ids)]
    if model.token_type_embedding is not None:
        x = x + model.token_type_embedding
    if model.embedding_ln is not None:
        x = layer_norm(x, model.embedding_ln, cfg.layer_norm_eps)
    return x


def _block(x: np.ndarray, lw: LayerWeights, cfg, mask: np.ndarray | None = None,
           rest: bool = True):
    """One block on x (n, d): (its output, attention (h, n, n), raw scores (h, n, n)).
    Pre-LayerNorm (causal models) or post-LayerNorm (encoders); mask as in _attention.
    rest=False stops after the attention (x is returned unchanged): no later attention
    depends on the last block's residual and feed-forward."""
    eps = cfg.layer_norm_eps
    if cfg.causal:
        out, weights, raw = _attention(layer_norm(x, lw.ln_attn, eps), lw, cfg.heads, True, mask)
        if rest:
            x = x + out
            x = x + _ffn(layer_norm(x, lw.ln_ffn, eps), lw, cfg.activation)
    else:
        out, weights, raw = _attention(x, lw, cfg.heads, False, mask)
        if rest:
            x = layer_norm(x + out, lw.ln_attn, eps)
            x = layer_norm(x + _ffn(x, lw, cfg.activation), lw.ln_ffn, eps)
    return x, weights, raw


def attentions(model: Model, ids) -> ForwardResult:
    """Run `ids` through `model`; every layer's and head's attention and score variance.

    Raises TokenError for ids outside the vocabulary or more tokens than positions.
    The last layer's feed-forward block is skipped: no attention depends on it.
    """
    tokens = model.tokens_for_ids(ids)
    ids = tuple(int(i) for i in ids)
    cfg = model.config
    n = len(ids)
    x = _embed(model, ids)
    allowed = np.tri(n, dtype=bool) if cfg.causal else np.ones((n, n), dtype=bool)
    maps, layer_var, head_var, row_var = [], [], [], []
    for index, lw in enumerate(model.layers):
        last = index == len(model.layers) - 1
        x, weights, raw = _block(x, lw, cfg, None, rest=not last)
        maps.append(weights)
        kept = raw[:, allowed]  # (h, pairs)
        layer_var.append(float(kept.var(dtype=np.float64)))
        within, pooled = head_score_variance(raw, allowed)
        head_var.append(pooled)
        row_var.append(within)
    attn = np.stack(maps).astype(np.float32, copy=False)
    raw_var = np.array(layer_var)
    result = ForwardResult(tokens=tokens, token_ids=ids, attentions=attn,
                           raw_score_variance=raw_var, scaled_score_variance=raw_var / cfg.d_k,
                           head_raw_score_variance=np.stack(head_var),
                           head_within_row_variance=np.stack(row_var), d_k=cfg.d_k,
                           causal=cfg.causal)
    for array in (result.attentions, result.raw_score_variance, result.scaled_score_variance,
                  result.head_raw_score_variance, result.head_within_row_variance):
        array.flags.writeable = False
    return result


def run_sentence(model: Model, text: str) -> ForwardResult:
    """Tokenize `text` with the model's tokenizer and run it: attentions(model, encode(text) ids)."""
    _, ids = model.encode(text)
    return attentions(model, ids)


def hidden_states(model: Model, ids, head_mask: np.ndarray | None = None) -> np.ndarray:
    """The last layer's output (n, d) float32 for `ids`, every block included (unlike
    `attentions`, which skips the last feed-forward block; for GPT-2 before its final
    LayerNorm, which the loader does not read). head_mask (L, h) or None
    multiplies each head's context before W_O (Michel et al. 2019; 1 = on, 0 = off); None
    and all ones give the same numbers bit for bit.

    Raises TokenError for ids outside the vocabulary or more tokens than positions."""
    model.tokens_for_ids(ids)
    ids = tuple(int(i) for i in ids)
    x = _embed(model, ids)
    for index, lw in enumerate(model.layers):
        mask = None if head_mask is None else np.asarray(head_mask)[index]
        x, _, _ = _block(x, lw, model.config, mask)
    return x
