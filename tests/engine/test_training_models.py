"""engine.training models: gradients against finite differences, Adam against a hand-computed
step, the clipped softmax, dtype discipline, and the tasks' data."""
import math

import numpy as np
import pytest
from tolerances import EPS32, FUNC_ULPS, U32, assert_within, row_sum_bound, softmax_bound

from engine.training import gradcheck
from engine.training.adam import Adam
from engine.training.pooled import Items, init_pooled, inverse_divisors, pooled_forward
from engine.training.softmax_clip import CLIP, row_entropy, softmax_backward, softmax_forward
from engine.training.stack import StackShape, init_stack, stack_forward, stack_loss_and_grads
from engine.training.tasks import (AveragingTask, LookupTask, copy_one_token_accuracy,
                                   relation_batch, repeat_batch)


@pytest.fixture(scope="module")
def gradient_errors():
    return {name: gradcheck.check_gradients(fn, params, np.random.default_rng(7), per_param=25)
            for name, (fn, params) in gradcheck.gradient_cases(seed=3).items()}


def test_every_experiment_model_is_checked(gradient_errors):
    names = set(gradient_errors)
    assert {"scaling/averaging", "scaling/lookup", "roles", "heads/h=1", "heads/h=4"} <= names
    # every parameter of every model is covered
    assert set(gradient_errors["roles"]) == {"embed", "pos", "wq0", "wk0", "wv0", "wo0", "wq1",
                                             "wk1", "wv1", "wo1", "readout"}
    assert set(gradient_errors["scaling/lookup"]) == {"wq", "wk", "wv", "readout"}


@pytest.mark.parametrize("case", ["scaling/averaging", "scaling/lookup", "roles", "roles/unscaled",
                                  "roles/control", "heads/h=1", "heads/h=4"])
def test_gradients_match_finite_differences(gradient_errors, case):
    worst = max(gradient_errors[case].values())
    assert gradcheck.passed(worst), gradient_errors[case]


def test_gradient_check_catches_a_wrong_gradient():
    fn, params = gradcheck.gradient_cases(seed=0)["roles"]

    def wrong(p):
        loss, grads = fn(p)
        grads = dict(grads, wv1=grads["wv1"] * 1.01)
        return loss, grads
    errors = gradcheck.check_gradients(wrong, params, np.random.default_rng(0), per_param=10)
    assert errors["wv1"] > 1e-3 and errors["wq1"] < 1e-5


def test_last_query_only_equals_full_rows():
    shape = StackShape(vocab=72, classes=64, max_len=9, d_model=8, layers=1, heads=2, d_k=4,
                       causal=False, scale=True)
    short = StackShape(**{**shape.__dict__, "last_query_only": True})
    params = init_stack(shape, np.random.default_rng(1), np.float64)
    tokens, targets, weight, _ = relation_batch(np.random.default_rng(2), 5)
    full = stack_loss_and_grads(params, shape, tokens, targets, weight.astype(np.float64))
    part = stack_loss_and_grads(params, short, tokens, targets, weight.astype(np.float64))
    assert full[0] == pytest.approx(part[0], rel=1e-12)
    for name in params:
        np.testing.assert_allclose(full[2][name], part[2][name], rtol=1e-10, atol=1e-14)


def test_adam_first_two_steps_by_hand():
    p = np.array([1.0, -2.0], dtype=np.float32)
    opt = Adam({"p": p}, lr=0.1, beta1=0.9, beta2=0.999, eps=1e-8)
    g1 = np.array([0.5, -0.25], dtype=np.float32)
    opt.step({"p": g1})
    # The expected values in float64. The float32 Adam rounds each constant (β's, ε, step
    # size) once and each operation once, ≤ u each.
    g1, g2 = g1.astype(np.float64), np.array([1.0, 0.5])
    # step 1: m̂ = g, v̂ = g², update = lr·g/(|g| + ε) ≈ lr·sign(g)
    update = 0.1 * g1 / (np.abs(g1) + 1e-8)
    expected = np.array([1.0, -2.0]) - update
    # m = g(1 − β₁): 2u; v = g²(1 − β₂): 3u; √v + ε: 3.5u; m/(√v + ε): 6.5u; × step size:
    # 8.5u of the update; p − update: u of p.
    bound = 9 * U32 * np.abs(update) + U32 * np.abs(expected)
    assert_within(p, expected, bound, "step 1")
    opt.step({"p": g2.astype(np.float32)})
    m = 0.9 * (0.1 * g1) + 0.1 * g2
    v = 0.999 * (0.001 * g1 ** 2) + 0.001 * g2 ** 2
    m_hat, v_hat = m / (1 - 0.9 ** 2), v / (1 - 0.999 ** 2)
    update = 0.1 * m_hat / (np.sqrt(v_hat) + 1e-8)
    expected = expected - update
    # m = β₁m₁ + (1 − β₁)g₂ may cancel: it carries ≤ 5u of M = |β₁m₁| + |(1 − β₁)g₂|; v has
    # no cancellation, ≤ 6u; √v + ε ≤ 5u; the quotient ≤ 11u of M/(√v + ε), × step size 13u.
    big_m = (0.9 * 0.1 * np.abs(g1) + 0.1 * np.abs(g2)) / (1 - 0.9 ** 2)
    bound = bound + 13 * U32 * 0.1 * big_m / (np.sqrt(v_hat) + 1e-8) + U32 * np.abs(expected)
    assert_within(p, expected, bound, "step 2")
    assert p.dtype == np.float32 and opt.m["p"].dtype == np.float32


def test_softmax_clip_keeps_rows_finite_and_matches_exact():
    s = np.array([[0.0, 1.0, 2.0], [1e4, -1e4, 0.0]], dtype=np.float32)
    a, free = softmax_forward(s.copy())
    assert np.all(np.isfinite(a))
    assert_within(a.sum(-1), 1.0, row_sum_bound(3), "row sums")
    s0 = s[0].astype(np.float64)
    exact = np.exp(s0 - s0.max()) / np.exp(s0 - s0.max()).sum()
    # Exact scores (small integers): only the float32 softmax arithmetic.
    assert_within(a[0], exact, softmax_bound(exact, s0, 0.0, eps=EPS32), "row 0")
    assert free[0].all() and not free[1, 1]            # −2e4 below the max: clipped
    # Both low keys clip to −30: a = fl(exp(−30))/fl(1 + 2e^−30) and that sum rounds to 1:
    # the exp's FUNC_ULPS ulp, one rounding dividing, and the dropped 2e^−30 (abs=0: approx's
    # default abs of 1e-12 would accept anything near 9e−14).
    exact = math.exp(-CLIP) / (1 + 2 * math.exp(-CLIP))
    assert a[1, 1] == pytest.approx(exact, rel=(FUNC_ULPS + 1) * EPS32, abs=0)
    ds = softmax_backward(np.ones_like(a), a, free)
    # ds_j = fl(a_j·(1 − fl(Σa))): |1 − fl(Σa)| ≤ row_sum_bound (1 − S is exact), so Σ|ds| is
    # at most that times Σa ≤ 1 + 3ε, with one rounding per product and 2 more summing.
    assert ds[1, 1] == 0
    assert_within(ds.sum(-1), 0.0, row_sum_bound(3) * (1 + 6 * EPS32), "Σ ds")


def test_softmax_mask_and_entropy():
    s = np.zeros((1, 3, 3), dtype=np.float32)
    mask = np.tril(np.ones((3, 3), dtype=np.float32))
    a, _ = softmax_forward(s, mask)
    expected = np.array([[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3]])
    # Exact scores (all 0): only the float32 softmax arithmetic.
    da = softmax_bound(expected, np.zeros((3, 3)), 0.0, eps=EPS32)
    assert_within(a[0], expected, da, "weights")
    # H = −Σ p ln p: first order (|ln p| + 1)·δp per weight, then the float32 log's FUNC_ULPS
    # ulp, one rounding per product and n − 1 summing, relative to Σ p|ln p| (0 ln 0 = 0).
    logs = np.log(np.where(expected > 0, expected, 1.0))
    bound = ((np.abs(logs) + 1) * da).sum(-1) + \
        (FUNC_ULPS + 3) * EPS32 * (expected * np.abs(logs)).sum(-1)
    assert_within(row_entropy(a[0]), [0, math.log(2), math.log(3)], bound, "entropy")


def test_float32_stays_float32():
    shape = StackShape(vocab=32, classes=32, max_len=25, d_model=16, layers=2, heads=4, d_k=4,
                       causal=True, scale=True)
    params = init_stack(shape, np.random.default_rng(0), np.float32)
    tokens, targets, weight, _ = repeat_batch(np.random.default_rng(1), 4, 32, 3, 12)
    _, _, grads, cache = stack_loss_and_grads(params, shape, tokens, targets, weight)
    assert all(g.dtype == np.float32 for g in grads.values())
    assert all(w.dtype == np.float32 for w in cache["weights"])
    rng = np.random.default_rng(0)
    task = AveragingTask(rng, 64, np.float32)
    q, index, _ = task.batch(rng, 8)
    p = init_pooled(64, 32, 16, 2, [rng], np.float32)
    logits, cache = pooled_forward(p, task.query_table[None], q[None],
                                   Items(task.table[None], index[None], 1),
                                   inverse_divisors(32, [True]))
    assert logits.dtype == np.float32 and cache["pooled"].dtype == np.float32


def test_items_equal_dense_embeddings():
    rng = np.random.default_rng(3)
    tasks = [LookupTask(rng, 8, np.float64) for _ in range(2)]
    batches = [t.batch(rng, 5) for t in tasks]
    table = np.stack([t.table for t in tasks])
    index = np.stack([b[1] for b in batches])                       # (S=2, B, n, F=2)
    items = Items(table, index, runs=4)                             # K = 2 runs per seed
    dense = np.stack([table[s][index[s]].sum(axis=2) for s in range(2)])   # (S, B, n, d)
    dense = np.repeat(dense, 2, axis=0)                             # per run
    w = rng.standard_normal((4, 5, 8))
    a = rng.random((4, 5, 8))
    np.testing.assert_allclose(items.dot(w), np.einsum("rbnd,rbd->rbn", dense, w), rtol=1e-12)
    np.testing.assert_allclose(items.weighted_sum(a), np.einsum("rbn,rbnd->rbd", a, dense),
                               rtol=1e-12)


def test_copy_one_token_baseline_by_sampling():
    assert copy_one_token_accuracy(9) == pytest.approx(0.637, abs=5e-4)
    rng = np.random.default_rng(0)
    task = AveragingTask(rng, 8, np.float32)
    tokens = rng.integers(0, 32, size=(200_000, 9))
    labels = (tokens >= 16).sum(1) > 4
    copied = tokens[:, 0] >= 16
    hit = float((copied == labels).mean())
    assert hit == pytest.approx(copy_one_token_accuracy(9), abs=4 * math.sqrt(0.25 / 200_000))
    _, _, y = task.batch(rng, 20_000)
    assert abs(float(y.mean()) - 0.5) < 0.02


def test_repeat_batch_layout():
    tokens, targets, weight, n = repeat_batch(np.random.default_rng(0), 50, 32, 3, 12)
    assert tokens.shape == (50, 25)
    for row, tgt, w, k in zip(tokens, targets, weight, n):
        assert row[0] == 0 and 3 <= k <= 12
        assert list(row[1:k + 1]) == list(row[k + 1:2 * k + 1])
        assert len(set(row[1:k + 1])) == k and (row[1:k + 1] > 0).all()
        assert (row[2 * k + 1:] == 0).all()
        assert list(np.nonzero(w)[0]) == list(range(k + 1, 2 * k))
        assert all(tgt[p] == row[p + 1] for p in range(k + 1, 2 * k))


def test_relation_and_lookup_batches():
    tokens, targets, weight, match = relation_batch(np.random.default_rng(0), 40)
    keys, values = tokens[:, :-1] // 8, tokens[:, :-1] % 8
    for i in range(40):
        assert sorted(keys[i]) == list(range(8))
        assert tokens[i, -1] - 64 == keys[i, match[i]]
        assert targets[i, -1] == values[i, match[i]] * 8 + values[i, -1]
    assert weight.sum() == 40 and (weight[:, -1] == 1).all()
    rng = np.random.default_rng(0)
    task = LookupTask(rng, 16, np.float64)
    q, index, y = task.batch(rng, 10)
    assert index.shape == (10, 8, 2)
    offset = task.query_table - task.keys                           # the same CLS part for every key
    assert np.allclose(offset, offset[0]) and np.abs(offset).max() > 0.1
    for i in range(10):
        assert sorted(index[i, :, 0]) == list(range(8))              # every key once
        j = list(index[i, :, 0]).index(q[i])                          # the item the query names
        assert index[i, j, 1] - 8 == y[i]                             # its value is the label


def test_masked_softmax_shifts_by_the_allowed_keys_only():
    # A masked future key 100 above the allowed ones must not clip them: (0, −1) keep their
    # softmax e^0/(e^0+e^−1) = 0.7311, 0.2689, within float32's softmax arithmetic (exact
    # scores; the masked weight is exactly 0).
    s = np.array([[0.0, -1.0, 100.0]], dtype=np.float32)
    mask = np.array([[1, 1, 0]], dtype=np.float32)
    a, free = softmax_forward(s, mask)
    expected = np.array([1, math.exp(-1), 0]) / (1 + math.exp(-1))
    da = softmax_bound(expected, s[0], 0.0, eps=EPS32)
    assert_within(a[0], expected, da, "weights")
    assert free[0].tolist() == [True, True, False]
    ds = softmax_backward(np.array([[1.0, 0.0, 5.0]], dtype=np.float32), a, free)
    # ∂L/∂s_0 = A_0(1 − A_0), ∂L/∂s_1 = −A_0 A_1 for dA = (1, 0, ·); the masked key gets 0.
    # Σ dA·a = a₀ and 1 − a₀ are exact; one rounding per product, and with A ≤ 1 the weights'
    # errors δa add at most δa₀ + δa₁ (+ δa₀δa₁, + u·|ds| ≤ u).
    assert_within(ds[0, :2], [expected[0] * expected[1], -expected[0] * expected[1]],
                  da[0] + da[1] + da[0] * da[1] + U32, "ds")
    assert ds[0, 2] == 0


def test_fully_masked_rows_are_zero_with_zero_gradient():
    s = np.array([[3.0, -2.0], [1.0, 2.0]], dtype=np.float32)
    mask = np.array([[0, 0], [1, 1]], dtype=np.float32)
    a, free = softmax_forward(s, mask)
    assert np.all(np.isfinite(a)) and a[0].tolist() == [0, 0]
    assert_within(a[1].sum(), 1.0, row_sum_bound(2), "row sum")
    ds = softmax_backward(np.ones_like(a), a, free)
    assert ds[0].tolist() == [0, 0]


def test_a_learning_rate_too_large_for_a_float_is_a_config_error():
    """10⁴⁰⁰ as a JSON whole number: refused with the field's range, not OverflowError."""
    from engine.training import TrainingConfigError, default_config

    fields = default_config("scaling").to_dict()
    fields["lr"] = 10 ** 400
    with pytest.raises(TrainingConfigError, match="lr must be from"):
        type(default_config("scaling")).from_dict(fields)
