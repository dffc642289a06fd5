"""Experiment "scaling": does ÷√d_k matter when a head is trained?

One head read by a CLS query (pooled.py) on two tasks (tasks.py): "averaging", where the
head must spread its attention over the tokens, and "lookup", where it must pick one.
Every (task, d_k, scaled?, seed) is a run; scaled and unscaled runs of one seed and d_k
start from the same weights and see the same batches, so they differ only in ÷√d_k.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .adam import Adam
from .common import (COMMON_CHECKS, ConfigMixin, CurveLog, Progress, Run, SeedsMixin, band,
                     distinct, distinct_or_empty, first_step_reaching, flag, one_of,
                     single_thread_blas, whole)
from .pooled import (Items, init_pooled, inverse_divisors, pooled_attention_stats, pooled_backward,
                     pooled_forward, run_cross_entropy)
from .tasks import SCALING_TASKS, copy_one_token_accuracy

DTYPE = np.float32


@dataclass(frozen=True)
class ScalingConfig(SeedsMixin, ConfigMixin):
    tasks: tuple[str, ...] = ("averaging", "lookup")
    d_ks: tuple[int, ...] = (16, 64, 256, 1024)
    scales: tuple[bool, ...] = (True, False)
    seed: int = 0
    seeds: int = 3
    steps: int = 300
    batch: int = 128
    lr: float = 1e-3
    d_model: int = 64
    d_v: int = 16
    eval_size: int = 256
    log_every: int = 20
    snapshot_every: int = 20
    seed_list: tuple[int, ...] = ()   # the seeds by name; empty: seed … seed + seeds − 1

    CHECKS = {"tasks": distinct(one_of(tuple(SCALING_TASKS))), "d_ks": distinct(whole(1, 4096)),
              "scales": distinct(flag()), **COMMON_CHECKS, "seeds": whole(1, 20),
              "d_model": whole(2, 1024), "d_v": whole(1, 1024),
              "seed_list": distinct_or_empty(whole(0, 2**31 - 1))}

    def check_together(self) -> None:
        self.check_seeds()

    @property
    def run_count(self) -> int:
        return len(self.tasks) * len(self.d_ks) * len(self.scales) * self.seeds


@dataclass(frozen=True)
class ScalingResult:
    """runs: one Run per (task, d_k, scaled, seed), label keys "task", "d_k", "scaled",
    "seed". copy_baseline: accuracy of copying one random token on the averaging task."""

    config: ScalingConfig
    runs: tuple[Run, ...]
    stopped: bool
    elapsed_s: float
    copy_baseline: float = copy_one_token_accuracy()

    experiment = "scaling"

    def group(self, task: str, d_k: int, scaled: bool) -> tuple[Run, ...]:
        return tuple(r for r in self.runs if (r.label["task"], r.label["d_k"],
                                               r.label["scaled"]) == (task, d_k, scaled))

    def summary(self) -> list[dict]:
        """Per (task, d_k, scaled): mean / min / max final accuracy and loss over seeds,
        the mean final max attention weight, |∇W_Q| two ways, and how many seeds reached
        95 % accuracy, with the median of the first logged step at which they did.

        final_grad_norm_wq is the mean over seeds of the last logged |∇W_Q| (the gradient
        of one training batch at the last step); median_grad_norm_wq is the mean over seeds
        of each run's median |∇W_Q| over its logged steps after step 0 (one batch each)."""
        rows = []
        for task in self.config.tasks:
            for d_k in self.config.d_ks:
                for scaled in self.config.scales:
                    runs = self.group(task, d_k, scaled)
                    if not runs:
                        continue
                    acc = [r.final_accuracy for r in runs]
                    reached = [s for s in (first_step_reaching(r.curve, 0.95) for r in runs)
                               if s is not None]
                    rows.append({
                        "task": task, "d_k": d_k, "scaled": scaled, "seeds": len(runs),
                        "final_accuracy": float(np.mean(acc)), "accuracy_min": min(acc),
                        "accuracy_max": max(acc),
                        "final_loss": float(np.mean([r.final_loss for r in runs])),
                        "final_max_attention": float(np.mean(
                            [r.curve.max_attention[-1] for r in runs])),
                        "final_grad_norm_wq": float(np.mean(
                            [r.curve.grad_norm_wq[-1] for r in runs])),
                        "median_grad_norm_wq": float(np.mean(
                            [_run_median(r.curve.grad_norm_wq) for r in runs])),
                        "seeds_reaching_95": len(reached),
                        "median_step_to_95": float(np.median(reached)) if reached else None})
        return rows

    def band(self, task: str, d_k: int, scaled: bool, metric: str):
        return band(self.group(task, d_k, scaled), metric)


def _run_median(values: np.ndarray) -> float:
    """Median of the logged values after step 0 (NaN there: no gradient yet); NaN if none."""
    logged = np.asarray(values[1:], dtype=np.float64)
    logged = logged[np.isfinite(logged)]
    return float(np.median(logged)) if len(logged) else float("nan")


def _evaluate(params, tables, eval_batch, inv_divisor):
    query, x, labels = eval_batch
    logits, cache = pooled_forward(params, tables, query, x, inv_divisor)
    loss, accuracy, _ = run_cross_entropy(logits, labels)
    entropy, peak = pooled_attention_stats(cache["weights"])
    return [{"loss": loss[r], "accuracy": accuracy[r], "attention_entropy": entropy[r],
             "max_attention": peak[r]} for r in range(len(loss))]


def _repeat(arrays, times, table):
    """One batch per seed → (query index per run, Items, labels per run); each seed's
    runs are adjacent."""
    query, index, labels = (np.stack(parts) for parts in zip(*arrays))
    return (np.repeat(query, times, axis=0), Items(table, index, len(query) * times),
            np.repeat(labels, times, axis=0))


def _train_group(config, progress, task_index, tasks, d_k):
    """Every (seed, scaled) run of one task and d_k, trained side by side (pooled.py)."""
    seeds = config.seed_values
    scales = config.scales
    k = len(scales)
    task_name = config.tasks[task_index]
    labels = [{"task": task_name, "d_k": d_k, "scaled": sc, "seed": seed}
              for seed in seeds for sc in scales]
    # Scaled and unscaled runs of a seed start from the same weights and see the same data.
    init = [np.random.default_rng((seed, task_index, d_k, 1)) for seed in seeds]
    params = init_pooled(config.d_model, d_k, config.d_v, tasks[0].classes, init, DTYPE)
    params = {name: np.repeat(p, k, axis=0) for name, p in params.items()}
    inv_divisor = inverse_divisors(d_k, [sc for _ in seeds for sc in scales], DTYPE)
    data = [np.random.default_rng((seed, task_index, 2)) for seed in seeds]
    items_table = np.stack([task.table for task in tasks])
    eval_batch = _repeat([task.batch(np.random.default_rng((seed, task_index, 3)),
                                     config.eval_size) for seed, task in zip(seeds, tasks)], k,
                         items_table)
    tables = np.repeat(np.stack([task.query_table for task in tasks]), k, axis=0)
    optimizer = Adam(params, config.lr)
    logs = [CurveLog() for _ in labels]
    for log, point in zip(logs, _evaluate(params, tables, eval_batch, inv_divisor)):
        log.add(0, grad_norm_wq=float("nan"), **point)

    def current():
        return [Run(label, log.freeze()) for label, log in zip(labels, logs)]

    for step in range(1, config.steps + 1):
        if progress.stop_requested():
            break
        query, x, y = _repeat([task.batch(rng, config.batch) for task, rng in zip(tasks, data)], k,
                              items_table)
        logits, cache = pooled_forward(params, tables, query, x, inv_divisor)
        _, _, d_logits = run_cross_entropy(logits, y)
        grads = pooled_backward(params, cache, d_logits)
        optimizer.step(grads)
        progress.step += len(labels)
        if step % config.log_every == 0 or step == config.steps:
            norms = np.sqrt((grads["wq"].astype(np.float64) ** 2).sum(axis=(1, 2)))
            for log, norm, point in zip(logs, norms, _evaluate(params, tables, eval_batch, inv_divisor)):
                log.add(step, grad_norm_wq=norm, **point)
        if progress.snapshot_due(step, config.snapshot_every):
            progress.send_many(current())
    return current()


def run_scaling(config: ScalingConfig | None = None, on_snapshot=None, should_stop=None,
                snapshot_period_s: float | None = None) -> ScalingResult:
    """Train every (task, d_k, scaled, seed) of `config`; see the module doc."""
    config = ScalingConfig() if config is None else config
    start = time.perf_counter()
    progress = Progress("scaling", config.run_count * config.steps, config.run_count,
                        on_snapshot, should_stop, snapshot_period_s)
    with single_thread_blas():
        for task_index, task_name in enumerate(config.tasks):
            tasks = [SCALING_TASKS[task_name](np.random.default_rng((seed, task_index, 0)),
                                              config.d_model, DTYPE)
                     for seed in config.seed_values]
            for d_k in config.d_ks:
                if progress.stop_requested():
                    break
                progress.finished.extend(_train_group(config, progress, task_index, tasks, d_k))
    progress.send_many([], done=True)
    return ScalingResult(config, tuple(progress.finished), progress.stopped,
                         time.perf_counter() - start)
