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


# -- the float64 reference ---------------------------------------------------------------------

def _ln(x, g, b, eps):
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(x.var(-1, keepdims=True) + eps) * g + b


_erf = np.vectorize(math.erf)


def _act(x, name):
    if name == "gelu":
        return x * 0.5 * (1 + _erf(x / math.sqrt(2)))
    if name in ("gelu_new", "gelu_pytorch_tanh"):
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return np.maximum(x, 0)


def _head_loop(u, wq, bq, wk, bk, wv, bv, heads, causal):
    """Per-head attention by explicit loops over heads (float64). Returns (A, raw, context)."""
    n, d = u.shape
    dk = d // heads
    maps, raws, ctx = [], [], np.zeros((n, d))
    for h in range(heads):
        c = slice(h * dk, (h + 1) * dk)
        q, k, v = u @ wq[:, c] + bq[c], u @ wk[:, c] + bk[c], u @ wv[:, c] + bv[c]
        raw = q @ k.T
        s = raw / math.sqrt(dk)
        if causal:
            s = np.where(np.tril(np.ones((n, n))) > 0, s, -np.inf)
        e = np.exp(s - s.max(1, keepdims=True))
        a = e / e.sum(1, keepdims=True)
        maps.append(a)
        raws.append(raw)
        ctx[:, c] = a @ v
    return np.array(maps), np.array(raws), ctx


def reference_attentions(folder: Path, ids):
    """(attention (L, h, n, n), raw scores (L, h, n, n)) in float64, from the HF tensors."""
    from safetensors.numpy import load_file

    cfg = json.loads((folder / "config.json").read_text())
    t = {k: v.astype(np.float64) for k, v in load_file(str(folder / "model.safetensors")).items()}
    for pre in ("bert.", "distilbert.", "transformer."):
        if pre + "embeddings.word_embeddings.weight" in t or pre + "wte.weight" in t:
            t = {k[len(pre):]: v for k, v in t.items() if k.startswith(pre)}
    ids = np.asarray(ids)
    n = len(ids)
    maps, raws = [], []
    if cfg["model_type"] == "gpt2":
        x = t["wte.weight"][ids] + t["wpe.weight"][:n]
        eps, heads, d = cfg["layer_norm_epsilon"], cfg["n_head"], cfg["n_embd"]
        for i in range(cfg["n_layer"]):
            p = f"h.{i}."
            u = _ln(x, t[p + "ln_1.weight"], t[p + "ln_1.bias"], eps)
            w, b = t[p + "attn.c_attn.weight"], t[p + "attn.c_attn.bias"]
            a, raw, ctx = _head_loop(u, w[:, :d], b[:d], w[:, d:2 * d], b[d:2 * d], w[:, 2 * d:],
                                     b[2 * d:], heads, True)
            maps.append(a)
            raws.append(raw)
            x = x + ctx @ t[p + "attn.c_proj.weight"] + t[p + "attn.c_proj.bias"]
            u = _ln(x, t[p + "ln_2.weight"], t[p + "ln_2.bias"], eps)
            x = x + _act(u @ t[p + "mlp.c_fc.weight"] + t[p + "mlp.c_fc.bias"],
                         cfg["activation_function"]) @ t[p + "mlp.c_proj.weight"] \
                + t[p + "mlp.c_proj.bias"]
        return np.array(maps), np.array(raws)
    distil = cfg["model_type"] == "distilbert"
    x = t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:n]
    if not distil:
        x = x + t["embeddings.token_type_embeddings.weight"][0]
    eps = 1e-12 if distil else cfg["layer_norm_eps"]
    x = _ln(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"], eps)
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
        a, raw, ctx = _head_loop(x, W(0), B(0), W(1), B(1), W(2), B(2), heads, False)
        maps.append(a)
        raws.append(raw)
        x = _ln(x + ctx @ W(3) + B(3), t[p + names[4] + ".weight"], t[p + names[4] + ".bias"], eps)
        ff = _act(x @ W(5) + B(5), act) @ W(6) + B(6)
        x = _ln(x + ff, t[p + names[7] + ".weight"], t[p + names[7] + ".bias"], eps)
    return np.array(maps), np.array(raws)
