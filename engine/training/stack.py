"""An attention-only transformer: embeddings, learned positions, L multi-head attention
layers on a residual stream, and a linear readout. Forward and hand-written backward.

Shapes: B sequences, T positions, d = d_model, h heads of width d_k, C classes.

    x_0 = E[tokens] + P[:T]                                  (B, T, d)
    for each layer l:
        Q_h = x W_Q^h,  K_h = x W_K^h,  V_h = x W_V^h         (B, h, T, d_k)
        A_h = softmax(Q_h K_hᵀ / f  (+ causal mask))         (B, h, T, T),  f = √d_k or 1
        x ← x + Σ_h A_h V_h W_O^h                            (B, T, d)
    logits = x_L W_R                                         (B, T, C)
    (all heads' projections are computed as one (d, h·d_k) product)
    loss   = Σ_{b,t} w_{bt} · CE(logits_{bt}, y_{bt}) / Σ w   (w = 1 where a target is scored)

Parameters (a dict, one dtype): "embed" (V, d), "pos" (T_max, d), and per layer l
"wq{l}", "wk{l}", "wv{l}" (h, d, d_k), "wo{l}" (h, d_k, d); "readout" (d, C).

Head mask (Michel et al. 2019): with `head_mask` m (L, h) the layer update is
x ← x + Σ_h m_lh · A_h V_h W_O^h; m = 1 is the model itself, bit for bit (z · 1 = z in
floating point), m_lh = 0 switches head h of layer l off. stack_backward then also returns "head_mask" (L, h) = ∂loss/∂m and, per sequence,
"head_mask_per_sequence" (B, L, h): the terms of that sum from each sequence b, so that
Σ_b of it is ∂loss/∂m (the loss is a weighted mean over positions; the sequences of a batch
do not interact).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .softmax_clip import row_entropy, softmax_backward, softmax_forward


@dataclass(frozen=True)
class StackShape:
    vocab: int
    classes: int
    max_len: int
    d_model: int
    layers: int
    heads: int
    d_k: int
    causal: bool
    scale: bool
    last_query_only: bool = False

    @property
    def divisor(self) -> float:
        return math.sqrt(self.d_k) if self.scale else 1.0


def init_stack(shape: StackShape, rng: np.random.Generator, dtype=np.float32) -> dict:
    """Embeddings and positions N(0, 1); W_Q, W_K, W_V N(0, 1/d); W_O N(0, 1/(h·d_k));
    readout N(0, 1/d). With unit-variance inputs, q and k components then have variance
    about 1 and q·k has variance about d_k, as in the paper's argument for ÷√d_k."""
    d, h, dk = shape.d_model, shape.heads, shape.d_k

    def normal(std, *size):
        return (rng.standard_normal(size) * std).astype(dtype)

    params = {"embed": normal(1.0, shape.vocab, d), "pos": normal(1.0, shape.max_len, d)}
    for layer in range(shape.layers):
        for name in ("wq", "wk", "wv"):
            params[f"{name}{layer}"] = normal(1.0 / math.sqrt(d), h, d, dk)
        params[f"wo{layer}"] = normal(1.0 / math.sqrt(h * dk), h, dk, d)
    params["readout"] = normal(1.0 / math.sqrt(d), d, shape.classes)
    return params


def cross_entropy(logits: np.ndarray, targets: np.ndarray, weight: np.ndarray):
    """Weighted mean cross-entropy over scored positions.

    logits (…, C), targets (…) int, weight (…) float (0 = not scored).
    Returns (loss, d_logits, correct fraction)."""
    z = logits - logits.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(z).sum(axis=-1, keepdims=True))
    log_p = z - log_sum
    total = float(weight.sum())
    picked = np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]
    loss = float(-(picked * weight).sum()) / total
    d_logits = np.exp(log_p)
    np.put_along_axis(d_logits, targets[..., None],
                      np.take_along_axis(d_logits, targets[..., None], axis=-1) - 1, axis=-1)
    d_logits *= (weight / total)[..., None]
    correct = float(((logits.argmax(axis=-1) == targets) * weight).sum()) / total
    return loss, d_logits, correct


def _causal_mask(t: int, dtype) -> np.ndarray:
    return np.tril(np.ones((t, t), dtype=dtype))


def _fused(w: np.ndarray) -> np.ndarray:
    """(h, d, d_k) per-head weights as one (d, h·d_k) matrix: one product for all heads."""
    h, d, dk = w.shape
    return w.transpose(1, 0, 2).reshape(d, h * dk)


def _split(m: np.ndarray, b: int, t: int, h: int) -> np.ndarray:
    """(b·t, h·d_k) → (b, h, t, d_k)."""
    return m.reshape(b, t, h, -1).transpose(0, 2, 1, 3)


def _merge(m: np.ndarray) -> np.ndarray:
    """(b, h, t, d_k) → (b·t, h·d_k)."""
    b, h, t, dk = m.shape
    return m.transpose(0, 2, 1, 3).reshape(b * t, h * dk)


def stack_forward(params: dict, shape: StackShape, tokens: np.ndarray,
                  head_mask: np.ndarray | None = None):
    """logits (B, T', C) and the cache the backward pass needs; its "weights" entry holds the
    attention maps, one (B, h, T', T) array per layer. T' = T, except with
    shape.last_query_only, where the last layer computes only the last position's row
    (T' = 1 there, and in the logits): the only row a loss on the last position reads.
    head_mask (L, h) or None: see the module docstring."""
    b, t = tokens.shape
    h = shape.heads
    x = params["embed"][tokens] + params["pos"][:t]
    mask = _causal_mask(t, x.dtype) if shape.causal else None
    divisor = shape.divisor
    layers = []
    for layer in range(shape.layers):
        last_only = shape.last_query_only and layer == shape.layers - 1
        x_flat = x.reshape(b * t, -1)
        x_query = x[:, -1:] if last_only else x
        tq = x_query.shape[1]
        q = _split(x_query.reshape(b * tq, -1) @ _fused(params[f"wq{layer}"]), b, tq, h)
        k = _split(x_flat @ _fused(params[f"wk{layer}"]), b, t, h)
        v = _split(x_flat @ _fused(params[f"wv{layer}"]), b, t, h)
        s = q @ k.swapaxes(-1, -2)
        if divisor != 1.0:
            s /= divisor
        weights, free = softmax_forward(s, None if mask is None else mask[t - tq:])
        z = weights @ v
        zm = z if head_mask is None else z * head_mask[layer][None, :, None, None].astype(z.dtype)
        out = (_merge(zm) @ params[f"wo{layer}"].reshape(-1, shape.d_model)).reshape(b, tq, -1)
        layers.append((x, q, k, v, weights, free, z))
        x = x_query + out
    logits = x @ params["readout"]
    return logits, {"tokens": tokens, "layers": layers, "final": x,
                    "weights": [c[4] for c in layers], "head_mask": head_mask}


def stack_backward(params: dict, shape: StackShape, cache: dict, d_logits: np.ndarray) -> dict:
    """Gradients of the loss, same keys and dtype as `params`."""
    tokens, x_final = cache["tokens"], cache["final"]
    b, t = tokens.shape
    d, h = shape.d_model, shape.heads
    grads = {"readout": x_final.reshape(-1, d).T @ d_logits.reshape(-1, shape.classes)}
    dx = d_logits @ params["readout"].T                            # (B, T', d)
    divisor = shape.divisor
    mask = cache.get("head_mask")
    if mask is not None:
        per_sequence = np.zeros((b, shape.layers, h), dtype=np.float64)
    for layer in reversed(range(shape.layers)):
        x, q, k, v, weights, free, z = cache["layers"][layer]
        tq = q.shape[2]
        wo = params[f"wo{layer}"]
        dout = dx.reshape(b * tq, d)
        m = None if mask is None else mask[layer][None, :, None, None].astype(z.dtype)
        grads[f"wo{layer}"] = (_merge(z if m is None else z * m).T @ dout).reshape(wo.shape)
        dz = _split(dout @ wo.reshape(-1, d).T, b, tq, h)
        if m is not None:
            per_sequence[:, layer] = np.einsum("bhtk,bhtk->bh", z.astype(np.float64),
                                               dz.astype(np.float64))
            dz = dz * m
        dv = weights.swapaxes(-1, -2) @ dz
        ds = softmax_backward(dz @ v.swapaxes(-1, -2), weights, free)
        if divisor != 1.0:
            ds /= divisor
        dq = _merge(ds @ k)
        dkey = _merge(ds.swapaxes(-1, -2) @ q)
        dv = _merge(dv)
        x_flat = x.reshape(b * t, d)
        x_query = x_flat if tq == t else x[:, -1:].reshape(b * tq, d)
        wq, wk, wv = (_fused(params[f"{n}{layer}"]) for n in ("wq", "wk", "wv"))
        for name, rows, dproj in (("wq", x_query, dq), ("wk", x_flat, dkey), ("wv", x_flat, dv)):
            grads[f"{name}{layer}"] = (rows.T @ dproj).reshape(d, h, -1).transpose(1, 0, 2)
        dx_full = (dkey @ wk.T + dv @ wv.T).reshape(b, t, d)
        dx_query = dx + (dq @ wq.T).reshape(b, tq, d)              # residual + query path
        if tq == t:
            dx_full += dx_query
        else:
            dx_full[:, -1:] += dx_query
        dx = dx_full
    one_hot = (tokens.reshape(-1, 1) == np.arange(shape.vocab)).astype(dx.dtype)
    grads["embed"] = one_hot.T @ dx.reshape(b * t, d)
    d_pos = np.zeros_like(params["pos"])
    d_pos[:t] = dx.sum(axis=0)
    grads["pos"] = d_pos
    if mask is not None:
        grads["head_mask_per_sequence"] = per_sequence
        grads["head_mask"] = per_sequence.sum(axis=0)
    return grads


def stack_loss_and_grads(params, shape, tokens, targets, weight, head_mask=None):
    """(loss, accuracy, grads, cache) for one batch; targets and weight (B, T); with a
    head_mask (L, h) grads also has "head_mask" and "head_mask_per_sequence"."""
    logits, cache = stack_forward(params, shape, tokens, head_mask)
    if shape.last_query_only:
        targets, weight = targets[:, -1:], weight[:, -1:]
    loss, d_logits, accuracy = cross_entropy(logits, targets, weight)
    return loss, accuracy, stack_backward(params, shape, cache, d_logits), cache


def wq_grad_norm(grads: dict, layers: int) -> float:
    return math.sqrt(sum(float((grads[f"wq{l}"].astype(np.float64) ** 2).sum())
                         for l in range(layers)))


def attention_stats(weights: np.ndarray, rows: np.ndarray) -> tuple[float, float]:
    """Mean entropy and mean max weight of the attention rows selected by `rows` (B, T) 0/1,
    over every head. weights (B, h, T, T)."""
    sel = rows[:, None, :] * np.ones((1, weights.shape[1], 1), dtype=rows.dtype)
    count = float(sel.sum())
    entropy = float((row_entropy(weights) * sel).sum()) / count
    peak = float((weights.max(axis=-1) * sel).sum()) / count
    return entropy, peak
