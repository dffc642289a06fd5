"""Experiment "roles": do heads divide the work among themselves?

A 2-layer attention-only model (stack.py, causal) reads BOS, n random distinct tokens
(n drawn per sequence from n_min … n_max) and the same n tokens again, and predicts the
next token in the repeat (tasks.repeat_batch). Nobody tells a head what to do: every
`snapshot_every` steps every head is scored on a fixed scoring batch (roles_scoring.py)
and its role is named from those scores.

With `control` (the default) a 1-layer attention-only model of the same width and heads
trains beside it on the very same batches. One layer cannot form induction heads (a key
only carries its own token and position, so no query can find "the token after an earlier
copy of mine"; Olsson et al. 2022); two layers can, after a plateau. Both models log the
ICL score (icl.py) and their largest head induction score at every logged step.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .adam import Adam
from .common import (COMMON_CHECKS, ConfigMixin, CurveLog, HeadView, Progress, Run,
                     TrainingConfigError, flag, single_thread_blas, whole)
from .icl import PhaseChange, icl_score, phase_change
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
    log_every: int = 10
    snapshot_every: int = 10
    control: bool = True

    CHECKS = {**COMMON_CHECKS, "vocab": whole(4, 1024), "d_model": whole(1, 1024),
              "layers": whole(1, 4), "heads": whole(1, 64), "d_k": whole(1, 1024),
              "scale": flag(), "n_min": whole(2, lambda c: c.vocab - 1),
              "n_max": whole(lambda c: c.n_min, lambda c: c.vocab - 1),
              "sample_n": whole(lambda c: c.n_min, lambda c: c.n_max), "control": flag()}

    def check_together(self) -> None:
        if self.heads * self.layers > 64:
            raise TrainingConfigError("at most 64 heads in all")
        if self.control and self.layers == 1:
            raise TrainingConfigError("control (a 1-layer model beside) needs layers ≥ 2")

    def shape(self, layers: int | None = None) -> StackShape:
        """The model's shape; with `layers`, the same model with that many layers."""
        return StackShape(vocab=self.vocab, classes=self.vocab, max_len=1 + 2 * self.n_max,
                          d_model=self.d_model, layers=self.layers if layers is None else layers,
                          heads=self.heads, d_k=self.d_k, causal=True, scale=self.scale)

    def depths(self) -> tuple[int, ...]:
        """Layer counts trained: the model's, then the control's (1) when there is one."""
        return (self.layers, 1) if self.control else (self.layers,)


def elimination_induction_score(n_min: int, n_max: int) -> float:
    """Induction score (roles_scoring) of a head that at each repeat position spreads its
    attention evenly over the tokens of the first copy not yet repeated, one sequence of
    each length n_min … n_max, pooled over the score's n rows p = n+1 … 2n of each (the
    last has no token left and scores 0): Σ_n Σ_{k=1}^{n−1} 1/(n−k) / Σ_n n =
    Σ_n H_{n−1} / Σ_n n (0.323 for 3 … 12). Such a head needs no induction mechanism,
    only a guess at which tokens are still to come: the scale of what a head scores
    without one."""
    hits = sum(sum(1.0 / j for j in range(1, n)) for n in range(n_min, n_max + 1))
    return hits / sum(range(n_min, n_max + 1))


#: The largest head induction score must reach this for icl.phase_change to say induction
#: heads formed: above the 0.3 that names a role (roles_scoring), a score that heads
#: without an induction mechanism reach by elimination (elimination_induction_score, 0.323
#: for the default lengths); "formed" means most of a head's attention on the target.
INDUCTION_THRESHOLD = 0.5


@dataclass(frozen=True)
class DepthRun:
    """One model of the experiment: `layers` deep, its run (label {"seed", "layers"}; the
    curve has icl_score and induction_max), its heads at the end on the sample sequence,
    score_steps (P,) and score_history (P, layers, heads, len(SCORE_NAMES)) float32."""

    layers: int
    run: Run
    heads: tuple[HeadView, ...]
    score_steps: np.ndarray
    score_history: np.ndarray

    def phase_change(self) -> PhaseChange | None:
        c = self.run.curve
        return phase_change(c.steps, c.icl_score, c.loss, c.induction_max, INDUCTION_THRESHOLD)


@dataclass(frozen=True)
class RolesResult:
    """run: the training run of the `config.layers`-deep model (label {"seed", "layers"}).
    heads: its heads at the end, on the sample sequence, scored and named. score_steps
    (P,) and score_history (P, layers, heads, len(SCORE_NAMES)) float32: its scores over
    training. control: the 1-layer model trained beside it (None without config.control)."""

    config: RolesConfig
    run: Run
    heads: tuple[HeadView, ...]
    sample_tokens: tuple[str, ...]
    score_steps: np.ndarray
    score_history: np.ndarray
    stopped: bool
    elapsed_s: float
    control: DepthRun | None = None

    experiment = "roles"

    @property
    def runs(self) -> tuple[Run, ...]:
        return (self.run,)

    def depths(self) -> dict[int, DepthRun]:
        """layers → DepthRun, the model first, then the control."""
        main = DepthRun(self.config.layers, self.run, self.heads, self.score_steps,
                        self.score_history)
        return {main.layers: main, **({} if self.control is None else {1: self.control})}

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


class _Model:
    """One model in training: parameters, optimizer, curve and score history."""

    def __init__(self, config: RolesConfig, layers: int, init_rng, evaluation, sample):
        self.layers, self.shape = layers, config.shape(layers)
        self.params = init_stack(self.shape, init_rng, DTYPE)
        self.optimizer = Adam(self.params, config.lr)
        self.log = CurveLog()
        self.label = {"seed": config.seed, "layers": layers}
        self.evaluation, self.sample = evaluation, sample
        self.score_steps: list[int] = []
        self.history: list = []
        self.scores = None
        self.grad_norm = float("nan")

    def train_step(self, tokens, targets, weight) -> None:
        _, _, grads, _ = stack_loss_and_grads(self.params, self.shape, tokens, targets, weight)
        self.optimizer.step(grads)
        self.grad_norm = wq_grad_norm(grads, self.shape.layers)

    def observe(self, step: int, logged: bool, scored: bool) -> None:
        """Log the curve point (logged) and score the heads (scored) after `step`."""
        tokens, targets, weight, lengths, rows = self.evaluation
        logits, cache = stack_forward(self.params, self.shape, tokens)
        if scored or logged:
            scores = score_heads(cache["weights"], lengths)
        if scored:
            self.scores = scores
            self.score_steps.append(step)
            self.history.append([[[s[name] for name in SCORE_NAMES] for s in layer]
                                 for layer in scores])
        if logged:
            loss, _, accuracy = cross_entropy(logits, targets, weight)
            entropies = [attention_stats(w, rows) for w in cache["weights"]]
            self.log.add(step, loss=loss, accuracy=accuracy,
                         grad_norm_wq=self.grad_norm if step else float("nan"),
                         attention_entropy=float(np.mean([e for e, _ in entropies])),
                         max_attention=float(np.mean([m for _, m in entropies])),
                         icl_score=icl_score(logits, targets, lengths)["icl_score"],
                         induction_max=max(s["induction"] for layer in scores for s in layer))

    def run(self) -> Run:
        return Run(self.label, self.log.freeze())

    def views(self) -> list[HeadView]:
        return _views(self.params, self.shape, self.sample, self.scores)

    def history_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.array(self.score_steps, dtype=np.int32),
                np.array(self.history, dtype=np.float32))


def run_roles(config: RolesConfig | None = None, on_snapshot=None, should_stop=None,
              snapshot_period_s: float | None = None) -> RolesResult:
    """Train the model (and the control) for config.steps steps; the snapshots carry both
    runs (the model's first) and the model's heads."""
    config = RolesConfig() if config is None else config
    start = time.perf_counter()
    shape = config.shape()
    progress = Progress("roles", config.steps, 1, on_snapshot, should_stop,
                        snapshot_period_s)
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
    evaluation = (ev_tokens, ev_targets, ev_weight, ev_n, ev_rows)
    sample = (s_tokens, sample_len)
    # The model's initial weights come from the stream they always came from; the control's
    # from a stream of its own.
    models = [_Model(config, layers, np.random.default_rng((config.seed, 1 if i == 0 else 5)),
                     evaluation, sample) for i, layers in enumerate(config.depths())]

    with single_thread_blas():
        for model in models:
            model.observe(0, True, True)
        step = 0
        for step in range(1, config.steps + 1):
            if progress.stop_requested():
                step -= 1
                break
            batch = repeat_batch(data, config.batch, config.vocab, config.n_min, config.n_max)
            for model in models:
                model.train_step(*batch[:3])
            progress.step += 1
            last = step == config.steps
            logged = step % config.log_every == 0 or last
            scored = step % config.snapshot_every == 0 or last   # by step: reproducible
            if logged or scored:
                for model in models:
                    model.observe(step, logged, scored)
            if progress.snapshot_due(step, config.snapshot_every, last):
                # The maps are of the weights now; the scores are the latest ones.
                progress.send_many([m.run() for m in models], models[0].views(), sample_tokens)
        for model in models:
            if model.score_steps[-1] != step:
                model.observe(step, False, True)
        views = [m.views() for m in models]
    runs = [m.run() for m in models]
    progress.finished.extend(runs)
    progress.send(None, views[0], sample_tokens, done=True)
    control = None
    if config.control:
        control = DepthRun(1, runs[1], tuple(views[1]), *models[1].history_arrays())
    return RolesResult(config, runs[0], tuple(views[0]), sample_tokens,
                       *models[0].history_arrays(), progress.stopped,
                       time.perf_counter() - start, control)
