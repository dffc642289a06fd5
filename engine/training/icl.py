"""In-context learning on the repeat task: the ICL score and the phase change.

Sequences are BOS, t_1 … t_n, t_1 … t_n (tasks.repeat_batch; position 0 is BOS, t_k sits
at positions k and n + k). The prediction made at position p is scored against the token
at p + 1. Of the 2n predictions inside the two copies, two are of a token nothing in the
context determines (t_1 after BOS and after t_n); the rest form two halves of n − 1 each:

    early  positions 1 … n − 1       predict t_2 … t_n in the first copy (never seen before)
    late   positions n + 1 … 2n − 1  predict t_2 … t_n in the repeat (each seen once, right
                                     after the earlier copy of the current token)

    icl_score = L_late − L_early   (nats)

with L_half the mean cross-entropy over every prediction of that half in the batch (pooled
over sequences, as `stack.cross_entropy` pools). This is Olsson et al.'s (2022) ICL score
("loss of a late token minus loss of an early token") for these sequences: the late half is
the part of the context a model can only predict by looking back at an earlier copy. It is
negative when the model uses the context; a model that predicts the same distribution in
both halves has icl_score = 0 exactly. The model is trained on the late half only (the
task's weight), so the early loss is that of predictions it was never trained to make.

`phase_change` finds, on a logged curve, where induction heads form: the first logged
step at which the largest induction score of any head reaches `threshold`, and the
interval between logged steps over which the ICL score fell fastest (per step), with the
loss at both ends of it (the loss "bump" that comes with the heads).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def half_masks(lengths: np.ndarray, t: int) -> tuple[np.ndarray, np.ndarray]:
    """(early, late) 0/1 float32 masks (B, t) of the two halves above; lengths n (B,)."""
    p = np.arange(t)[None, :]
    n = np.asarray(lengths)[:, None]
    early = (p >= 1) & (p <= n - 1)
    late = (p >= n + 1) & (p <= 2 * n - 1)
    return early.astype(np.float32), late.astype(np.float32)


def token_losses(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Cross-entropy −ln softmax(logits)[target] of every position; logits (B, T, C),
    targets (B, T) int → (B, T) float64."""
    z = logits.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]


def icl_score(logits: np.ndarray, targets: np.ndarray, lengths: np.ndarray) -> dict[str, float]:
    """{"icl_score", "early_loss", "late_loss"} of one batch (module docstring);
    logits (B, T, C), targets (B, T), lengths (B,)."""
    losses = token_losses(logits, targets)
    early, late = half_masks(lengths, targets.shape[1])
    early_loss = float((losses * early).sum() / early.sum())
    late_loss = float((losses * late).sum() / late.sum())
    return {"icl_score": late_loss - early_loss, "early_loss": early_loss,
            "late_loss": late_loss}


@dataclass(frozen=True)
class PhaseChange:
    """Where a run's induction heads formed (module docstring). Steps are logged steps.

    induction_step   first step with max head induction score ≥ threshold, or None
    drop_from/to     the logged steps around the ICL score's steepest fall (per step)
    icl_before/after, loss_before/after   the ICL score and the loss at drop_from, drop_to
    final_icl, final_induction            at the last logged step
    """

    threshold: float
    induction_step: int | None
    drop_from: int
    drop_to: int
    icl_before: float
    icl_after: float
    loss_before: float
    loss_after: float
    final_icl: float
    final_induction: float

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def phase_change(steps, icl, loss, induction_max, threshold: float) -> PhaseChange | None:
    """PhaseChange of a curve: steps (P,), icl (P,), loss (P,), induction_max (P,)
    (the largest induction score over heads at each step); None with fewer than 2 points."""
    steps = np.asarray(steps, dtype=np.int64)
    icl, loss = np.asarray(icl, dtype=np.float64), np.asarray(loss, dtype=np.float64)
    induction_max = np.asarray(induction_max, dtype=np.float64)
    if len(steps) < 2:
        return None
    rate = -np.diff(icl) / np.maximum(np.diff(steps), 1)
    i = int(np.nanargmax(rate)) if np.isfinite(rate).any() else 0
    reached = np.nonzero(induction_max >= threshold)[0]
    return PhaseChange(
        threshold=float(threshold),
        induction_step=int(steps[reached[0]]) if len(reached) else None,
        drop_from=int(steps[i]), drop_to=int(steps[i + 1]),
        icl_before=float(icl[i]), icl_after=float(icl[i + 1]),
        loss_before=float(loss[i]), loss_after=float(loss[i + 1]),
        final_icl=float(icl[-1]), final_induction=float(induction_max[-1]))
