"""Experiment "heads": quality against the number of heads h at a fixed d_model.

A 1-layer attention model (stack.py, not causal, d_k = d_model / h so the attention cost
stays the same) answers at the query position a question that needs two relations at
once (tasks.relation_batch): the value of the item whose key the query names (found by
content) and the value of the item just before the query (found by position). One head
can only average the two items' values, so it cannot tell which is which; two heads can
each take one relation. Every h is trained for `seeds` seeds; the result shows final
loss and accuracy against h with the seeds as a band, beside the paper's Table 3 rows (A).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .adam import Adam
from .common import (COMMON_CHECKS, ConfigMixin, CurveLog, HeadView, Progress, Run, SeedsMixin,
                     TrainingConfigError, distinct, distinct_or_empty, flag, single_thread_blas,
                     whole)
from .pruning import prune_relation_model
from .roles_scoring import name_role
from .softmax_clip import row_entropy
from .stack import (StackShape, cross_entropy, init_stack, stack_forward, stack_loss_and_grads,
                    wq_grad_norm)
from .tasks import RELATION_ITEMS, RELATION_VALUES, relation_batch, relation_vocab

DTYPE = np.float32

#: Vaswani et al. 2017, Table 3 rows (A): English→German newstest2013 dev set, d_model = 512.
PAPER_TABLE3_A = (
    {"heads": 1, "d_k": 512, "d_v": 512, "ppl": 5.29, "bleu": 24.9},
    {"heads": 4, "d_k": 128, "d_v": 128, "ppl": 5.00, "bleu": 25.5},
    {"heads": 8, "d_k": 64, "d_v": 64, "ppl": 4.92, "bleu": 25.8},
    {"heads": 16, "d_k": 32, "d_v": 32, "ppl": 4.91, "bleu": 25.8},
    {"heads": 32, "d_k": 16, "d_v": 16, "ppl": 5.01, "bleu": 25.4},
)

#: Roles of a head in this task, named from its query row's scores.
RELATION_THRESHOLDS = {"content_match": ("content_match", 0.5),
                       "previous_item": ("previous_item", 0.5), "self": ("self", 0.5)}
RELATION_SCORES = ("content_match", "previous_item", "self", "entropy")


@dataclass(frozen=True)
class HeadsConfig(SeedsMixin, ConfigMixin):
    heads: tuple[int, ...] = (1, 2, 4, 8, 16)
    d_model: int = 32
    seed: int = 0
    seeds: int = 3
    steps: int = 300
    batch: int = 64
    lr: float = 1e-2
    scale: bool = True
    eval_size: int = 256
    log_every: int = 20
    snapshot_every: int = 25
    seed_list: tuple[int, ...] = ()   # the seeds by name; empty: seed … seed + seeds − 1
    prune: bool = True

    CHECKS = {"heads": distinct(whole(1, 64)), "d_model": whole(1, 1024), **COMMON_CHECKS,
              "seeds": whole(1, 20), "scale": flag(), "prune": flag(),
              "seed_list": distinct_or_empty(whole(0, 2**31 - 1))}

    def check_together(self) -> None:
        self.check_seeds()
        for h in self.heads:
            if self.d_model % h:
                raise TrainingConfigError(f"h = {h} does not divide d_model = {self.d_model}")

    @property
    def run_count(self) -> int:
        return len(self.heads) * self.seeds

    def shape(self, heads: int) -> StackShape:
        return StackShape(vocab=relation_vocab(), classes=RELATION_VALUES ** 2,
                          max_len=RELATION_ITEMS + 1, d_model=self.d_model, layers=1,
                          heads=heads, d_k=self.d_model // heads, causal=False, scale=self.scale,
                          last_query_only=True)


@dataclass(frozen=True)
class HeadsResult:
    """runs: one Run per (h, seed), label {"heads", "d_k", "seed"}. heads_views: the last
    run's heads on the sample sequence. paper: PAPER_TABLE3_A. pruning: with
    config.prune, (h, pruning.PruningCurve) of the first seed's model of every h that
    finished training, in the order of config.heads."""

    config: HeadsConfig
    runs: tuple[Run, ...]
    head_views: tuple[HeadView, ...]
    sample_tokens: tuple[str, ...]
    stopped: bool
    elapsed_s: float
    paper: tuple = PAPER_TABLE3_A
    pruning: tuple = ()

    experiment = "heads"

    def summary(self) -> list[dict]:
        """Per h: mean / min / max over seeds of final loss and accuracy."""
        rows = []
        for h in self.config.heads:
            runs = [r for r in self.runs if r.label["heads"] == h]
            if not runs:
                continue
            loss = [r.final_loss for r in runs]
            acc = [r.final_accuracy for r in runs]
            rows.append({"heads": h, "d_k": self.config.d_model // h, "seeds": len(runs),
                         "final_loss": float(np.mean(loss)), "loss_min": min(loss),
                         "loss_max": max(loss), "final_accuracy": float(np.mean(acc)),
                         "accuracy_min": min(acc), "accuracy_max": max(acc)})
        return rows


def score_relation_head(weights: np.ndarray, match: np.ndarray) -> dict[str, float]:
    """Scores of one head from its query rows: weights (B, T, T), match (B,) positions.
    content_match = mean A[q, match], previous_item = mean A[q, q−1], self = mean A[q, q],
    entropy = mean entropy of the query row (nats); q = T − 1."""
    q = weights[:, -1, :].astype(np.float64)
    return {"content_match": float(q[np.arange(len(q)), match].mean()),
            "previous_item": float(q[:, -2].mean()), "self": float(q[:, -1].mean()),
            "entropy": float(row_entropy(q).mean())}


def _views(params, shape, sample_tokens, scores):
    _, cache = stack_forward(params, shape, sample_tokens)
    w = cache["weights"][0]
    return [HeadView(layer=0, head=h, weights=np.ascontiguousarray(w[0, h]), scores=scores[h],
                     role=name_role(scores[h], RELATION_THRESHOLDS)) for h in range(shape.heads)]


def _token_label(token: int) -> str:
    items = RELATION_ITEMS * RELATION_VALUES
    if token >= items:
        return f"?{token - items}"
    return f"{token // RELATION_VALUES}:{token % RELATION_VALUES}"


def _train_one(config, progress, heads, seed, sample, sample_labels):
    shape = config.shape(heads)
    params = init_stack(shape, np.random.default_rng((seed, heads, 1)), DTYPE)
    data = np.random.default_rng((seed, 2))       # the same batches for every h
    ev = relation_batch(np.random.default_rng((seed, 3)), config.eval_size)
    optimizer = Adam(params, config.lr)
    log = CurveLog()
    label = {"heads": heads, "d_k": shape.d_k, "seed": seed}
    views = []

    def evaluate(step, grad_norm):
        logits, cache = stack_forward(params, shape, ev[0])
        loss, _, accuracy = cross_entropy(logits, ev[1][:, -1:], ev[2][:, -1:])
        w = cache["weights"][0]
        query_rows = w[:, :, -1, :]
        log.add(step, loss=loss, accuracy=accuracy, grad_norm_wq=grad_norm,
                attention_entropy=float(row_entropy(query_rows).mean()),
                max_attention=float(query_rows.max(axis=-1).mean()))
        return [score_relation_head(w[:, h], ev[3]) for h in range(heads)]

    scores = evaluate(0, float("nan"))
    for step in range(1, config.steps + 1):
        if progress.stop_requested():
            break
        tokens, targets, weight, _ = relation_batch(data, config.batch)
        _, _, grads, _ = stack_loss_and_grads(params, shape, tokens, targets, weight)
        optimizer.step(grads)
        progress.step += 1
        if step % config.log_every == 0 or step == config.steps:
            scores = evaluate(step, wq_grad_norm(grads, 1))
        if progress.snapshot_due(step, config.snapshot_every):
            views = _views(params, shape, sample, scores)
            progress.send(Run(label, log.freeze()), views, sample_labels)
    return Run(label, log.freeze()), _views(params, shape, sample, scores), params, ev


def train_model(config: HeadsConfig, heads: int, seed: int):
    """One model of the experiment trained alone, as run_heads trains it: (run, params,
    shape, evaluation batch (tokens, targets, weight, match))."""
    progress = Progress("heads", config.steps, 1)
    sample = relation_batch(np.random.default_rng((config.seed, 4)), 1)[0]
    with single_thread_blas():
        run, _, params, ev = _train_one(config, progress, heads, seed, sample, ())
    return run, params, config.shape(heads), ev


def run_heads(config: HeadsConfig | None = None, on_snapshot=None, should_stop=None,
              snapshot_period_s: float | None = None) -> HeadsResult:
    config = HeadsConfig() if config is None else config
    start = time.perf_counter()
    progress = Progress("heads", config.run_count * config.steps, config.run_count,
                        on_snapshot, should_stop, snapshot_period_s)
    sample = relation_batch(np.random.default_rng((config.seed_values[0], 4)), 1)[0]
    sample_labels = tuple(_token_label(int(t)) for t in sample[0])
    views: list[HeadView] = []
    pruning = []
    with single_thread_blas():
        for heads in config.heads:
            for seed in config.seed_values:
                if progress.stop_requested():
                    break
                run, views, params, ev = _train_one(config, progress, heads, seed, sample,
                                                    sample_labels)
                progress.finished.append(run)
                if config.prune and seed == config.seed and not progress.stopped:
                    pruning.append((heads, prune_relation_model(
                        params, config.shape(heads), ev, seed, config.eval_size)))
    progress.send(None, views, sample_labels, done=True)
    return HeadsResult(config, tuple(progress.finished), tuple(views), sample_labels,
                       progress.stopped, time.perf_counter() - start, pruning=tuple(pruning))
