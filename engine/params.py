"""Validated, immutable simulation parameters.

`Params` is the single input of `engine.compute`. Every field is checked in
`__post_init__`; a bad value raises `ParamsError` (a `ValueError`) whose message
names the field, the allowed range and the value that was given.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

DK_MAX = 16_384
D_MODEL_MAX = 16_384
SCORES_MIN, SCORES_MAX = 2, 16
KEYS_MIN, KEYS_MAX = 2, 64
SAMPLES_MIN, SAMPLES_MAX = 10, 1_000_000
TEMPERATURE_MIN, TEMPERATURE_MAX = 0.01, 100.0
SIGMA_MIN, SIGMA_MAX = 0.01, 100.0
TOKENS_MIN, TOKENS_MAX = 2, 16
SEQ_LEN_MAX = 1_000_000
#: Seeds are 0 … 2³¹ − 1 everywhere (Params, sessions, the command line, the window):
#: Qt's spin boxes hold a signed 32-bit int.
SEED_MAX = 2**31 - 1
#: |score| ≤ SCORE_LIMIT. Within it every downstream number stays finite: softmax of
#: s / (T·√d_k) with T ≥ 0.01 sees differences ≤ 2·10⁸, the window's score sliders
#: (round(10·s)) stay far inside a 32-bit int, and squares such as s² ≤ 10¹² cannot overflow.
SCORE_LIMIT = 1e6
DISTRIBUTIONS = ("normal", "uniform", "rademacher")
#: What the multi-head demo divides its scores by when `scale` is on.
SCALE_BY = ("d_k", "d_model")
CACHED_LAYERS_MAX = 1_000


class ParamsError(ValueError):
    """A parameter is out of range or inconsistent; the message says which and why."""


def divisors(n: int) -> list[int]:
    """All positive divisors of n in increasing order."""
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def _check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise ParamsError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    value = int(value)
    if not low <= value <= high:
        raise ParamsError(f"{name} must be from {low} to {high}, got {value}")
    return value


def _check_float(name: str, value, low: float, high: float) -> float:
    if isinstance(value, (bool, str, bytes)):  # float() would accept True and "2"
        raise ParamsError(f"{name} must be a number from {low:g} to {high:g}, got {value!r}")
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ParamsError(f"{name} must be a number from {low:g} to {high:g}, got {value!r}") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ParamsError(f"{name} must be from {low:g} to {high:g}, got {value!r}")
    return value


def _check_bool(name: str, value) -> bool:
    """True/False (or 0/1); bool("no") would silently be True, so text is refused."""
    try:
        ok = isinstance(value, bool) or (not isinstance(value, (str, bytes)) and value in (0, 1))
    except (TypeError, ValueError):  # e.g. an array: its truth value is ambiguous
        ok = False
    if not ok:
        raise ParamsError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def check_heads_divide(d_model: int, heads: int) -> None:
    """Raise ParamsError naming the valid h when h does not divide d_model."""
    if d_model % heads:
        valid = divisors(d_model)
        shown = ", ".join(map(str, valid[:16])) + (", …" if len(valid) > 16 else "")
        raise ParamsError(f"h = {heads} does not divide d_model = {d_model}; valid h: {shown}")


def resolve_shape(dk: int | None = None, heads: int | None = None,
                  d_model: int | None = None) -> tuple[int, int, int]:
    """Fill in the missing members of (d_k, h, d_model) so that d_model = h·d_k.

    Given all three, they must agree. Given d_k alone, h is 8, or fewer if
    8·d_k would exceed D_MODEL_MAX. Given nothing, the result is (64, 8, 512).
    Raises ParamsError for combinations that cannot hold.
    """
    if dk is not None:
        dk = _check_int("d_k", dk, 1, DK_MAX)
    if heads is not None:
        heads = _check_int("h", heads, 1, D_MODEL_MAX)
    if d_model is not None:
        d_model = _check_int("d_model", d_model, 1, D_MODEL_MAX)
    if d_model is None and dk is None:
        d_model = 512
    if d_model is not None and heads is None and dk is None:
        heads = 8
    if d_model is None:
        if heads is None:
            heads = max(1, min(8, D_MODEL_MAX // dk))
        d_model = heads * dk
        if d_model > D_MODEL_MAX:
            raise ParamsError(f"h·d_k = {heads}·{dk} = {d_model} exceeds d_model's limit {D_MODEL_MAX}")
        return dk, heads, d_model
    if heads is None:
        if d_model % dk:
            raise ParamsError(f"d_k = {dk} does not divide d_model = {d_model}")
        return dk, d_model // dk, d_model
    check_heads_divide(d_model, heads)
    if dk is not None and dk * heads != d_model:
        raise ParamsError(f"d_k must equal d_model / h = {d_model // heads}, got {dk}")
    return d_model // heads, heads, d_model


@dataclass(frozen=True)
class Params:
    """Everything `compute` needs.

    dk           width of q and k (also the per-head width, d_k = d_model / h)
    heads        number of heads h
    d_model      model width; must equal heads·dk
    scores       2–16 raw attention scores for the softmax demo
    keys         number of keys n (2–64) per query in the saturation study
    samples      number of q·k samples for the variance histogram
    seed         seed of every random draw
    scale        divide scores by √d_k before softmax
    temperature  softmax temperature T: softmax(s / T)
    distribution component law of q and k: normal, uniform or rademacher
    sigma        standard deviation σ of each component
    tokens       sequence length of the multi-head demo (n tokens)
    seq_len      sequence length used for cost accounting
    causal       mask future tokens in the multi-head demo
    kv_heads     key/value heads g (1 ≤ g ≤ h, g divides h): g = h is multi-head attention,
                 g = 1 multi-query, between them grouped-query. None means "equal to h" and
                 is how MHA is stored (a given g = h is normalised to None), so that
                 dataclasses.replace(p, heads=…) keeps MHA at every h; read `kv_heads_used`
    live_scores  the softmax demo uses `live_scores_for(self)`: q·k_j sampled at the current
                 d_k from `seed` (coupled across d_k), instead of `scores`
    scale_by     "d_k" (right) or "d_model" (the common mistake): what the multi-head demo
                 divides its scores by, under its square root, when `scale` is on
    cached_layers  layers whose keys and values are cached per token (KV cache figure);
                 0 for a model that caches none (encoder only)
    """

    dk: int = 64
    heads: int = 8
    d_model: int = 512
    scores: tuple[float, ...] = (10.0, 1.0, 1.0, 1.0)
    keys: int = 8
    samples: int = 20_000
    seed: int = 0
    scale: bool = True
    temperature: float = 1.0
    distribution: str = "normal"
    sigma: float = 1.0
    tokens: int = 6
    seq_len: int = 512
    causal: bool = False
    kv_heads: int | None = None
    live_scores: bool = False
    scale_by: str = "d_k"
    cached_layers: int = 1

    @property
    def kv_heads_used(self) -> int:
        """Key/value heads g as a number: h when `kv_heads` is None."""
        return self.heads if self.kv_heads is None else self.kv_heads

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "dk", _check_int("d_k", self.dk, 1, DK_MAX))
        put(self, "heads", _check_int("h", self.heads, 1, D_MODEL_MAX))
        put(self, "d_model", _check_int("d_model", self.d_model, 1, D_MODEL_MAX))
        check_heads_divide(self.d_model, self.heads)
        if self.heads * self.dk != self.d_model:
            raise ParamsError(
                f"d_model must equal h·d_k = {self.heads}·{self.dk} = {self.heads * self.dk}, "
                f"got {self.d_model}")
        try:
            if isinstance(self.scores, (str, bytes)) or any(
                    isinstance(s, (bool, str, bytes)) for s in self.scores):
                raise TypeError  # a string would be split into characters: "1234" → 1, 2, 3, 4
            scores = tuple(float(s) for s in self.scores)
        except (TypeError, ValueError):
            raise ParamsError(f"scores must be numbers, got {self.scores!r}") from None
        if not SCORES_MIN <= len(scores) <= SCORES_MAX:
            raise ParamsError(f"scores needs {SCORES_MIN} to {SCORES_MAX} values, got {len(scores)}")
        bad = [s for s in scores if not math.isfinite(s)]
        if bad:
            raise ParamsError(f"scores must be finite numbers, got {bad[0]!r}")
        big = [s for s in scores if abs(s) > SCORE_LIMIT]
        if big:
            raise ParamsError(f"scores must lie between -{SCORE_LIMIT:.0f} and {SCORE_LIMIT:.0f}, "
                              f"got {big[0]:g}")
        put(self, "scores", scores)
        put(self, "keys", _check_int("keys", self.keys, KEYS_MIN, KEYS_MAX))
        put(self, "samples", _check_int("samples", self.samples, SAMPLES_MIN, SAMPLES_MAX))
        put(self, "seed", _check_int("seed", self.seed, 0, SEED_MAX))
        put(self, "scale", _check_bool("scale", self.scale))
        put(self, "temperature",
            _check_float("temperature", self.temperature, TEMPERATURE_MIN, TEMPERATURE_MAX))
        if not isinstance(self.distribution, str) or self.distribution not in DISTRIBUTIONS:
            raise ParamsError(
                f"distribution must be one of {', '.join(DISTRIBUTIONS)}, got {self.distribution!r}")
        put(self, "sigma", _check_float("sigma", self.sigma, SIGMA_MIN, SIGMA_MAX))
        put(self, "tokens", _check_int("tokens", self.tokens, TOKENS_MIN, TOKENS_MAX))
        put(self, "seq_len", _check_int("seq_len", self.seq_len, 1, SEQ_LEN_MAX))
        put(self, "causal", _check_bool("causal", self.causal))
        if self.kv_heads is not None:
            kv = _check_int("kv_heads", self.kv_heads, 1, self.heads)
            if self.heads % kv:
                valid = divisors(self.heads)
                valid = ", ".join(map(str, valid[:16])) + (", …" if len(valid) > 16 else "")
                raise ParamsError(f"kv_heads = {kv} does not divide h = {self.heads}; "
                                  f"valid kv_heads: {valid}")
            put(self, "kv_heads", None if kv == self.heads else kv)
        put(self, "live_scores", _check_bool("live_scores", self.live_scores))
        if not isinstance(self.scale_by, str) or self.scale_by not in SCALE_BY:
            raise ParamsError(f"scale_by must be one of {', '.join(SCALE_BY)}, got {self.scale_by!r}")
        put(self, "cached_layers", _check_int("cached_layers", self.cached_layers, 0,
                                              CACHED_LAYERS_MAX))

    def to_dict(self) -> dict:
        """A JSON-ready dict of the public fields."""
        data = asdict(self)
        data["scores"] = list(self.scores)
        data["kv_heads"] = self.kv_heads_used  # a number; Params(**data) stores g = h as None
        return data
