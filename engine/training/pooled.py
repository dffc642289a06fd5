"""One attention head read by a CLS query, on fixed (not learned) token embeddings;
R independent runs side by side (a leading run axis), so small runs share numpy's
per-call overhead. Runs never mix: each has its own weights, batch and loss.

Shapes: R runs (S seeds × K settings of ÷√d_k), B sequences of n tokens, d = d_model,
key width d_k, value width d_v, C classes.

    q = C W_Q,  u = q W_Kᵀ          (R, V_q, d) C (R, V_q, d): the distinct query embeddings
    u_b = u[query index of b]       (R, B, d)
    s = (u · x_j) / f               (R, B, n)   x_j the tokens' embeddings, sums of rows of
                                                a per-seed table (class Items);
                                                f = √d_k (scaled run) or 1 (unscaled run)
    a = softmax(s)                  (R, B, n)
    z = (Σ_j a_j x_j) W_V           (R, B, d_v)
    logits = z W_R                  (R, B, C)
    loss = Σ_r mean_b CE(logits_rb, y_rb)

u_b·x_j equals q_b·k_j with k_j = x_j W_K. A task has few distinct queries (1 for
averaging, 8 for lookup), so W_Q and W_K touch only V_q·d·d_k numbers per step instead of
B·n·d·d_k and d_k = 1024 trains nearly as fast as d_k = 16; pooling before W_V likewise
saves a factor n, and an item x_j is never built: u·x_j = Σ_f (u Tᵀ)[index_jf] and
Σ_j a_j x_j = (a scattered onto the table's rows) T.
With G = Σ_{b: query b = i} ∂L/∂u_b (R, V_q, d):
∂L/∂W_K = Gᵀ q,  ∂L/∂q = G W_K,  ∂L/∂W_Q = Cᵀ ∂L/∂q.

Parameters: "wq", "wk" (R, d, d_k), "wv" (R, d, d_v), "readout" (R, d_v, C).
"""
from __future__ import annotations

import math

import numpy as np

from .softmax_clip import row_entropy, softmax_backward, softmax_forward


def init_pooled(d_model: int, d_k: int, d_v: int, classes: int, rngs, dtype=np.float32) -> dict:
    """One run per generator in `rngs`; every weight N(0, 1/fan_in), so with unit-variance
    embeddings q and k have unit-variance components and q·k has variance d_k."""
    def normal(rng, rows, cols):
        return (rng.standard_normal((rows, cols)) / math.sqrt(rows)).astype(dtype)

    runs = [{"wq": normal(rng, d_model, d_k), "wk": normal(rng, d_model, d_k),
             "wv": normal(rng, d_model, d_v), "readout": normal(rng, d_v, classes)}
            for rng in rngs]
    return {name: np.stack([r[name] for r in runs]) for name in runs[0]}


def inverse_divisors(d_k: int, scaled, dtype=np.float32) -> np.ndarray:
    """(R, 1, 1): 1/√d_k for a scaled run, 1 for an unscaled one."""
    return np.array([1.0 / math.sqrt(d_k) if s else 1.0 for s in scaled], dtype=dtype)[:, None, None]


class Items:
    """A batch of items as sums of rows of a per-seed table (no (B, n, d) array is built):
    x_{s,b,j} = Σ_f table[s, index[s, b, j, f]].

    table (S, V_t, d); index (S, B, n, F) int; each seed's K = R / S runs share them."""

    def __init__(self, table: np.ndarray, index: np.ndarray, runs: int) -> None:
        self.table = table
        self.seeds, self.batch, self.n, self.features = index.shape
        self.k = runs // self.seeds
        self.runs = runs
        vocab = table.shape[1]
        flat = np.repeat(index, self.k, axis=0).reshape(runs * self.batch, -1)
        self.gather_index = flat.reshape(runs, self.batch, -1)               # (R, B, n·F)
        self.scatter_index = (flat + vocab * np.arange(runs * self.batch)[:, None]).ravel()
        self.vocab = vocab

    def dot(self, w: np.ndarray) -> np.ndarray:
        """(w_{rb} · x_{rbj}) for w (R, B, d) → (R, B, n)."""
        s, k, b = self.seeds, self.k, self.batch
        per_row = (w.reshape(s, k * b, -1) @ self.table.swapaxes(1, 2)).reshape(self.runs, b, -1)
        picked = np.take_along_axis(per_row, self.gather_index, axis=2)
        return picked.reshape(self.runs, b, self.n, self.features).sum(axis=-1)

    def weighted_sum(self, a: np.ndarray) -> np.ndarray:
        """Σ_j a_{rbj} x_{rbj} for a (R, B, n) → (R, B, d)."""
        s, k, b = self.seeds, self.k, self.batch
        spread = np.repeat(a, self.features, axis=2).ravel()
        counts = np.bincount(self.scatter_index, weights=spread,
                             minlength=self.runs * b * self.vocab).astype(a.dtype)
        return (counts.reshape(s, k * b, self.vocab) @ self.table).reshape(self.runs, b, -1)


def pooled_forward(params: dict, query_table: np.ndarray, query_index: np.ndarray,
                   items: Items, inv_divisor: np.ndarray):
    """query_table (R, V_q, d), query_index (R, B) int, items: the tokens' embeddings.
    logits (R, B, C) and the cache for the backward pass (cache["weights"]: (R, B, n))."""
    one_hot = (query_index[:, :, None] == np.arange(query_table.shape[1])).astype(
        query_table.dtype)
    q = query_table @ params["wq"]
    u = one_hot @ (q @ params["wk"].swapaxes(1, 2))
    s = items.dot(u)
    s *= inv_divisor
    weights, free = softmax_forward(s)
    pooled = items.weighted_sum(weights)
    z = pooled @ params["wv"]
    logits = z @ params["readout"]
    return logits, {"query_table": query_table, "one_hot": one_hot, "q": q, "items": items,
                    "weights": weights, "free": free, "pooled": pooled, "z": z,
                    "inv_divisor": inv_divisor}


def run_cross_entropy(logits: np.ndarray, labels: np.ndarray):
    """Per run: mean CE (R,) and accuracy (R,); and ∂(Σ_r loss_r)/∂logits (R, B, C)."""
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    target = labels[..., None] == np.arange(logits.shape[-1])
    loss = -(log_p * target).sum(axis=-1).astype(np.float64).mean(axis=1)
    d_logits = np.exp(log_p)
    d_logits -= target
    d_logits /= labels.shape[1]
    accuracy = (logits.argmax(axis=-1) == labels).mean(axis=1)
    return loss, accuracy, d_logits


def pooled_backward(params: dict, cache: dict, d_logits: np.ndarray) -> dict:
    items, weights, z = cache["items"], cache["weights"], cache["z"]
    dz = d_logits @ params["readout"].swapaxes(1, 2)
    grads = {"readout": z.swapaxes(1, 2) @ d_logits,
             "wv": cache["pooled"].swapaxes(1, 2) @ dz}
    d_weights = items.dot(dz @ params["wv"].swapaxes(1, 2))
    ds = softmax_backward(d_weights, weights, cache["free"])
    ds *= cache["inv_divisor"]
    du = items.weighted_sum(ds)
    g = cache["one_hot"].swapaxes(1, 2) @ du                              # (R, V_q, d)
    grads["wk"] = g.swapaxes(1, 2) @ cache["q"]
    grads["wq"] = cache["query_table"].swapaxes(1, 2) @ (g @ params["wk"])
    return grads


def pooled_attention_stats(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per run: mean entropy (nats) and mean largest weight of the CLS rows; weights (R, B, n)."""
    return row_entropy(weights).mean(axis=1), weights.max(axis=-1).mean(axis=1)
