"""The roles experiment's in-context-learning score, the phase change and the 1-layer
control trained beside the 2-layer model."""
import json
import math

import numpy as np
import pytest

from engine.training import RolesConfig, TrainingConfigError, result_to_dict, run_experiment
from engine.training.icl import half_masks, icl_score, phase_change, token_losses
from engine.training.roles import INDUCTION_THRESHOLD
from engine.training.tasks import repeat_batch

# float64 log-sum-exp of C ≤ 64 terms of size ≤ e^a: a few ulps of values below 20, pooled
# over < 10⁴ terms → relative error far below 1e-12.
CLOSED_FORM_TOL = 1e-12

SMALL = RolesConfig(steps=20, log_every=10, snapshot_every=10, eval_size=16)


def _batch(size=64, vocab=16):
    return repeat_batch(np.random.default_rng(1), size, vocab, 3, 7)


def test_halves_have_n_minus_one_predictions_and_late_is_the_training_weight():
    tokens, targets, weight, n = _batch()
    early, late = half_masks(n, tokens.shape[1])
    np.testing.assert_array_equal(early.sum(1), n - 1)
    np.testing.assert_array_equal(late.sum(1), n - 1)
    np.testing.assert_array_equal(late, weight)
    assert not (early * late).any()
    # the early half predicts the first copy's t_2 … t_n, the late half the same tokens again
    for b in range(4):
        k = n[b]
        np.testing.assert_array_equal(targets[b, 1:k], targets[b, k + 1:2 * k])


def test_icl_score_of_a_context_free_model_is_zero():
    tokens, targets, _, n = _batch()
    logits = np.zeros(tokens.shape + (16,))
    out = icl_score(logits, targets, n)
    assert abs(out["early_loss"] - math.log(16)) < CLOSED_FORM_TOL * math.log(16)
    assert out["icl_score"] == 0.0   # same value in every position: exactly equal means


def test_icl_score_closed_form():
    """Logit a on the target in the late half, 0 elsewhere: L_late = ln(e^a + C − 1) − a,
    L_early = ln C."""
    tokens, targets, _, n = _batch()
    c, a = 16, 3.0
    _, late = half_masks(n, tokens.shape[1])
    logits = np.zeros(tokens.shape + (c,))
    np.put_along_axis(logits, targets[..., None], (a * late)[..., None], axis=-1)
    expected = math.log(math.exp(a) + c - 1) - a - math.log(c)
    out = icl_score(logits, targets, n)
    assert abs(out["icl_score"] - expected) < CLOSED_FORM_TOL * 10
    assert np.allclose(token_losses(logits, targets)[late > 0],
                       math.log(math.exp(a) + c - 1) - a, rtol=CLOSED_FORM_TOL, atol=0)


def test_phase_change_on_a_constructed_curve():
    steps = [0, 10, 20, 30, 40, 50]
    icl = [0.0, -0.1, -0.2, -2.0, -2.1, -2.2]
    loss = [3.0, 2.9, 2.8, 1.0, 0.9, 0.8]
    ind = [0.1, 0.2, 0.35, 0.8, 0.9, 0.9]
    change = phase_change(steps, icl, loss, ind, 0.3)
    assert change.induction_step == 20
    assert (change.drop_from, change.drop_to) == (20, 30)
    assert (change.loss_before, change.loss_after) == (2.8, 1.0)
    assert (change.final_icl, change.final_induction) == (-2.2, 0.9)
    assert phase_change(steps, icl, loss, [0.1] * 6, 0.3).induction_step is None
    assert phase_change([0], [0.0], [1.0], [0.0], 0.3) is None


def test_control_trains_beside_without_changing_the_model():
    with_control = run_experiment("roles", SMALL)
    alone = run_experiment("roles", RolesConfig(**{**SMALL.to_dict(), "control": False}))
    assert alone.control is None and set(alone.depths()) == {2}
    main = with_control.run.curve
    for name in ("loss", "accuracy", "icl_score", "induction_max"):
        np.testing.assert_array_equal(getattr(main, name), getattr(alone.run.curve, name))
    control = with_control.control
    assert control.layers == 1 and dict(control.run.label) == {"seed": 0, "layers": 1}
    assert dict(with_control.run.label) == {"seed": 0, "layers": 2}
    assert len(control.heads) == SMALL.heads and {h.layer for h in control.heads} == {0}
    assert control.score_history.shape == (len(control.score_steps), 1, SMALL.heads, 5)
    for run in (with_control.run, control.run):
        c = run.curve
        assert len(c.icl_score) == len(c.induction_max) == len(c.steps) == 3
        # the logged max induction score is the largest head score at that step
        history = (with_control if run is with_control.run else control).score_history
        np.testing.assert_allclose(c.induction_max, history[:, :, :, 1].max(axis=(1, 2)),
                                   rtol=0, atol=1e-4)   # history is rounded to float32


def test_control_needs_two_layers():
    with pytest.raises(TrainingConfigError, match="control"):
        RolesConfig(layers=1)
    assert RolesConfig(layers=1, control=False).depths() == (1,)


def test_roles_json_has_both_depths():
    data = json.loads(json.dumps(result_to_dict(run_experiment("roles", SMALL))))
    assert set(data["depths"]) == {"1", "2"}
    two, one = data["depths"]["2"], data["depths"]["1"]
    assert two["curve"] == data["curve"] and two["heads"] == data["heads"]
    assert len(one["heads"]) == SMALL.heads
    for depth in (one, two):
        assert len(depth["curve"]["icl_score"]) == len(depth["curve"]["step"])
        assert depth["phase_change"]["threshold"] == INDUCTION_THRESHOLD
        assert {h["layer"] for h in depth["heads"]} == set(range(depth["layers"]))


def test_other_experiments_log_no_icl_score():
    from engine.training import HeadsConfig
    data = result_to_dict(run_experiment("heads", HeadsConfig(heads=(1,), seeds=1, steps=5)))
    assert "icl_score" not in data["curve"] and "depths" not in data


def test_elimination_score_closed_form_and_planted_head():
    from engine.training.roles import elimination_induction_score
    from engine.training.roles_scoring import score_repeat_head
    value = elimination_induction_score(3, 12)
    harmonic = sum(sum(1 / j for j in range(1, n)) for n in range(3, 13))
    assert abs(value - harmonic / 75) < 1e-15 and 0.32 < value < 0.33 < INDUCTION_THRESHOLD
    # one sequence of each length, the head planted: the score is the same pooled mean
    lengths = np.arange(3, 13)
    t = 1 + 2 * 12
    weights = np.zeros((len(lengths), t, t))
    weights[:, :, 0] = 1.0
    for b, n in enumerate(lengths):
        for k in range(1, n + 1):
            p = n + k
            weights[b, p] = 0.0
            rest = list(range(k + 1, n + 1)) or [0]   # last position: nothing left → BOS
            weights[b, p, rest] = 1.0 / len(rest)
    # position 2n (k = n) has no target token left and counts 0 in the score's n rows
    assert abs(score_repeat_head(weights, lengths)["induction"] - value) < 1e-12
