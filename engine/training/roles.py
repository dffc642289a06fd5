"""Experiment "roles": do heads divide the work among themselves?

A 2-layer attention-only model (stack.py, causal) reads BOS, n random distinct tokens
(n drawn per sequence from n_min … n_max) and the same n tokens again, and predicts the
next token in the repeat (tasks.repeat_batch). Nobody tells a head what to do: every
`snapshot_every` steps every head is scored on a fixed scoring batch (roles_scoring.py)
and its role is named from those scores.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .adam import Adam
from .common import (COMMON_CHECKS, ConfigMixin, CurveLog, HeadView, Progress, Run,
                     TrainingConfigError, flag, single_thread_blas, whole)
from .roles_scoring import SCORE_NAMES, name_role, score_repeat_head
from .stack import (StackShape, attention_stats, cross_entropy, init_stack, stack_forward,
                    stack_loss_and_grads, wq_grad_norm)
from .tasks import BOS, repeat_batch

DTYPE = np.float32


@dataclass(frozen=True)
class RolesConfig(ConfigMixin):
    seed: int = 0
    steps: int = 600
    batch: int = 32
    lr: float = 1e-2
    vocab: int = 32
    d_model: int = 32
    layers: int = 2
    heads: int = 4
    d_k: int = 8
    scale: bool = True
    n_min: int = 3
    n_max: int = 12
    sample_n: int = 8
    eval_size: int = 128
    log_every: int = 20
    snapshot_every: int = 10

    CHECKS = {**COMMON_CHECKS, "vocab": whole(4, 1024), "d_model": whole(1, 1024),
              "layers": whole(1, 4), "heads": whole(1, 64), "d_k": whole(1, 1024),
              "scale": flag(), "n_min": whole(2, lambda c: c.vocab - 1),
              "n_max": whole(lambda c: c.n_min, lambda c: c.vocab - 1),
              "sample_n": whole(lambda c: c.n_min, lambda c: c.n_max)}

    def check_together(self) -> None:
        if self.heads * self.layers > 64:
            raise TrainingConfigError("at most 64 heads in all")

    def shape(self) -> StackShape:
        return StackShape(vocab=self.vocab, classes=self.vocab, max_len=1 + 2 * self.n_max,
                          d_model=self.d_model, layers=self.layers, heads=self.heads,
                          d_k=self.d_k, causal=True, scale=self.scale)


@dataclass(frozen=True)
class RolesResult:
    """run: the one training run (label {"seed"}). heads: every head at the end, on the
    sample sequence, scored and named. score_steps (P,) and score_history
    (P, layers, heads, len(SCORE_NAMES)) float32: the scores over training."""

    config: RolesConfig
    run: Run
    heads: tuple[HeadView, ...]
    sample_tokens: tuple[str, ...]
    score_steps: np.ndarray
    score_history: np.ndarray
    stopped: bool
    elapsed_s: float

    experiment = "roles"

    @property
    def runs(self) -> tuple[Run, ...]:
        return (self.run,)

    def role_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for head in self.heads:
            counts[head.role] = counts.get(head.role, 0) + 1
        return counts


def score_heads(weights_by_layer, lengths) -> list[list[dict]]:
    """Scores of every head: [layer][head] → {score name: value}."""
    return [[score_repeat_head(w[:, h], lengths) for h in range(w.shape[1])]
            for w in weights_by_layer]


def _views(params, shape, sample, scores) -> list[HeadView]:
    tokens, t = sample
    _, cache = stack_forward(params, shape, tokens)
    return [HeadView(layer=l, head=h, weights=np.ascontiguousarray(w[0, h, :t, :t]),
                     scores=scores[l][h], role=name_role(scores[l][h]))
            for l, w in enumerate(cache["weights"]) for h in range(w.shape[1])]


def run_roles(config: RolesConfig | None = None, on_snapshot=None, should_stop=None,
              snapshot_period_s: float | None = None) -> RolesResult:
    config = RolesConfig() if config is None else config
    start = time.perf_counter()
    shape = config.shape()
    progress = Progress("roles", config.steps, 1, on_snapshot, should_stop,
                        snapshot_period_s)
    params = init_stack(shape, np.random.default_rng((config.seed, 1)), DTYPE)
    data = np.random.default_rng((config.seed, 2))
    ev_tokens, ev_targets, ev_weight, ev_n = repeat_batch(
        np.random.default_rng((config.seed, 3)), config.eval_size, config.vocab,
        config.n_min, config.n_max)
    s_tokens, _, _, _ = repeat_batch(np.random.default_rng((config.seed, 4)), 1, config.vocab,
                                     config.n_min, config.n_max, lengths=[config.sample_n])
    sample_len = 1 + 2 * config.sample_n
    sample_tokens = tuple("BOS" if tok == BOS else str(int(tok)) for tok in s_tokens[0, :sample_len])
    t_pos = np.arange(shape.max_len)[None, :]
    ev_rows = ((t_pos >= 1) & (t_pos <= 2 * ev_n[:, None])).astype(DTYPE)
    optimizer = Adam(params, config.lr)
    log = CurveLog()
    label = {"seed": config.seed}
    score_steps, history = [], []

    def evaluate(step, grad_norm):
        logits, cache = stack_forward(params, shape, ev_tokens)
        loss, _, accuracy = cross_entropy(logits, ev_targets, ev_weight)
        entropies = [attention_stats(w, ev_rows) for w in cache["weights"]]
        log.add(step, loss=loss, accuracy=accuracy, grad_norm_wq=grad_norm,
                attention_entropy=float(np.mean([e for e, _ in entropies])),
                max_attention=float(np.mean([m for _, m in entropies])))
        return cache

    def score(step, cache):
        scores = score_heads(cache["weights"], ev_n)
        score_steps.append(step)
        history.append([[[s[name] for name in SCORE_NAMES] for s in layer] for layer in scores])
        return scores

    def views_now(scores):
        return _views(params, shape, (s_tokens, sample_len), scores)

    with single_thread_blas():
        scores = score(0, evaluate(0, float("nan")))
        step = 0
        for step in range(1, config.steps + 1):
            if progress.stop_requested():
                step -= 1
                break
            tokens, targets, weight, _ = repeat_batch(data, config.batch, config.vocab,
                                                      config.n_min, config.n_max)
            _, _, grads, _ = stack_loss_and_grads(params, shape, tokens, targets, weight)
            optimizer.step(grads)
            progress.step += 1
            last = step == config.steps
            logged = step % config.log_every == 0 or last
            scored = step % config.snapshot_every == 0 or last   # by step: reproducible
            if logged or scored:
                cache = evaluate(step, wq_grad_norm(grads, shape.layers)) if logged else \
                    stack_forward(params, shape, ev_tokens)[1]
                if scored:
                    scores = score(step, cache)
            if progress.snapshot_due(step, config.snapshot_every, last):
                # The maps are of the weights now; the scores are the latest ones.
                progress.send(Run(label, log.freeze()), views_now(scores), sample_tokens)
        if score_steps[-1] != step:
            scores = score(step, stack_forward(params, shape, ev_tokens)[1])
        views = views_now(scores)
    run = Run(label, log.freeze())
    progress.finished.append(run)
    progress.send(None, views, sample_tokens, done=True)
    return RolesResult(config, run, tuple(views), sample_tokens,
                       np.array(score_steps, dtype=np.int32),
                       np.array(history, dtype=np.float32), progress.stopped,
                       time.perf_counter() - start)
