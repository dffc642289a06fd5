"""Shared pieces of the training experiments: config validation, curves, snapshots.

Everything here is small, frozen and picklable, so a training process can send it to
the window over a multiprocessing queue.

Curves are logged every `log_every` steps on a fixed evaluation batch:

    steps             (P,) int32    step after which the point was taken (0 = before training)
    loss              (P,) float32  mean cross-entropy (nats) on the evaluation batch
    accuracy          (P,) float32  fraction of evaluation targets predicted right
    attention_entropy (P,) float32  mean entropy (nats) of the scored attention rows
    grad_norm_wq      (P,) float32  Frobenius norm of the W_Q gradient of the last training
                                    batch (all W_Q of the model together; NaN at step 0)
    max_attention     (P,) float32  mean over scored rows of the largest attention weight

Experiment "roles" logs two more (OPTIONAL_METRICS; empty arrays elsewhere):

    icl_score         (P,) float32  in-context-learning score, late − early loss (icl.py)
    induction_max     (P,) float32  largest induction score of any head (roles_scoring.py)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from contextlib import contextmanager
from typing import Any, Callable, Mapping

import numpy as np
from threadpoolctl import threadpool_limits

METRICS = ("loss", "accuracy", "attention_entropy", "grad_norm_wq", "max_attention")
OPTIONAL_METRICS = ("icl_score", "induction_max")

OnSnapshot = Callable[[Any], None] | None
ShouldStop = Callable[[], bool] | None


class TrainingConfigError(ValueError):
    """A training configuration is invalid; the message says which field and why."""


@contextmanager
def single_thread_blas():
    """BLAS on one thread while training: these matrices are small, and on a shared 2-core
    machine a second BLAS thread made runs about 10x slower (measured)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TrainingConfigError(f"{name} must be a whole number, got {value!r}")
    if not low <= int(value) <= high:
        raise TrainingConfigError(f"{name} must be from {low} to {high}, got {value}")
    return int(value)


def check_float(name: str, value, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TrainingConfigError(f"{name} must be a number, got {value!r}")
    try:
        value = float(value)
    except OverflowError:         # a whole number of hundreds of digits
        raise TrainingConfigError(f"{name} must be from {low:g} to {high:g}, got a number "
                                  "too large to hold") from None
    if not low <= value <= high:  # also rejects NaN
        raise TrainingConfigError(f"{name} must be from {low:g} to {high:g}, got {value:g}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TrainingConfigError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def check_tuple(name: str, values, check_item, allowed_empty: bool = False) -> tuple:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TrainingConfigError(f"{name} must be a list, got {values!r}")
    items = tuple(check_item(f"{name} item", v) for v in values)
    if not items and not allowed_empty:
        raise TrainingConfigError(f"{name} must not be empty")
    if len(set(items)) != len(items):
        raise TrainingConfigError(f"{name} must not repeat a value, got {list(items)}")
    return items


#: A field check: (field name, value, the config being built) → the clean value, or
#: TrainingConfigError. Bounds may be callables of the config, for bounds that depend on
#: fields checked before.
FieldCheck = Callable[[str, Any, Any], Any]


def _bound(bound, config):
    return bound(config) if callable(bound) else bound


def whole(low, high) -> FieldCheck:
    """A whole number in [low, high]."""
    return lambda name, value, config: check_int(name, value, _bound(low, config),
                                                 _bound(high, config))


def number(low: float, high: float) -> FieldCheck:
    """A finite number in [low, high]."""
    return lambda name, value, config: check_float(name, value, low, high)


def flag() -> FieldCheck:
    return lambda name, value, config: check_bool(name, value)


def one_of(choices) -> FieldCheck:
    def check(name, value, config):
        if value not in choices:
            raise TrainingConfigError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
        return value
    return check


def distinct(item: FieldCheck) -> FieldCheck:
    """A non-empty tuple of distinct values, each checked by `item`."""
    return lambda name, values, config: check_tuple(
        name, values, lambda n, v: item(n, v, config))


def distinct_or_empty(item: FieldCheck) -> FieldCheck:
    """A tuple of distinct values, each checked by `item`, possibly empty."""
    return lambda name, values, config: check_tuple(
        name, values, lambda n, v: item(n, v, config), allowed_empty=True)


class SeedsMixin:
    """Experiments trained over several seeds: `seed_list` names them (distinct, any order);
    when it is empty they are the `seeds` consecutive seeds seed … seed + seeds − 1. A
    non-empty seed_list must have `seeds` entries."""

    @property
    def seed_values(self) -> tuple[int, ...]:
        if self.seed_list:
            return tuple(self.seed_list)
        return tuple(range(self.seed, self.seed + self.seeds))

    def check_seeds(self) -> None:
        if self.seed_list and len(self.seed_list) != self.seeds:
            raise TrainingConfigError(f"seed_list has {len(self.seed_list)} seeds but seeds is "
                                      f"{self.seeds}")


#: The fields every experiment has, with their limits.
COMMON_CHECKS: dict[str, FieldCheck] = {
    "seed": whole(0, 2**31 - 1),
    "steps": whole(1, 100_000),
    "batch": whole(1, 4096),
    "lr": number(1e-6, 1.0),
    "eval_size": whole(1, 100_000),
    "log_every": whole(1, 100_000),
    "snapshot_every": whole(1, 100_000),
}


class ConfigMixin:
    """Validation and `to_dict` / `from_dict` for a frozen config dataclass whose fields
    are ints, floats, bools, strings or tuples of them.

    A subclass lists its field checks in `CHECKS` (a class attribute, not a field; usually
    `{**COMMON_CHECKS, ...}`): __post_init__ runs them in order and stores the clean
    values, then `check_together()` checks what involves several fields. `from_dict`
    rejects unknown keys; missing keys keep their defaults."""

    CHECKS: dict[str, FieldCheck] = {}

    def __post_init__(self) -> None:
        for name, check in self.CHECKS.items():
            object.__setattr__(self, name, check(name, getattr(self, name), self))
        self.check_together()

    def check_together(self) -> None:
        """Constraints between fields (subclasses); raise TrainingConfigError."""

    def to_dict(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping):
        if not isinstance(data, Mapping):
            raise TrainingConfigError(f"a {cls.__name__} must be an object, got {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TrainingConfigError(f"unknown {cls.__name__} field(s): {', '.join(unknown)}")
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**values)


def frozen_array(values, dtype) -> np.ndarray:
    a = np.array(values, dtype=dtype)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class Curve:
    """One run's logged metrics; every array has one entry per logged step (see module doc)."""

    steps: np.ndarray
    loss: np.ndarray
    accuracy: np.ndarray
    attention_entropy: np.ndarray
    grad_norm_wq: np.ndarray
    max_attention: np.ndarray
    icl_score: np.ndarray = field(default_factory=lambda: frozen_array([], np.float32))
    induction_max: np.ndarray = field(default_factory=lambda: frozen_array([], np.float32))

    def to_dict(self) -> dict:
        """Lists by step; an optional metric only when it was logged."""
        out = {"step": [int(s) for s in self.steps]}
        for name in METRICS + OPTIONAL_METRICS:
            values = getattr(self, name)
            if name in METRICS or len(values):
                out[name] = [None if not np.isfinite(v) else float(v) for v in values]
        return out


class CurveLog:
    """Grows one curve point at a time; `freeze()` gives a Curve. Every METRICS entry is
    needed at every point; an OPTIONAL_METRICS entry is kept when given at every point."""

    def __init__(self) -> None:
        self.rows: dict[str, list] = {"steps": [], **{m: [] for m in METRICS + OPTIONAL_METRICS}}

    def add(self, step: int, **metrics: float) -> None:
        self.rows["steps"].append(int(step))
        for m in METRICS:
            self.rows[m].append(float(metrics[m]))
        for m in OPTIONAL_METRICS:
            if m in metrics:
                self.rows[m].append(float(metrics[m]))

    def freeze(self) -> Curve:
        count = len(self.rows["steps"])
        optional = {m: frozen_array(self.rows[m] if len(self.rows[m]) == count else [],
                                    np.float32) for m in OPTIONAL_METRICS}
        return Curve(steps=frozen_array(self.rows["steps"], np.int32),
                     **{m: frozen_array(self.rows[m], np.float32) for m in METRICS}, **optional)

    @property
    def last(self) -> dict[str, float]:
        return {m: self.rows[m][-1] for m in METRICS} if self.rows["steps"] else {}


@dataclass(frozen=True)
class Run:
    """One training run: what varied (`label`, JSON-ready) and its curve."""

    label: Mapping[str, Any]
    curve: Curve

    @property
    def final_loss(self) -> float:
        return float(self.curve.loss[-1]) if len(self.curve.loss) else float("nan")

    @property
    def final_accuracy(self) -> float:
        return float(self.curve.accuracy[-1]) if len(self.curve.accuracy) else float("nan")


def first_step_reaching(curve: Curve, accuracy: float) -> int | None:
    """First logged step whose accuracy is ≥ `accuracy`, or None if none is."""
    hits = np.nonzero(curve.accuracy >= accuracy)[0]
    return int(curve.steps[hits[0]]) if len(hits) else None


@dataclass(frozen=True)
class Band:
    """Mean and range over seeds of one metric of several runs with the same steps."""

    steps: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray


def band(runs, metric: str) -> Band:
    """Seeds as a band: runs of equal length → (mean, min, max) of `metric` at each step."""
    runs = list(runs)
    if not runs:
        raise ValueError("band of no runs")
    length = min(len(r.curve.steps) for r in runs)
    stack = np.stack([getattr(r.curve, metric)[:length] for r in runs]).astype(np.float64)
    return Band(steps=runs[0].curve.steps[:length], mean=stack.mean(0), low=stack.min(0),
                high=stack.max(0))


@dataclass(frozen=True)
class HeadView:
    """One learned head on the fixed sample sequence.

    weights  (rows, T) float32 attention weights, row = query position, column = key position;
             rows = T for roles, rows = 1 (the query position, the only row the model
             computes and trains) for heads
    scores   name → value (see roles_scoring.SCORE_NAMES); measured on a scoring batch
    role     role id named from the scores (roles_scoring.ROLES), never from the index
    """

    layer: int
    head: int
    weights: np.ndarray
    scores: Mapping[str, float]
    role: str


@dataclass(frozen=True)
class TrainingSnapshot:
    """What the window needs to redraw a running experiment; sent every few steps.

    step / total_steps  steps done / planned over the whole experiment (all runs)
    run_index           index of the run in progress (0-based) of run_count
    runs                every run so far, the one in progress included (its curve so far)
    heads               the current run's heads on the sample sequence (empty for scaling)
    sample_tokens       labels of the sample sequence's positions (axis labels of the maps)
    """

    experiment: str
    step: int
    total_steps: int
    run_index: int
    run_count: int
    runs: tuple[Run, ...]
    heads: tuple[HeadView, ...] = ()
    sample_tokens: tuple[str, ...] = ()
    done: bool = False


@dataclass
class Progress:
    """Mutable bookkeeping of an experiment while it runs (not sent anywhere)."""

    experiment: str
    total_steps: int
    run_count: int
    on_snapshot: OnSnapshot = None
    should_stop: ShouldStop = None
    snapshot_period_s: float | None = None
    step: int = 0
    finished: list = field(default_factory=list)
    stopped: bool = False
    sent_at: float = float("-inf")

    def snapshot_due(self, step: int, every: int, last: bool = False) -> bool:
        """Whether to send a snapshot after `step` of the current run. Without a
        snapshot_period_s: every `every` steps and at the `last` step. With one: once
        that many seconds (wall clock) have passed since the last snapshot, whatever the
        step; a window then gets a steady rate however fast or slow the run trains."""
        if self.on_snapshot is None:
            return False
        if self.snapshot_period_s is None:
            return step % every == 0 or last
        return time.perf_counter() - self.sent_at >= self.snapshot_period_s

    def stop_requested(self) -> bool:
        if not self.stopped and self.should_stop is not None and self.should_stop():
            self.stopped = True
        return self.stopped

    def send(self, current: Run | None, heads=(), sample_tokens=(), done=False) -> None:
        self.send_many([] if current is None else [current], heads, sample_tokens, done)

    def send_many(self, current, heads=(), sample_tokens=(), done=False) -> None:
        """One snapshot: the finished runs, then `current` (the runs in progress)."""
        if self.on_snapshot is None:
            return
        runs = tuple(self.finished) + tuple(current)
        self.sent_at = time.perf_counter()
        self.on_snapshot(TrainingSnapshot(
            experiment=self.experiment, step=self.step, total_steps=self.total_steps,
            run_index=min(len(self.finished), self.run_count - 1), run_count=self.run_count,
            runs=runs, heads=tuple(heads), sample_tokens=tuple(sample_tokens), done=done))
