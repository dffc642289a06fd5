"""Tiny random models in Hugging Face layout, written by the tests, and an independent float64
reference forward pass that reads the tensors by their Hugging Face names.

Planted heads: positions use the first P = POSITIONS dimensions (position i adds PLANT_SCALE
along dimension i), words use the rest with small random values. After LayerNorm a token's
dimension i (its own position) is about +8 and the other position dimensions about −0.1, so a
head whose W_Q, W_K read those dimensions attends by position:

    previous  W_Q: dim p → q_p,  W_K: dim p → k_{p+1}   (q_i·k_j large iff j = i − 1)
    next      W_Q: dim p → q_p,  W_K: dim p → k_{p−1}   (j = i + 1)
    self      W_Q: dim p → q_p,  W_K: dim p → k_p       (j = i)
    first     b_Q = e_0 (the same query for every token), W_K: dim 0 → k_0   (j = 0)
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file

POSITIONS = 16
PLANT_SCALE = 20.0
GAIN = 3.0  # W_Q, W_K entries of a planted head
WORDS = ["the", "cat", "sat", "on", "mat", "dog", "ran", "and", "then", "slept", "was", "tired",
         "because", "a", "big", "red", ".", ",", "!", "?"]
BERT_SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
GPT2_TEXTS = ["the cat sat on the mat.", "the dog ran, and then the dog slept!",
              "a big red cat was tired because the dog ran?"]


def _plant(kind: str, d_model: int, d_k: int, head: int):
    """(W_Q (d, d_k), b_Q (d_k,), W_K (d, d_k)) columns of one planted head."""
    w_q = np.zeros((d_model, d_k), np.float32)
    w_k = np.zeros((d_model, d_k), np.float32)
    b_q = np.zeros(d_k, np.float32)
    p = np.arange(POSITIONS)
    if kind == "first":
        b_q[0] = GAIN * 4
        w_k[0, 0] = GAIN
        return w_q, b_q, w_k
    shift = {"previous": 1, "next": -1, "self": 0}[kind]
    keep = (p + shift >= 0) & (p + shift < d_k)
    w_q[p, p] = GAIN
    w_k[p[keep], p[keep] + shift] = GAIN
    return w_q, b_q, w_k


def _qk_columns(d_model, heads, plants, rng, std):
    """Full W_Q, b_Q, W_K (d, d) in x @ W form: random, with planted heads' columns replaced."""
    d_k = d_model // heads
    w_q = rng.normal(0, std, (d_model, d_model)).astype(np.float32)
    w_k = rng.normal(0, std, (d_model, d_model)).astype(np.float32)
    b_q = np.zeros(d_model, np.float32)
    for head, kind in plants.items():
        cols = slice(head * d_k, (head + 1) * d_k)
        w_q[:, cols], b_q[cols], w_k[:, cols] = _plant(kind, d_model, d_k, head)
    return w_q, b_q, w_k


def _embeddings(vocab, positions, d_model, rng, planted):
    words = rng.normal(0, 0.02, (vocab, d_model)).astype(np.float32)
    pos = rng.normal(0, 0.02, (positions, d_model)).astype(np.float32)
    if planted:
        words[:, :POSITIONS] = 0.0
        pos[:, :] = 0.0
        pos[np.arange(POSITIONS), np.arange(POSITIONS)] = PLANT_SCALE
    return words, pos


def write_bert(folder: Path, *, layers=2, heads=4, d_model=64, d_ff=48, std=0.02, seed=0,
               plants=None, prefix="", tokenizer="json", distil=False, activation="gelu"):
    """A tiny BERT (or DistilBERT) in `folder`; plants {head: kind} go into layer 0."""
    from tokenizers import BertWordPieceTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    vocab_list = BERT_SPECIAL + WORDS
    vocab = len(vocab_list)
    (folder / "vocab.txt").write_text("\n".join(vocab_list) + "\n", encoding="utf-8")
    if tokenizer == "json":
        tok = BertWordPieceTokenizer({w: i for i, w in enumerate(vocab_list)}, lowercase=True)
        tok.save(str(folder / "tokenizer.json"))
        (folder / "vocab.txt").unlink()
    words, pos = _embeddings(vocab, POSITIONS, d_model, rng, plants is not None)
    t = {}

    def lin(name, n_in, n_out, w=None, b=None):  # stored as HF Linear: (out, in)
        w = rng.normal(0, std, (n_in, n_out)).astype(np.float32) if w is None else w
        b = rng.normal(0, std, n_out).astype(np.float32) if b is None else b
        t[prefix + name + ".weight"] = np.ascontiguousarray(w.T)
        t[prefix + name + ".bias"] = b

    def norm(name):
        t[prefix + name + ".weight"] = (1 + rng.normal(0, 0.05, d_model)).astype(np.float32)
        t[prefix + name + ".bias"] = rng.normal(0, 0.05, d_model).astype(np.float32)

    t[prefix + "embeddings.word_embeddings.weight"] = words
    t[prefix + "embeddings.position_embeddings.weight"] = pos
    if not distil:
        t[prefix + "embeddings.token_type_embeddings.weight"] = (
            np.zeros((2, d_model), np.float32) if plants else
            rng.normal(0, 0.02, (2, d_model)).astype(np.float32))
    if plants is None:
        norm("embeddings.LayerNorm")
    else:  # gain 1, bias 0: the planted analysis above assumes a plain LayerNorm
        t[prefix + "embeddings.LayerNorm.weight"] = np.ones(d_model, np.float32)
        t[prefix + "embeddings.LayerNorm.bias"] = np.zeros(d_model, np.float32)
    for i in range(layers):
        w_q, b_q, w_k = _qk_columns(d_model, heads, plants if (plants and i == 0) else {}, rng,
                                    std)
        if distil:
            p = f"transformer.layer.{i}."
            names = ("attention.q_lin", "attention.k_lin", "attention.v_lin", "attention.out_lin",
                     "sa_layer_norm", "ffn.lin1", "ffn.lin2", "output_layer_norm")
        else:
            p = f"encoder.layer.{i}."
            names = ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense", "attention.output.LayerNorm", "intermediate.dense",
                     "output.dense", "output.LayerNorm")
        lin(p + names[0], d_model, d_model, w_q, b_q)
        lin(p + names[1], d_model, d_model, w_k, np.zeros(d_model, np.float32))
        lin(p + names[2], d_model, d_model)
        lin(p + names[3], d_model, d_model)
        norm(p + names[4])
        lin(p + names[5], d_model, d_ff)
        lin(p + names[6], d_ff, d_model)
        norm(p + names[7])
    save_file(t, str(folder / "model.safetensors"))
    if distil:
        config = {"model_type": "distilbert", "dim": d_model, "n_heads": heads,
                  "n_layers": layers, "hidden_dim": d_ff, "max_position_embeddings": POSITIONS,
                  "vocab_size": vocab, "activation": activation}
    else:
        config = {"model_type": "bert", "hidden_size": d_model, "num_attention_heads": heads,
                  "num_hidden_layers": layers, "intermediate_size": d_ff,
                  "max_position_embeddings": POSITIONS, "vocab_size": vocab,
                  "type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_act": activation}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def write_gpt2(folder: Path, *, layers=2, heads=4, d_model=64, d_ff=48, std=0.02, seed=0,
               plants=None, prefix="", induction=False):
    """A tiny GPT-2 with a byte-level BPE tokenizer trained on GPT2_TEXTS; `induction` plants
    the two-layer induction circuit of `_plant_induction` (d_model 96, 4 heads)."""
    from tokenizers import ByteLevelBPETokenizer

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    tok = ByteLevelBPETokenizer()
    tok.train_from_iterator(GPT2_TEXTS, vocab_size=300, min_frequency=1,
                            special_tokens=["<|endoftext|>"], show_progress=False)
    tok.save(str(folder / "tokenizer.json"))
    vocab = tok.get_vocab_size()
    words, pos = _embeddings(vocab, POSITIONS, d_model, rng, plants is not None or induction)
    t = {prefix + "wte.weight": words, prefix + "wpe.weight": pos}
    for i in range(layers):
        p = f"{prefix}h.{i}."
        w_q, b_q, w_k = _qk_columns(d_model, heads, plants if (plants and i == 0) else {}, rng,
                                    std)
        w_v = rng.normal(0, std, (d_model, d_model)).astype(np.float32)
        t[p + "attn.c_attn.weight"] = np.concatenate([w_q, w_k, w_v], axis=1)
        t[p + "attn.c_attn.bias"] = np.concatenate(
            [b_q, np.zeros(d_model, np.float32), rng.normal(0, std, d_model).astype(np.float32)])
        t[p + "attn.c_proj.weight"] = rng.normal(0, std, (d_model, d_model)).astype(np.float32)
        t[p + "attn.c_proj.bias"] = rng.normal(0, std, d_model).astype(np.float32)
        for ln in ("ln_1", "ln_2"):
            planted = plants is not None and ln == "ln_1"
            t[p + ln + ".weight"] = (np.ones(d_model) if planted else
                                     1 + rng.normal(0, 0.05, d_model)).astype(np.float32)
            t[p + ln + ".bias"] = (np.zeros(d_model) if planted else
                                   rng.normal(0, 0.05, d_model)).astype(np.float32)
        t[p + "mlp.c_fc.weight"] = rng.normal(0, std, (d_model, d_ff)).astype(np.float32)
        t[p + "mlp.c_fc.bias"] = rng.normal(0, std, d_ff).astype(np.float32)
        t[p + "mlp.c_proj.weight"] = rng.normal(0, std, (d_ff, d_model)).astype(np.float32)
        t[p + "mlp.c_proj.bias"] = rng.normal(0, std, d_model).astype(np.float32)
    t[prefix + "ln_f.weight"] = np.ones(d_model, np.float32)
    t[prefix + "ln_f.bias"] = np.zeros(d_model, np.float32)
    if induction:
        _plant_induction(t, prefix, d_model, heads, rng)
    save_file(t, str(folder / "model.safetensors"))
    config = {"model_type": "gpt2", "n_embd": d_model, "n_head": heads, "n_layer": layers,
              "n_inner": d_ff, "n_positions": POSITIONS, "vocab_size": vocab,
              "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new",
              "bos_token_id": tok.token_to_id("<|endoftext|>")}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


# Residual-stream layout of the induction circuit (d_model = 96, d_k = 24):
#   dims  0..15  position one-hot × PLANT_SCALE
#   dims 16..39  T: the token's own identity, a random vector of norm ≈ 24
#   dims 40..63  P: empty until layer 0 head 0 (a previous-token head) copies the previous
#                token's T into it through W_V and W_O
# Layer 1 head 0 then matches its query's T against each key's P: it attends to the token
# whose previous token equals the current one, i.e. the token after the earlier occurrence.
T_DIMS, P_DIMS = slice(16, 40), slice(40, 64)


def _plant_induction(t, prefix, d_model, heads, rng):
    d_k = d_model // heads
    assert d_model == 96 and d_k == 24
    vocab = t[prefix + "wte.weight"].shape[0]
    words = np.zeros((vocab, d_model), np.float32)
    words[:, T_DIMS] = rng.normal(0, 1.0, (vocab, 24))
    t[prefix + "wte.weight"] = words
    zeros = np.zeros((d_model, d_model), np.float32)
    # layer 0: head 0 previous-token on positions, copies T into P; no other head, no MLP
    w_q, b_q, w_k = zeros.copy(), np.zeros(d_model, np.float32), zeros.copy()
    w_q[:, :d_k], b_q[:d_k], w_k[:, :d_k] = _plant("previous", d_model, d_k, 0)
    w_v, w_o = zeros.copy(), zeros.copy()
    w_v[T_DIMS, :24] = np.eye(24)
    w_o[:24, P_DIMS] = 4.0 * np.eye(24)  # LayerNorm divided T by about 4; undo it
    p = prefix + "h.0."
    t[p + "attn.c_attn.weight"] = np.concatenate([w_q, w_k, w_v], axis=1)
    t[p + "attn.c_attn.bias"] = np.concatenate([b_q, np.zeros(2 * d_model, np.float32)])
    t[p + "attn.c_proj.weight"] = w_o
    t[p + "attn.c_proj.bias"] = np.zeros(d_model, np.float32)
    for name in ("mlp.c_fc.weight", "mlp.c_fc.bias", "mlp.c_proj.weight", "mlp.c_proj.bias"):
        t[p + name] = np.zeros_like(t[p + name])
    for i in (0, 1):
        t[f"{prefix}h.{i}.ln_1.weight"] = np.ones(d_model, np.float32)
        t[f"{prefix}h.{i}.ln_1.bias"] = np.zeros(d_model, np.float32)
    # layer 1: head 0 queries with T, keys with P
    p = prefix + "h.1."
    qkv = t[p + "attn.c_attn.weight"]
    qkv[:, :d_k] = 0.0
    qkv[:, d_model:d_model + d_k] = 0.0
    qkv[T_DIMS, :d_k] = 2.0 * np.eye(24)
    qkv[P_DIMS, d_model:d_model + d_k] = 2.0 * np.eye(24)
    t[p + "attn.c_attn.bias"][:d_k] = 0.0


# -- the float64 reference, with rounding bounds --------------------------------------------
#
# Every intermediate is a pair (value, bound): `bound` is a first-order bound on how far an
# evaluation of the same formula in a precision with machine epsilon `eps` can be from `value`
# (each operation rounded, ≤ u = eps/2 relative; dot products of length n within n·eps of the
# magnitudes |a|·|b|; exp, tanh and the engine's erf as in tolerances.py and as_erf_error).
# With eps = 0 the bounds stay 0 and the pairs carry the plain float64 reference.

#: Abramowitz & Stegun 7.1.26, the engine's erf: |approximation − erf| ≤ 1.5e-7.
AS_ERF_GAP = 1.5e-7
#: max |d/dx| of x·Φ(x) (1.1289 at x ≈ 1.41) and of its tanh form, rounded up.
GELU_SLOPE = 1.13


def as_erf_error(w, eps):
    """Bound on |fl(erf_AS(w)) − erf_AS(w)| when engine.models.forward.erf runs in precision
    eps: t = 1/(1 + p|w|) is off ≤ 4u (p rounded, ×, +, ÷); Horner's poly(t) = Σ a_i t^i ≤ 11u
    of S0 = Σ|a_i| t^i plus u·S0 for the rounded a_i, and t's error moves it ≤ 4u·S1,
    S1 = Σ i|a_i| t^i; exp(−w²) ≤ FUNC_ULPS ulp plus u·w² from its argument; the product
    and 1 − poly·exp one u each."""
    from engine.models.forward import _AS_A, _AS_P
    from tolerances import FUNC_ULPS

    aw = np.abs(np.asarray(w, dtype=np.float64))
    t = 1.0 / (1.0 + _AS_P * aw)
    powers = np.stack([t ** (i + 1) for i in range(5)])
    coeffs = np.abs(np.array(_AS_A))[:, None]
    s0 = (coeffs.reshape(-1, *[1] * aw.ndim) * powers).sum(0)
    s1 = ((np.arange(1, 6).reshape(-1, *[1] * aw.ndim) * coeffs.reshape(-1, *[1] * aw.ndim))
          * powers).sum(0)
    poly = sum(a * t ** (i + 1) for i, a in enumerate(_AS_A))
    e = np.exp(-aw * aw)
    return eps * (e * (6 * s0 + 2 * s1) + np.abs(poly) * e * (FUNC_ULPS + (aw * aw + 1) / 2)
                  + 0.5)


class _Tracked:
    """The reference's operations on (value, bound) pairs, in float64."""

    def __init__(self, eps=0.0, erf=None, erf_gap=0.0):
        self.eps, self.u = eps, eps / 2
        self.erf = np.vectorize(math.erf) if erf is None else erf
        self.erf_gap = erf_gap  # |the engine's erf − self.erf| in exact arithmetic

    def add(self, a, b):
        (va, ea), (vb, eb) = a, b
        return va + vb, ea + eb + self.u * (np.abs(va) + np.abs(vb) + ea + eb)

    def linear(self, x, w, b):
        """x @ w + b with exact (stored float32) w and b; inner length n."""
        vx, ex = x
        aw = np.abs(w)
        mag = (np.abs(vx) + ex) @ aw
        bound = ex @ aw + vx.shape[-1] * self.eps * mag + self.eps * (mag + np.abs(b))
        return vx @ w + b, bound

    def layer_norm(self, x, g, b, eps_ln):
        """(x − mean)/√(var + eps_ln)·g + b over the last axis, as engine.models.forward does."""
        vx, ex = x
        eps, d = self.eps, vx.shape[-1]
        mu = vx.mean(-1, keepdims=True)
        e_mu = ex.mean(-1, keepdims=True) + d * eps * (np.abs(vx) + ex).mean(-1, keepdims=True)
        c = vx - mu
        e_c = (ex + e_mu) * (1 + eps) + eps * np.abs(c)
        var = (c * c).mean(-1, keepdims=True)
        e_var = (2 * np.abs(c) * e_c + e_c * e_c).mean(-1, keepdims=True) \
            + (d + 1) * eps * ((np.abs(c) + e_c) ** 2).mean(-1, keepdims=True)
        den = np.sqrt(var + eps_ln)
        low = np.sqrt(np.maximum(var + eps_ln - e_var, 0.0))
        with np.errstate(divide="ignore"):
            e_den = np.where(e_var > 0, e_var / (den + low), 0.0) + eps * den
            z = c / den
            e_z = (e_c + np.abs(z) * e_den) / np.maximum(den - e_den, 0.0) + self.u * np.abs(z)
        e_z = np.where(np.isnan(e_z), np.inf, e_z)
        y = z * g + b
        e_y = e_z * np.abs(g) + eps * (np.abs(z * g) + np.abs(y) + e_z * np.abs(g))
        return y, e_y

    def activation(self, x, name):
        vx, ex = x
        mag = np.abs(vx) + ex
        if name == "gelu":
            w = vx / math.sqrt(2)
            y = vx * 0.5 * (1 + self.erf(w))
            # x·(1/√2): 2u, moving erf by ≤ u; 1 + erf and the product: 2u and u·|y| ≤ u·|x|
            return y, GELU_SLOPE * ex + 0.5 * mag * (as_erf_error(w, self.eps) + self.erf_gap
                                                     + 3 * self.eps)
        if name in ("gelu_new", "gelu_pytorch_tanh"):
            y = 0.5 * vx * (1 + np.tanh(math.sqrt(2 / math.pi) * (vx + 0.044715 * vx ** 3)))
            # z = c(x + 0.044715x³): ≤ 7u of z, and z·sech²z ≤ 0.45; tanh FUNC_ULPS ulp;
            # 1 + tanh, the product: 3u; in all ≤ 4ε·|x|
            return y, GELU_SLOPE * ex + 4 * self.eps * mag
        return np.maximum(vx, 0), ex

    def heads(self, x, wq, bq, wk, bk, wv, bv, heads, causal):
        """Per-head attention by explicit loops over heads: (A, raw, context) as pairs."""
        from tolerances import softmax_bound

        vx = x[0]
        n, d = vx.shape
        dk = d // heads
        allowed = np.tril(np.ones((n, n), bool)) if causal else np.ones((n, n), bool)
        eps = self.eps
        maps, raws, ctx = [], [], (np.zeros((n, d)), np.zeros((n, d)))
        for h in range(heads):
            c = slice(h * dk, (h + 1) * dk)
            (q, eq), (k, ek), (v, ev) = (self.linear(x, w[:, c], b[c])
                                          for w, b in ((wq, bq), (wk, bk), (wv, bv)))
            raw = q @ k.T
            e_raw = eq @ np.abs(k).T + np.abs(q) @ ek.T + eq @ ek.T \
                + dk * eps * (np.abs(q) + eq) @ (np.abs(k) + ek).T
            s = raw / math.sqrt(dk)
            e_s = e_raw / math.sqrt(dk) + eps * np.abs(s)   # × fl(1/√d_k): 2u
            masked = np.where(allowed, s, -np.inf)
            e = np.exp(masked - masked.max(1, keepdims=True))
            a = e / e.sum(1, keepdims=True)
            e_a = softmax_bound(a, np.where(allowed, s, 0.0), np.where(allowed, e_s, 0.0),
                                eps=eps) if eps else np.zeros_like(a)
            maps.append((a, e_a))
            raws.append((raw, e_raw))
            ctx[0][:, c] = a @ v
            with np.errstate(invalid="ignore", over="ignore"):   # inf bounds stay inf
                e_ctx = e_a @ np.abs(v) + a @ ev + e_a @ ev \
                    + n * eps * (a + e_a) @ (np.abs(v) + ev)
            ctx[1][:, c] = np.where(np.isnan(e_ctx), np.inf, e_ctx)
        return maps, raws, ctx


def reference_attentions(folder: Path, ids, *, eps=None, erf=None, erf_gap=0.0,
                         ln_eps=float, inputs=False):
    """(attention (L, h, n, n), raw scores (L, h, n, n)) in float64, from the HF tensors.

    With `eps`, also (attention bound, raw bound): first-order bounds on how far an
    evaluation of the same formulas in a precision with machine epsilon eps, using the
    engine's A&S erf, can be from the returned values (exact arithmetic on both would agree).
    `erf` replaces math.erf in "gelu"; erf_gap bounds |A&S erf − that erf| (AS_ERF_GAP for
    math.erf). ln_eps maps config.json's LayerNorm eps to the value added (the engine adds it
    as a float32). With `inputs`, last: each layer's attention input (L, n, d)."""
    from safetensors.numpy import load_file

    ops = _Tracked(0.0 if eps is None else eps, erf, erf_gap)
    cfg = json.loads((folder / "config.json").read_text())
    t = {k: v.astype(np.float64) for k, v in load_file(str(folder / "model.safetensors")).items()}
    for pre in ("bert.", "distilbert.", "transformer."):
        if pre + "embeddings.word_embeddings.weight" in t or pre + "wte.weight" in t:
            t = {k[len(pre):]: v for k, v in t.items() if k.startswith(pre)}
    ids = np.asarray(ids)
    n = len(ids)
    maps, raws, layer_inputs = [], [], []

    def exact(a):
        return a, np.zeros_like(a)

    if cfg["model_type"] == "gpt2":
        x = ops.add(exact(t["wte.weight"][ids]), exact(t["wpe.weight"][:n]))
        eps_ln, heads, d = ln_eps(cfg["layer_norm_epsilon"]), cfg["n_head"], cfg["n_embd"]
        for i in range(cfg["n_layer"]):
            p = f"h.{i}."
            u = ops.layer_norm(x, t[p + "ln_1.weight"], t[p + "ln_1.bias"], eps_ln)
            layer_inputs.append(u[0])
            w, b = t[p + "attn.c_attn.weight"], t[p + "attn.c_attn.bias"]
            a, raw, ctx = ops.heads(u, w[:, :d], b[:d], w[:, d:2 * d], b[d:2 * d], w[:, 2 * d:],
                                    b[2 * d:], heads, True)
            maps.append(a)
            raws.append(raw)
            x = ops.add(x, ops.linear(ctx, t[p + "attn.c_proj.weight"], t[p + "attn.c_proj.bias"]))
            u = ops.layer_norm(x, t[p + "ln_2.weight"], t[p + "ln_2.bias"], eps_ln)
            hidden = ops.activation(ops.linear(u, t[p + "mlp.c_fc.weight"], t[p + "mlp.c_fc.bias"]),
                                    cfg["activation_function"])
            x = ops.add(x, ops.linear(hidden, t[p + "mlp.c_proj.weight"], t[p + "mlp.c_proj.bias"]))
    else:
        distil = cfg["model_type"] == "distilbert"
        x = ops.add(exact(t["embeddings.word_embeddings.weight"][ids]),
                    exact(t["embeddings.position_embeddings.weight"][:n]))
        if not distil:
            x = ops.add(x, exact(np.broadcast_to(t["embeddings.token_type_embeddings.weight"][0],
                                                 x[0].shape)))
        eps_ln = ln_eps(1e-12 if distil else cfg["layer_norm_eps"])
        x = ops.layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"],
                           eps_ln)
        heads = cfg["n_heads"] if distil else cfg["num_attention_heads"]
        act = cfg["activation"] if distil else cfg["hidden_act"]
        names = (("attention.q_lin", "attention.k_lin", "attention.v_lin", "attention.out_lin",
                  "sa_layer_norm", "ffn.lin1", "ffn.lin2", "output_layer_norm") if distil else
                 ("attention.self.query", "attention.self.key", "attention.self.value",
                  "attention.output.dense", "attention.output.LayerNorm", "intermediate.dense",
                  "output.dense", "output.LayerNorm"))
        layers = cfg["n_layers"] if distil else cfg["num_hidden_layers"]
        for i in range(layers):
            p = ("transformer.layer." if distil else "encoder.layer.") + f"{i}."
            W = lambda k: t[p + names[k] + ".weight"].T  # noqa: E731  HF Linear is (out, in)
            B = lambda k: t[p + names[k] + ".bias"]  # noqa: E731
            layer_inputs.append(x[0])
            a, raw, ctx = ops.heads(x, W(0), B(0), W(1), B(1), W(2), B(2), heads, False)
            maps.append(a)
            raws.append(raw)
            x = ops.layer_norm(ops.add(x, ops.linear(ctx, W(3), B(3))),
                               t[p + names[4] + ".weight"], t[p + names[4] + ".bias"], eps_ln)
            ff = ops.linear(ops.activation(ops.linear(x, W(5), B(5)), act), W(6), B(6))
            x = ops.layer_norm(ops.add(x, ff), t[p + names[7] + ".weight"],
                               t[p + names[7] + ".bias"], eps_ln)
    out = [np.array([[h[0] for h in layer] for layer in maps]),
           np.array([[h[0] for h in layer] for layer in raws])]
    if eps is not None:
        out += [np.array([[h[1] for h in layer] for layer in maps]),
                np.array([[h[1] for h in layer] for layer in raws])]
    if inputs:
        out.append(np.array(layer_inputs))
    return tuple(out)


def as_float64(model):
    """A copy of a loaded engine Model with every array in float64 (the forward pass keeps the
    arrays' dtype, then stores the attention maps as float32)."""
    import dataclasses

    def f64(a):
        if a is None:
            return None
        if isinstance(a, tuple):
            return tuple(f64(x) for x in a)
        return a.astype(np.float64)

    layers = tuple(dataclasses.replace(lw, **{f.name: f64(getattr(lw, f.name))
                                              for f in dataclasses.fields(lw)})
                   for lw in model.layers)
    return dataclasses.replace(
        model, word_embeddings=f64(model.word_embeddings),
        position_embeddings=f64(model.position_embeddings),
        token_type_embedding=f64(model.token_type_embedding),
        embedding_ln=f64(model.embedding_ln), layers=layers)


# -- comparisons with the engine, each within a derived bound -----------------------------------

def check_attention_step(model, layer_inputs):
    """The engine's float32 attention step (engine.models.forward._attention) on each layer's
    input rounded to float32 (e.g. the reference's inputs), against float64 from the same
    float32 input and weights: the raw scores within their first-order bound (float32 dot
    products of length d, then d_k), the weights within the float32 softmax arithmetic of
    the engine's own raw scores. A bound through several layers would be far looser than the
    errors it must catch, so each layer is checked on its own."""
    from engine.models.forward import _attention
    from tolerances import EPS32, assert_within, softmax_bound

    cfg = model.config
    for layer, (lw, u) in enumerate(zip(model.layers, layer_inputs)):
        u32 = np.asarray(u, dtype=np.float32)
        _, weights, raw = _attention(u32, lw, cfg.heads, cfg.causal)
        f64 = [a.astype(np.float64) for a in (lw.w_q, lw.b_q, lw.w_k, lw.b_k, lw.w_v, lw.b_v)]
        _, raws, _ = _Tracked(EPS32).heads((u32.astype(np.float64), np.zeros(u32.shape)), *f64,
                                           cfg.heads, cfg.causal)
        assert_within(raw, np.array([r[0] for r in raws]), np.array([r[1] for r in raws]),
                      f"layer {layer} raw scores")
        n = u32.shape[0]
        allowed = np.tri(n, dtype=bool) if cfg.causal else np.ones((n, n), dtype=bool)
        s = raw.astype(np.float64) / math.sqrt(cfg.d_k)
        masked = np.where(allowed, s, -np.inf)
        p = np.exp(masked - masked.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        # the engine's s = fl(raw·fl(1/√d_k)) is off by ≤ 2u = ε of |s|; then a float32 softmax
        bound = softmax_bound(p, np.where(allowed, s, 0.0),
                              np.where(allowed, EPS32 * np.abs(s), 0.0), eps=EPS32)
        assert_within(weights, p, bound, f"layer {layer} weights")


def check_float64_forward(model, ids, layers=None):
    """engine.models.attentions on a float64 copy of `model` against the reference with the
    engine's erf: both are float64 evaluations of the same formulas, each within the
    reference's EPS64 bound of the exact value, so within twice it of each other; the maps
    are then stored as float32 (≤ u₃₂ of each, or half float32's smallest subnormal below its
    normal range). Checks `layers` (default all): the worst-case
    bound grows by orders of magnitude per layer and is no use deep in a large model.
    Returns the reference's float32 layer inputs for check_attention_step."""
    from engine.models import attentions
    from engine.models.forward import erf
    from tolerances import EPS64, TINY32, U32, assert_within, variance_bound

    result = attentions(as_float64(model), ids)
    # the engine's erf, and its LayerNorm eps as it adds it: np.float32(eps)
    ref, raw, bound, raw_bound, inputs = reference_attentions(
        model.folder, ids, eps=EPS64, erf=erf, ln_eps=lambda e: float(np.float32(e)), inputs=True)
    layers = range(len(ref)) if layers is None else layers
    n = len(ids)
    allowed = np.tri(n, dtype=bool) if model.config.causal else np.ones((n, n), dtype=bool)
    for layer in layers:
        assert np.isfinite(bound[layer]).all()
        assert_within(result.attentions[layer], ref[layer],
                      2 * bound[layer] + U32 * ref[layer] + TINY32 / 2, f"layer {layer} maps")
        kept, kept_bound = raw[layer][:, allowed], 2 * raw_bound[layer][:, allowed]
        assert_within(result.raw_score_variance[layer], kept.var(),
                      variance_bound(kept, kept_bound), f"layer {layer} score variance")
        for head in range(len(kept)):
            assert_within(result.head_raw_score_variance[layer, head], kept[head].var(),
                          variance_bound(kept[head], kept_bound[head]),
                          f"layer {layer} head {head} score variance")
            # within rows: each row's variance is off by its own variance_bound; their mean
            # by the mean of those (rows with one key are left out, as the engine does)
            rows = [i for i in range(n) if allowed[i].sum() >= 2]
            if rows:
                scores, err = raw[layer][head], 2 * raw_bound[layer][head]
                within = np.mean([scores[i, allowed[i]].var() for i in rows])
                within_bound = np.mean([variance_bound(scores[i, allowed[i]], err[i, allowed[i]])
                                        for i in rows])
                assert_within(result.head_within_row_variance[layer, head], within,
                              within_bound, f"layer {layer} head {head} within-row variance")
    np.testing.assert_array_equal(result.scaled_score_variance,
                                  result.raw_score_variance / model.config.d_k)
    return inputs
