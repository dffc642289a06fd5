"""Do we need all the heads? Head importance and pruning curves (Michel et al. 2019).

A head mask m (L, h) multiplies each head's output before W_O (stack.py); m_lh = 0 switches
head h of layer l off. Michel et al.'s importance of a head is the expected absolute
gradient of the loss with respect to its mask variable, at m = 1:

    I_lh = E_x | ∂L(x) / ∂m_lh |       (x a sequence; L(x) its mean cross-entropy)

estimated here as the mean over the sequences of an importance batch (one drawn apart from
the evaluation batch the quality is measured on). Heads are then switched off one at a
time, least important first, and the quality is measured after each: the curve gives
quality against the fraction of heads removed, k / (L·h) for k = 0 … L·h. They normalise
I within each layer (ℓ2); with one layer, as here, that changes no order, so it is not done.

For the trained models quality is the task's accuracy on the evaluation batch; the curve
starts at the unpruned model's accuracy. `PAPER_PRUNING` gives the paper's reference points:
the fraction of heads removed with no noticeable loss, 20 % of the heads of a WMT
Transformer-large and 40 % of BERT's (fine-tuned on MNLI).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from engine.literature import HEAD_PRUNING

#: Michel et al. 2019 ("Are Sixteen Heads Really Better than One?", §4): the fraction of
#: heads pruned by importance without a noticeable drop in quality (engine.literature's figures).
PAPER_PRUNING = (
    {"model": "Transformer-large (WMT'14 En→Fr)", "short": "WMT",
     "fraction": HEAD_PRUNING["michel"]["percent"]["WMT"] / 100, "quality": "BLEU"},
    {"model": "BERT-base (MNLI)", "short": "BERT",
     "fraction": HEAD_PRUNING["michel"]["percent"]["BERT"] / 100, "quality": "accuracy"},
)


@dataclass(frozen=True)
class PruningCurve:
    """fractions (K+1,) = k / K and quality (K+1,) after switching off the first k heads of
    `order` ((layer, head) pairs, least important first); importance (L, h) the score the
    order comes from; `importance_kind` "gradient" (Michel et al.'s |∂L/∂m|) or
    "ablation" (the drop in quality when the head alone is off)."""

    fractions: np.ndarray
    quality: np.ndarray
    order: tuple[tuple[int, int], ...]
    importance: np.ndarray
    importance_kind: str
    quality_name: str

    def at_fraction(self, fraction: float) -> tuple[int, float]:
        """(k, quality) after removing k = ⌊fraction·K⌋ of the K heads (1e-9 of slack so
        that 0.2·10 counts as 2)."""
        k = int(np.floor(fraction * len(self.order) + 1e-9))
        return k, float(self.quality[k])

    def to_dict(self) -> dict:
        return {"fraction_removed": [float(f) for f in self.fractions],
                "quality": [float(q) for q in self.quality],
                "quality_name": self.quality_name,
                "order": [list(p) for p in self.order],
                "importance": self.importance.round(6).tolist(),
                "importance_kind": self.importance_kind,
                "paper": [dict(p) for p in PAPER_PRUNING]}


def pruning_order(importance: np.ndarray) -> tuple[tuple[int, int], ...]:
    """(layer, head) pairs by increasing importance; ties in (layer, head) order."""
    importance = np.asarray(importance)
    flat = np.argsort(importance.reshape(-1), kind="stable")
    heads = importance.shape[1]
    return tuple((int(i // heads), int(i % heads)) for i in flat)


def pruning_curve(quality: Callable[[np.ndarray], float], importance: np.ndarray,
                  importance_kind: str, quality_name: str) -> PruningCurve:
    """Switch heads off one at a time in `pruning_order(importance)`; quality(mask (L, h))
    after each (the first point with every head on)."""
    importance = np.asarray(importance, dtype=np.float64)
    order = pruning_order(importance)
    mask = np.ones(importance.shape, dtype=np.float32)
    values = [quality(mask.copy())]
    for layer, head in order:
        mask[layer, head] = 0.0
        values.append(quality(mask.copy()))
    total = len(order)
    return PruningCurve(np.arange(total + 1) / total, np.array(values, dtype=np.float64),
                        order, importance, importance_kind, quality_name)


def gradient_importance(params, shape, tokens, targets, weight) -> np.ndarray:
    """Michel et al.'s I (L, h): mean over sequences b of |∂L_b/∂m| at m = 1, with L_b the
    weighted mean cross-entropy of sequence b alone (sequences with no scored position are
    left out). stack_backward gives each sequence's term of the batch loss's gradient,
    (w_b / W) ∂L_b/∂m (w_b its weight, W the batch's), so ∂L_b/∂m = term · W / w_b."""
    from .stack import stack_loss_and_grads

    mask = np.ones((shape.layers, shape.heads), dtype=np.float32)
    _, _, grads, _ = stack_loss_and_grads(params, shape, tokens, targets, weight, mask)
    w_b = weight.astype(np.float64).sum(axis=1)
    keep = w_b > 0
    per = grads["head_mask_per_sequence"][keep] * (w_b.sum() / w_b[keep])[:, None, None]
    return np.abs(per).mean(axis=0)


@dataclass(frozen=True)
class TrainedPruning:
    """A heads-experiment model (config, h, seed) trained, then pruned: its run and curve."""

    config: object
    heads: int
    seed: int
    run: object
    curve: PruningCurve

    def to_dict(self) -> dict:
        return {"model": "trained", "experiment": "heads", "heads": self.heads,
                "d_k": self.config.d_model // self.heads, "seed": self.seed,
                "steps": self.config.steps, "final_accuracy": self.run.final_accuracy,
                **self.curve.to_dict()}


def prune_trained(config=None, heads: int = 8, seed: int | None = None) -> TrainedPruning:
    """Train the heads experiment's model with h = `heads` (config: a HeadsConfig, default
    its defaults; seed: config.seed), then its pruning curve: importance on an importance
    batch of config.eval_size sequences, accuracy on the run's evaluation batch."""
    from .heads import HeadsConfig, train_model

    config = HeadsConfig() if config is None else config
    seed = config.seed if seed is None else seed
    run, params, shape, evaluation = train_model(config, heads, seed)
    return TrainedPruning(config, heads, seed, run,
                          prune_relation_model(params, shape, evaluation, seed,
                                               config.eval_size))


def prune_relation_model(params, shape, evaluation, seed: int, size: int) -> PruningCurve:
    """The pruning curve of a trained heads-experiment model: importance on `size`
    sequences drawn from the stream (seed, 6), accuracy on `evaluation` (tokens, targets,
    weight, …), the batch its run was evaluated on."""
    from .stack import cross_entropy, stack_forward
    from .tasks import relation_batch

    imp_tokens, imp_targets, imp_weight, _ = relation_batch(np.random.default_rng((seed, 6)),
                                                            size)
    importance = gradient_importance(params, shape, imp_tokens, imp_targets, imp_weight)
    ev_tokens, ev_targets, ev_weight = evaluation[:3]

    def accuracy(mask):
        logits, _ = stack_forward(params, shape, ev_tokens, mask)
        return cross_entropy(logits, ev_targets[:, -1:], ev_weight[:, -1:])[2]

    return pruning_curve(accuracy, importance, "gradient", "accuracy")
