"""What each pretrained head does, as scores computed from its attention map.

For one head's map A (n, n) (rows are queries and sum to 1), with Q the query rows other than
the first token (i = 1 … n−1; the first token's own row is self-attention, and in a decoder
it can attend to nothing else):

    prev_token_score   mean_{i ≥ 1}      A[i, i−1]
    next_token_score   mean_{i ≤ n−2}    A[i, i+1]         (0 in a decoder: the mask forbids it)
    self_score         mean_{i ∈ Q}      A[i, i]
    first_token_score  mean_{i ∈ Q}      A[i, 0]           ([CLS] for BERT, the first token or BOS)
    separator_score    mean_{i ∈ Q}  Σ_{j ∈ sinks} A[i, j]  (sinks: [SEP]-like tokens and
                                                            punctuation, j ≥ 1)
    entropy            mean_{i ∈ Q}  H_i,  H_i = −Σ_j A[i, j] ln A[i, j]   (nats)
    broad_score        mean_{i ∈ Q}  H_i / ln(k_i), k_i the keys row i may see (n, or i+1)
    induction_score    decoders only: on [BOS] r r with r a fixed random sequence of
                       INDUCTION_LENGTH tokens, the mean attention from each token of the second
                       copy to the token that followed its earlier occurrence.

The role is the score among previous / next / self / first / separator / induction that is
largest, when it exceeds ROLE_THRESHOLD (more than half the attention); otherwise "broad" when
broad_score ≥ BROAD_THRESHOLD, otherwise "mixed".
"""
from __future__ import annotations

import threading
import unicodedata
import weakref
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .forward import ForwardResult, attentions
from .loader import Model, TokenError

ROLE_THRESHOLD = 0.5
BROAD_THRESHOLD = 0.8
INDUCTION_LENGTH = 24
INDUCTION_SEED = 0
ROLES = ("previous", "next", "self", "first", "separator", "induction", "broad", "mixed")
SEPARATOR_TOKENS = frozenset({"[SEP]", "</s>", "<sep>", "<|endoftext|>"})
_WORD_MARKS = ("##", "Ġ", "▁", "Ċ")


@dataclass(frozen=True)
class HeadRole:
    layer: int
    head: int
    prev_token_score: float
    next_token_score: float
    self_score: float
    first_token_score: float
    separator_score: float
    entropy: float
    broad_score: float
    induction_score: float | None
    role: str


def is_sink_token(token: str) -> bool:
    """A separator ([SEP], </s>, …) or a token made only of punctuation ("." "," "Ġ?" "##!")."""
    if token in SEPARATOR_TOKENS:
        return True
    text = token
    for mark in _WORD_MARKS:
        if text.startswith(mark):
            text = text[len(mark):]
    text = text.strip()
    return bool(text) and all(unicodedata.category(ch).startswith("P") for ch in text)


def head_scores(attn: np.ndarray, sinks: np.ndarray, causal: bool) -> dict[str, np.ndarray]:
    """The positional scores of every head at once. attn (..., n, n), sinks (n,) bool; each
    score has shape attn.shape[:-2]. Needs n ≥ 2."""
    n = attn.shape[-1]
    if n < 2:
        raise TokenError("role detection needs at least 2 tokens")
    idx = np.arange(1, n)
    rows = attn[..., 1:, :]  # the queries Q
    sink_keys = sinks.copy()
    sink_keys[0] = False
    p = rows.astype(np.float64)
    plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    row_entropy = -plogp.sum(axis=-1)  # (..., n-1)
    keys_seen = idx + 1 if causal else np.full(n - 1, n)
    return {
        "prev_token_score": attn[..., idx, idx - 1].mean(axis=-1),
        "next_token_score": attn[..., idx - 1, idx].mean(axis=-1),
        "self_score": attn[..., idx, idx].mean(axis=-1),
        "first_token_score": rows[..., 0].mean(axis=-1),
        "separator_score": rows[..., sink_keys].sum(axis=-1).mean(axis=-1),
        "entropy": row_entropy.mean(axis=-1),
        "broad_score": (row_entropy / np.log(keys_seen)).mean(axis=-1),
    }


def induction_ids(model: Model) -> tuple[int, ...]:
    """[BOS] r r: r is INDUCTION_LENGTH ids drawn with INDUCTION_SEED (BOS left out of r)."""
    cfg = model.config
    length = min(INDUCTION_LENGTH, (cfg.max_positions - 1) // 2)
    rng = np.random.default_rng(INDUCTION_SEED)
    pool = np.setdiff1d(np.arange(cfg.vocab_size), [cfg.bos_token_id] if cfg.bos_token_id
                        is not None else [])
    r = [int(i) for i in rng.choice(pool, size=length, replace=False)]
    head = [cfg.bos_token_id] if cfg.bos_token_id is not None else []
    return tuple(head + r + r)


def induction_scores(attn: np.ndarray, offset: int, length: int) -> np.ndarray:
    """attn (..., n, n) on a sequence whose positions offset … offset+2·length−1 hold r r:
    mean over t of attn[offset+length+t, offset+t+1]; shape attn.shape[:-2]."""
    t = np.arange(length)
    return attn[..., offset + length + t, offset + t + 1].mean(axis=-1)


_induction_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_induction_lock = threading.Lock()


def model_induction_scores(model: Model) -> np.ndarray:
    """(L, h) induction scores of a decoder on `induction_ids(model)`; computed once per model."""
    with _induction_lock:
        cached = _induction_cache.get(model)
    if cached is None:
        ids = induction_ids(model)
        offset = 1 if model.config.bos_token_id is not None else 0
        cached = induction_scores(attentions(model, ids).attentions, offset,
                                  (len(ids) - offset) // 2)
        with _induction_lock:
            _induction_cache[model] = cached
    return cached


def _role(scores: dict[str, float]) -> str:
    candidates = [("previous", scores["prev_token_score"]), ("next", scores["next_token_score"]),
                  ("self", scores["self_score"]), ("first", scores["first_token_score"]),
                  ("separator", scores["separator_score"])]
    if scores["induction_score"] is not None:
        candidates.append(("induction", scores["induction_score"]))
    name, best = max(candidates, key=lambda c: c[1])
    if best > ROLE_THRESHOLD:
        return name
    return "broad" if scores["broad_score"] >= BROAD_THRESHOLD else "mixed"


def head_roles(result: ForwardResult, model: Model) -> tuple[HeadRole, ...]:
    """Scores and role of every head, layer by layer (L·h entries). For a decoder the induction
    sequence is also run through `model` (once per model; the scores are kept)."""
    induction = model_induction_scores(model) if result.causal else None
    return roles_of_maps(result.attentions, result.tokens, result.causal, induction)


def roles_of_maps(attn: np.ndarray, tokens, causal: bool,
                  induction: np.ndarray | None = None) -> tuple[HeadRole, ...]:
    """The same scores and role as head_roles, for maps from anywhere (the training lab's
    learned heads, the hand-built heads): attn (L, h, n, n) over `tokens` (n,), causal when
    a query sees only itself and earlier keys; induction (L, h) or None where it does not
    apply. L·h entries, layer by layer."""
    sinks = np.array([is_sink_token(t) for t in tokens])
    scores = head_scores(attn, sinks, causal)
    layers, heads = attn.shape[:2]
    roles = []
    for layer in range(layers):
        for head in range(heads):
            values = {name: float(a[layer, head]) for name, a in scores.items()}
            values["induction_score"] = (None if induction is None
                                         else float(induction[layer, head]))
            roles.append(HeadRole(layer=layer, head=head, role=_role(values), **values))
    return tuple(roles)


def repeat_span(tokens) -> tuple[int, int] | None:
    """(offset, length) when `tokens` are r r or one start token then r r (r of length ≥ 2),
    the sequence induction is measured on; None otherwise."""
    tokens = tuple(tokens)
    for offset in (1, 0):
        length, rest = divmod(len(tokens) - offset, 2)
        if not rest and length >= 2 and tokens[offset:offset + length] == tokens[offset + length:]:
            return offset, length
    return None


@dataclass(frozen=True)
class RoleSummary:
    heads: int
    first_token: str  # e.g. "[CLS]"
    first_token_heads: int  # heads whose first_token_score > ROLE_THRESHOLD
    role_counts: tuple[tuple[str, int], ...]  # (role, count) in ROLES order, zeros left out

    def line(self) -> str:
        """e.g. '26 of 72 heads put more than half their attention on [CLS]'."""
        return (f"{self.first_token_heads} of {self.heads} heads put more than half their "
                f"attention on {self.first_token}")


def summarize_roles(roles: tuple[HeadRole, ...], result: ForwardResult) -> RoleSummary:
    counts = Counter(r.role for r in roles)
    first = result.tokens[0]
    return RoleSummary(
        heads=len(roles),
        first_token=first if first in ("[CLS]", "<s>", "<|endoftext|>") else f"the first token "
        f"({first!r})",
        first_token_heads=sum(r.first_token_score > ROLE_THRESHOLD for r in roles),
        role_counts=tuple((name, counts[name]) for name in ROLES if counts[name]))
