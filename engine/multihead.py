"""Multi-head attention with real matrices, small enough to draw.

Shapes (n tokens, width d = d_model, h heads, d_k = d / h):
    X       (n, d)      token embeddings, i.i.d. N(0, 1)
    W_Q     (d, d)      head i uses columns [i·d_k, (i+1)·d_k), i.e. a (d, d_k) block
    W_K/V   (d, g·d_k)  g key/value heads (g divides h; g = h is MHA, g = 1 MQA); query
                        head i uses K/V head i // (h/g)
    Q       (h, n, d_k) per-head projections X·W_Q^i
    K/V     (h, n, d_k) the K/V head each query head uses (repeated h/g times when g < h)
    weights (h, n, n)   softmax(Q Kᵀ / (T·√d_k)) per head, rows sum to 1
    heads   (h, n, d_k) weights · V
    concat  (n, d)      heads laid side by side
    output  (n, d)      concat · W_O, with W_O of shape (d, d)
Weights are uniform (on 256 levels) with variance 1/d (the fan-in rule), so Q, K, V and the
output keep roughly unit-variance entries. Matrices are float32; attention
weights are computed in float64.
"""
from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .softmax import softmax

#: d_model above which the matrices are computed on a reduced width.
FULL_WIDTH_LIMIT = 1024
#: Width used when d_model exceeds FULL_WIDTH_LIMIT.
REDUCED_WIDTH = 512


@dataclass(frozen=True)
class MultiHeadResult:
    """Arrays from one multi-head pass; shapes as in the module docstring.

    d_model, heads, dk, kv_heads describe the requested model. When `reduced` is True the
    arrays were computed with `computed_heads` heads of width `computed_dk` and
    `computed_kv_heads` K/V heads instead (d_model above FULL_WIDTH_LIMIT); shapes and
    costs stay exact. `divisor` is what the scores were divided by (before T).
    `seeded_from` is (seed, tokens, width) when X and the weights are
    seeded_matrices(seed, tokens, width) (W_K, W_V their first columns), else None: equal
    keys mean equal matrices, so a view can keep what it made of them.
    """

    d_model: int
    heads: int
    dk: int
    reduced: bool
    computed_heads: int
    computed_dk: int
    kv_heads: int
    computed_kv_heads: int
    divisor: float
    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    weights: np.ndarray
    head_outputs: np.ndarray
    concat: np.ndarray
    output: np.ndarray
    seeded_from: tuple | None = None

    @property
    def output_shape(self) -> tuple[int, int]:
        return (self.x.shape[0], self.d_model)


def computed_shape(heads: int, dk: int) -> tuple[int, int]:
    """(heads, d_k) actually computed: unchanged up to FULL_WIDTH_LIMIT, else ≤ REDUCED_WIDTH."""
    if heads * dk <= FULL_WIDTH_LIMIT:
        return heads, dk
    dk_r = min(dk, max(1, REDUCED_WIDTH // heads))
    return min(heads, REDUCED_WIDTH // dk_r), dk_r


def fan_in_uniform(rng: np.random.Generator, count: int, rows: int, cols: int) -> np.ndarray:
    """`count` float32 matrices (rows, cols) with Var(entry) ≈ 1/rows (fan-in rule).

    Entries are uniform on the 256 evenly spaced levels (i + ½)·a/128,
    i = −128 … 127, with a = √(3/rows): a symmetric uniform law whose variance
    is a²/3·(1 − 2⁻¹⁶). Drawing bytes is about twice as fast as drawing floats.
    """
    return levels_to_weights(rng.integers(-128, 128, (count, rows, cols), dtype=np.int8))


def levels_to_weights(levels: np.ndarray) -> np.ndarray:
    """int8 levels i (…, rows, cols) → float32 weights (i + ½)·a/128 with a = √(3/rows)."""
    a = math.sqrt(3.0 / levels.shape[-2])
    w = levels.astype(np.float32)
    w += 0.5
    w *= a / 128
    return w


def split_heads(m: np.ndarray, heads: int) -> np.ndarray:
    """(n, h·d_k) → (h, n, d_k)."""
    n, d = m.shape
    return m.reshape(n, heads, d // heads).transpose(1, 0, 2)


def concat_heads(m: np.ndarray) -> np.ndarray:
    """(h, n, d_k) → (n, h·d_k), head i in columns [i·d_k, (i+1)·d_k)."""
    h, n, dk = m.shape
    return m.transpose(1, 0, 2).reshape(n, h * dk)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, divisor: float,
              temperature: float = 1.0, causal: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Scaled dot-product attention for stacked heads.

    q, k, v: (..., n, d_k). Returns (weights (..., n, n), output (..., n, d_k)) with
    weights = softmax(q kᵀ / divisor, T). The causal mask gives future keys
    (column > row) weight exactly 0.
    """
    scores = q @ np.swapaxes(k, -1, -2) / divisor
    if causal:
        n = scores.shape[-1]
        future = np.triu(np.ones((n, n), dtype=bool), 1)
        # A large finite penalty keeps softmax's finite-input contract; exp underflows to 0.
        scores = np.where(future, scores.min() - 1e4 * (1 + abs(scores).max()), scores)
    weights = softmax(scores, temperature)
    if causal:
        weights = np.where(future, 0.0, weights)
    return weights, weights.astype(v.dtype) @ v


def multi_head_attention(x: np.ndarray, w_q, w_k, w_v, w_o, heads: int, scale: bool = True,
                         temperature: float = 1.0, causal: bool = False,
                         divisor: float | None = None,
                         projections: tuple | None = None) -> dict[str, np.ndarray]:
    """One multi-head pass on explicit matrices; see the module docstring for shapes.

    W_K and W_V may have g·d_k columns for g key/value heads (g divides h). The score
    divisor is √d_k when scale is True, 1 otherwise, unless `divisor` is given (e.g.
    √d_model, to show that common mistake).

    `projections`, if given, is (X·W_Q, X·W_K, X·W_V) for these very matrices, each
    (n, d): the projections do not depend on h (a head is a block of columns of one
    full-width product), so a caller that keeps them skips three of the four products.
    They are used for W_K and W_V only when those are full width (no GQA slice).
    """
    d = x.shape[1]
    if d % heads:
        raise ValueError(f"h = {heads} does not divide d_model = {d}")
    dk = d // heads
    if w_k.shape[1] % dk or heads % (w_k.shape[1] // dk):
        raise ValueError(f"W_K has {w_k.shape[1]} columns: need g·d_k with g dividing h = {heads}")
    group = heads // (w_k.shape[1] // dk)   # query heads per K/V head
    xq, xk, xv = projections if projections is not None else (None, None, None)
    if xk is not None and w_k.shape[1] != d:     # GQA/MQA: W_K, W_V are column slices
        xk = xv = None
    q = split_heads(x @ w_q if xq is None else xq, heads)
    k, v = (np.repeat(split_heads(x @ w if xw is None else xw, heads // group), group, axis=0)
            for w, xw in ((w_k, xk), (w_v, xv)))
    if divisor is None:
        divisor = math.sqrt(dk) if scale else 1.0
    weights, head_outputs = attention(q, k, v, divisor, temperature, causal)
    concat = concat_heads(head_outputs)
    return {"q": q, "k": k, "v": v, "weights": weights, "head_outputs": head_outputs,
            "concat": concat, "output": concat @ w_o}


#: Seeded matrices are cut from square tiles of this many rows and columns, each drawn
#: once from a stream of its own: every width takes the top-left corner of the same numbers.
SEEDED_TILE = 256
#: Tiles kept: W_Q, W_K, W_V, W_O up to FULL_WIDTH_LIMIT (4 × 16 of 64 kB) and X's column
#: blocks, for two seeds.
_TILES_KEPT = 2 * (4 * (FULL_WIDTH_LIMIT // SEEDED_TILE) ** 2 + FULL_WIDTH_LIMIT // SEEDED_TILE)


#: Tile rows and columns a matrix may have (widths up to this × SEEDED_TILE); numbers tiles.
_TILES_PER_SIDE = 4096
#: 64-bit outputs of the seed's PCG64 stream between two tiles' starts (a tile uses at most
#: 2**13 for its levels, or about tokens·SEEDED_TILE for X's normals).
_TILE_STRIDE = 1 << 40


@functools.lru_cache(maxsize=4)
def _seed_state(seed: int) -> dict:
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(2,))).state


@functools.lru_cache(maxsize=_TILES_KEPT)
def _seeded_tile(seed: int, matrix: int, row: int, col: int, tokens: int = 0) -> np.ndarray:
    """One tile, read-only: the int8 levels of rows/cols [row·T, (row+1)·T) × [col·T, …) of
    W_Q, W_K, W_V, W_O (matrix 0…3; T = SEEDED_TILE), uniform on −128 … 127 (one byte each),
    or (matrix 4) X's columns [col·T, (col+1)·T) for `tokens` tokens, ~ N(0, 1) in float32.
    Each tile reads its own stretch of the seed's stream (PCG64 advanced to it), so tiles
    are independent and any one is drawn without the others."""
    side = _TILES_PER_SIDE
    index = ((matrix * side + row) * side + col) if matrix < 4 else (4 * side * side + col)
    generator = np.random.PCG64(0)
    generator.state = _seed_state(seed)
    generator.advance(index * _TILE_STRIDE)
    rng = np.random.Generator(generator)
    if matrix == 4:
        tile = rng.standard_normal((tokens, SEEDED_TILE), dtype=np.float32)
    else:
        tile = np.frombuffer(rng.bytes(SEEDED_TILE * SEEDED_TILE), dtype=np.int8)
        tile = tile.reshape(SEEDED_TILE, SEEDED_TILE)
    tile.flags.writeable = False
    return tile


def seeded_draw(seed: int, tokens: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """X (tokens, width) ~ N(0, 1) and the int8 levels (4, width, width) of W_Q, W_K, W_V,
    W_O: the top-left corner of the seed's tiles (a new width draws only tiles not seen)."""
    n, t = -(-width // SEEDED_TILE), SEEDED_TILE
    x = np.empty((tokens, n * t), dtype=np.float32)
    levels = np.empty((4, n * t, n * t), dtype=np.int8)
    for j in range(n):
        x[:, j * t:(j + 1) * t] = _seeded_tile(seed, 4, 0, j, tokens)
        for m in range(4):
            for i in range(n):
                levels[m, i * t:(i + 1) * t, j * t:(j + 1) * t] = _seeded_tile(seed, m, i, j)
    return x[:, :width], levels[:, :width, :width]


class _NewestKept:
    """The newest values by key, at most `entries` of them and, if `max_bytes` is given, at
    most that many bytes of arrays together (the newest is always kept). Thread-safe: the
    window computes on worker threads; a value is made outside the lock."""

    def __init__(self, entries: int, max_bytes: int | None = None):
        self.entries, self.max_bytes = entries, max_bytes
        self.kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, make):
        with self._lock:
            value = self.kept.get(key)
            if value is not None:
                self.kept.move_to_end(key)
                return value
        value = make()
        with self._lock:
            self.kept[key] = value
            self.kept.move_to_end(key)
            size = (sum(a.nbytes for entry in self.kept.values() for a in entry)
                    if self.max_bytes is not None else 0)
            while len(self.kept) > 1 and (len(self.kept) > self.entries
                                          or (self.max_bytes is not None
                                              and size > self.max_bytes)):
                _, dropped = self.kept.popitem(last=False)
                size -= sum(a.nbytes for a in dropped)
        return value


#: seeded_matrices keeps its newest results while together they take at most this many
#: bytes, and at most SEEDED_KEPT of them (the newest is always kept): eight widths up to
#: 512, or one near FULL_WIDTH_LIMIT (16 MB) and the newest.
SEEDED_KEPT_BYTES = 16 << 20
SEEDED_KEPT = 8
_seeded = _NewestKept(SEEDED_KEPT, SEEDED_KEPT_BYTES)
_projections = _NewestKept(SEEDED_KEPT)


def seeded_matrices(seed: int, tokens: int, width: int) -> tuple[np.ndarray, ...]:
    """(X, W_Q, W_K, W_V, W_O) for a seed and width, read-only and memoised (the newest
    ones, within SEEDED_KEPT_BYTES).

    Every width takes the top-left corner of the same seeded numbers (seeded_draw),
    rescaled by fan-in as in fan_in_uniform. Moving h at a fixed d_model reuses the
    matrices, a wider d_model shows more of the same numbers, and a width no longer kept is
    cut from the kept tiles again, not drawn again."""
    return _seeded.get((seed, tokens, width), lambda: _scaled_matrices(seed, tokens, width))


def seeded_projections(seed: int, tokens: int, width: int) -> tuple[np.ndarray, ...]:
    """(X·W_Q, X·W_K, X·W_V), each (tokens, width) float32 and read-only, for
    seeded_matrices(seed, tokens, width); memoised for the SEEDED_KEPT newest keys (a few
    kB each). Changing h at a fixed d_model changes none of them."""
    def make():
        x, w_q, w_k, w_v, _w_o = seeded_matrices(seed, tokens, width)
        kept = tuple(x @ w for w in (w_q, w_k, w_v))
        for a in kept:
            a.flags.writeable = False
        return kept

    return _projections.get((seed, tokens, width), make)


def _scaled_matrices(seed: int, tokens: int, width: int) -> tuple[np.ndarray, ...]:
    x, levels = seeded_draw(seed, tokens, width)
    matrices = (np.ascontiguousarray(x), *levels_to_weights(levels))
    for a in matrices:
        a.flags.writeable = False
    return matrices


def computed_kv_heads(heads: int, kv_heads: int, computed_heads: int) -> int:
    """K/V heads at the computed shape: g itself when h is kept, else the largest divisor of
    the computed h that is at most computed_h·g/h (the share of K/V heads stays close)."""
    if computed_heads == heads:
        return kv_heads
    target = max(1, computed_heads * kv_heads // heads)
    return max(g for g in range(1, target + 1) if computed_heads % g == 0)


def run_multihead(d_model: int, heads: int, tokens: int, seed: int = 0,
                  scale: bool = True, temperature: float = 1.0, causal: bool = False,
                  matrices: tuple | None = None, kv_heads: int | None = None,
                  scale_by: str = "d_k", projections: tuple | None = None) -> MultiHeadResult:
    """Run one pass and freeze the arrays. X and the weights come from `matrices` (as made
    by seeded_matrices for the computed width) or are seeded_matrices(seed, …); W_K and W_V keep
    their first g·d_k columns. With scale on, scale_by="d_model" divides the scores by
    √(computed width) instead of √d_k: the √d_model mistake, at the shape computed.
    `projections`: (X·W_Q, X·W_K, X·W_V) of those matrices (seeded_projections), or None
    to compute them (see multi_head_attention)."""
    if scale_by not in ("d_k", "d_model"):
        raise ValueError(f"scale_by must be 'd_k' or 'd_model', got {scale_by!r}")
    dk = d_model // heads
    h_c, dk_c = computed_shape(heads, dk)
    g = heads if kv_heads is None else kv_heads
    g_c = computed_kv_heads(heads, g, h_c)
    width = h_c * dk_c
    seeded_from = None
    if matrices is None:
        matrices = seeded_matrices(seed, tokens, width)
        seeded_from = (seed, tokens, width)
    x, w_q, w_k, w_v, w_o = matrices
    if g_c * dk_c < w_k.shape[1]:   # GQA / MQA: the first g K/V heads' columns
        w_k, w_v = w_k[:, :g_c * dk_c], w_v[:, :g_c * dk_c]
    if not scale:
        divisor = 1.0
    else:
        divisor = math.sqrt(width if scale_by == "d_model" else dk_c)
    parts = multi_head_attention(x, w_q, w_k, w_v, w_o, h_c, scale, temperature, causal, divisor,
                                 projections)
    arrays = dict(x=x, w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o, **parts)
    for a in arrays.values():
        a.flags.writeable = False
    return MultiHeadResult(d_model=d_model, heads=heads, dk=dk, reduced=(h_c, dk_c) != (heads, dk),
                           computed_heads=h_c, computed_dk=dk_c, kv_heads=g,
                           computed_kv_heads=g_c, divisor=divisor, seeded_from=seeded_from,
                           **arrays)


#: Var of one fan-in weight times its fan-in: (i + ½)/128 levels give a²/3·(1 − 2⁻¹⁶), a² = 3/rows.
LEVEL_VARIANCE_FACTOR = 1.0 - 2.0**-16


def expected_score_variance(x: np.ndarray) -> float:
    """E over the weights of the mean square score q_i·k_j/√d_k, given X (n, d).

    With W_Q, W_K of independent fan-in entries (variance c/d, c = LEVEL_VARIANCE_FACTOR),
    q_i has entries of variance c‖x_i‖²/d, so E (q_i·k_j)²/d_k = c²‖x_i‖²‖x_j‖²/d², and the
    mean over all (i, j) is c²·(mean_i ‖x_i‖²/d)². It is ≈ 1 for X ~ N(0, 1): the value a
    sampled score variance scatters around. Divided by √d_model instead it is d_k/d_model
    times this."""
    x = np.asarray(x, dtype=np.float64)
    mean_norm2 = float((x * x).sum(axis=1).mean()) / x.shape[1]
    return LEVEL_VARIANCE_FACTOR**2 * mean_norm2**2


def divisor_comparison(q: np.ndarray, k: np.ndarray, d_model: int,
                       temperature: float = 1.0, x: np.ndarray | None = None) -> dict[str, float]:
    """Per-head attention when scores are divided by √d_k (right) vs √d_model (wrong).

    q, k: (h, n, d_k). Returns the mean row entropy (nats) and mean max-probability
    of the attention weights under both divisors, the entropy of uniform
    attention ln n, and the variance of the scaled scores under each divisor.
    With unit-variance Q and K entries, ÷√d_k gives score variance ≈ 1 and
    ÷√d_model gives ≈ d_k / d_model = 1/h: every head's softmax flattens.
    score_count is the number of scores the variances are taken over (h·n²). Given the
    token matrix x (n, d_model), score_variance_expected_dk / _d_model are what those
    sampled variances scatter around (expected_score_variance).
    """
    from .softmax import entropy, max_probability

    dk = q.shape[-1]
    raw = (q @ np.swapaxes(k, -1, -2)).astype(np.float64)
    out = {"uniform_entropy": math.log(q.shape[-2])}
    for name, divisor in (("dk", math.sqrt(dk)), ("d_model", math.sqrt(d_model))):
        scores = raw / divisor
        p = softmax(scores, temperature)
        out[f"entropy_{name}"] = float(entropy(p).mean())
        out[f"max_prob_{name}"] = float(max_probability(p).mean())
        out[f"score_variance_{name}"] = float(scores.var())
    out["score_count"] = int(raw.size)
    if x is not None:
        expected = expected_score_variance(x)
        out["score_variance_expected_dk"] = expected
        out["score_variance_expected_d_model"] = expected * dk / d_model
    return out
