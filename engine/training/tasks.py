"""Synthetic tasks, drawn from a seeded generator.

averaging  A CLS query reads N_AVERAGE tokens drawn from AVERAGE_VOCAB types, the first
           half "red", the second half "blue"; label 1 when blue is the majority. Fixed
           random N(0, 1) embeddings. Copying one random token gives the right colour with
           probability E[max(r, b)] / N_AVERAGE (see `copy_one_token_accuracy`).
Scaling tasks give items as indices into `table` (their embedding is the sum of the rows
named) and queries as indices into `query_table`.

lookup     LOOKUP_PAIRS items, each a (key, value) pair embedded as (K[key] + U[value]) / √2,
           keys a permutation of the LOOKUP_PAIRS keys; the query is (K[key*] + c) / √2 for
           one of them; label = that item's value (LOOKUP_PAIRS classes).
repeat     BOS, n distinct random tokens (n varies per sequence), the same n tokens again;
           padded at the end. Targets: at positions n+1 … 2n−1 the next token (only an
           induction mechanism can predict them; the first half is random).
two_rel    RELATION_ITEMS items (key, value) as single tokens key·V + value, keys a
           permutation, then a query token naming one key. The answer needs two relations
           at once: class = value_of_matching_item · V + value_of_the_item_just_before_query.
"""
from __future__ import annotations

import math

import numpy as np

AVERAGE_VOCAB = 32
N_AVERAGE = 9
LOOKUP_PAIRS = 8
RELATION_ITEMS = 8
RELATION_VALUES = 8
BOS = 0


def copy_one_token_accuracy(n: int = N_AVERAGE) -> float:
    """Accuracy of answering with the colour of one uniformly chosen token:
    Σ_r C(n, r) 2^−n · max(r, n − r) / n (exact; 0.637 for n = 9)."""
    return sum(math.comb(n, r) * max(r, n - r) for r in range(n + 1)) / (n * 2 ** n)


def fixed_embeddings(rng: np.random.Generator, rows: int, d_model: int, dtype) -> np.ndarray:
    return rng.standard_normal((rows, d_model)).astype(dtype)


class AveragingTask:
    classes = 2

    def __init__(self, rng: np.random.Generator, d_model: int, dtype) -> None:
        rows = fixed_embeddings(rng, AVERAGE_VOCAB + 1, d_model, dtype)  # last row: CLS
        self.table, self.query_table = rows[:AVERAGE_VOCAB], rows[AVERAGE_VOCAB:]

    def batch(self, rng: np.random.Generator, size: int):
        """(query index into query_table (B,), item index into table (B, n, 1), labels (B,)):
        item j's embedding is table[index[j, 0]]."""
        tokens = rng.integers(0, AVERAGE_VOCAB, size=(size, N_AVERAGE))
        labels = ((tokens >= AVERAGE_VOCAB // 2).sum(axis=1) > N_AVERAGE // 2).astype(np.int64)
        return np.zeros(size, dtype=np.int64), tokens[:, :, None], labels


class LookupTask:
    classes = LOOKUP_PAIRS

    def __init__(self, rng: np.random.Generator, d_model: int, dtype) -> None:
        norm = 1.0 / math.sqrt(2.0)
        keys = fixed_embeddings(rng, LOOKUP_PAIRS, d_model, dtype)
        self.keys = keys * norm
        self.values = fixed_embeddings(rng, LOOKUP_PAIRS, d_model, dtype) * norm
        self.query_table = self.keys + fixed_embeddings(rng, 1, d_model, dtype) * norm
        self.table = np.concatenate([self.keys, self.values])

    def batch(self, rng: np.random.Generator, size: int):
        keys = np.argsort(rng.random((size, LOOKUP_PAIRS)), axis=1)
        values = rng.integers(0, LOOKUP_PAIRS, size=(size, LOOKUP_PAIRS))
        pick = rng.integers(0, LOOKUP_PAIRS, size=size)
        rows = np.arange(size)
        index = np.stack([keys, LOOKUP_PAIRS + values], axis=-1)   # rows of table: key, value
        return keys[rows, pick], index, values[rows, pick]


SCALING_TASKS = {"averaging": AveragingTask, "lookup": LookupTask}


def repeat_batch(rng: np.random.Generator, size: int, vocab: int, n_min: int, n_max: int,
                 lengths: np.ndarray | None = None):
    """tokens (B, 1 + 2·n_max), targets (B, T), weight (B, T) float32, lengths n (B,)."""
    n = rng.integers(n_min, n_max + 1, size=size) if lengths is None else np.asarray(lengths)
    t = 1 + 2 * n_max
    draws = np.argsort(rng.random((size, vocab - 1)), axis=1)[:, :n_max] + 1
    pos = np.arange(t)[None, :]
    first = (pos >= 1) & (pos <= n[:, None])
    second = (pos > n[:, None]) & (pos <= 2 * n[:, None])
    index = np.where(first, pos - 1, np.where(second, pos - n[:, None] - 1, 0))
    tokens = np.where(first | second, np.take_along_axis(draws, index, axis=1), BOS)
    targets = np.zeros_like(tokens)
    targets[:, :-1] = tokens[:, 1:]
    weight = ((pos > n[:, None]) & (pos < 2 * n[:, None])).astype(np.float32)
    return tokens, targets, weight, n


def relation_vocab() -> int:
    return RELATION_ITEMS * RELATION_VALUES + RELATION_ITEMS


def relation_batch(rng: np.random.Generator, size: int):
    """tokens (B, items + 1), targets (B, T) (only the last position scored), weight (B, T),
    and the position of the matching item (B,)."""
    keys = np.argsort(rng.random((size, RELATION_ITEMS)), axis=1)
    values = rng.integers(0, RELATION_VALUES, size=(size, RELATION_ITEMS))
    match = rng.integers(0, RELATION_ITEMS, size=size)
    rows = np.arange(size)
    query = RELATION_ITEMS * RELATION_VALUES + keys[rows, match]
    tokens = np.concatenate([keys * RELATION_VALUES + values, query[:, None]], axis=1)
    targets = np.zeros_like(tokens)
    targets[:, -1] = values[rows, match] * RELATION_VALUES + values[:, -1]
    weight = np.zeros(tokens.shape, dtype=np.float32)
    weight[:, -1] = 1.0
    return tokens, targets, weight, match
