"""Hand-written gradients against central finite differences, in float64.

For a parameter entry θ_i:  g_fd = (L(θ + ε e_i) − L(θ − ε e_i)) / (2ε),  ε = 1e−5, and

    relative error = |g − g_fd| / max(|g| + |g_fd|, floor),   floor = noise / LIMIT

Error bound behind the floor. L is computed with a rounding error of at most about n·u·|L|
(u = float64's unit roundoff 1.1e−16, n the length of the longest sum behind L; BLAS builds
differ in summation order, so the error differs between machines within that bound). The
difference quotient turns it into an absolute noise of at most

    noise = NOISE_TERMS · |L| · u / ε,      NOISE_TERMS = 256 ≥ n for these small models,

while its truncation error, ε²·|L‴|/6 ≈ 2e−11·|L‴|, is far below. An entry whose gradient is
large against that noise is judged by its relative error; one whose gradient is at the noise
level is judged by absolute error, scaled so that rounding alone gives at most LIMIT. A wrong
backward pass is off by a fraction of a gradient, orders of magnitude above both.
Every entry is checked for small parameters; at most `per_param` random entries otherwise.
"""
from __future__ import annotations

import math

import numpy as np

from .pooled import (Items, init_pooled, inverse_divisors, pooled_backward, pooled_forward,
                     run_cross_entropy)
from .stack import StackShape, init_stack, stack_loss_and_grads
from .tasks import (AveragingTask, LookupTask, relation_batch, relation_vocab, repeat_batch,
                    RELATION_ITEMS, RELATION_VALUES)

EPS = 1e-5
LIMIT = 1e-5           # the largest relative error that passes
NOISE_TERMS = 256
DTYPE = np.float64


def noise_floor(loss: float) -> float:
    """The |g − g_fd| that rounding alone can give at this |L|, divided by LIMIT."""
    return NOISE_TERMS * abs(loss) * (np.finfo(DTYPE).eps / 2) / EPS / LIMIT


def passed(worst: float) -> bool:
    return bool(worst < LIMIT)


def check_gradients(loss_and_grads, params: dict, rng: np.random.Generator,
                    per_param: int = 40) -> dict[str, float]:
    """Largest relative error per parameter name. loss_and_grads(params) → (loss, grads)."""
    loss, grads = loss_and_grads(params)
    floor = noise_floor(loss)
    errors = {}
    for name, p in params.items():
        flat = p.reshape(-1)
        picks = np.arange(flat.size) if flat.size <= per_param else \
            rng.choice(flat.size, per_param, replace=False)
        worst = 0.0
        for i in picks:
            keep = flat[i]
            flat[i] = keep + EPS
            up = loss_and_grads(params)[0]
            flat[i] = keep - EPS
            down = loss_and_grads(params)[0]
            flat[i] = keep
            fd = (up - down) / (2 * EPS)
            g = float(grads[name].reshape(-1)[i])
            worst = max(worst, abs(g - fd) / max(abs(g) + abs(fd), floor))
        errors[name] = worst
    return errors


def _pooled_case(task_cls, d_k: int, seed: int):
    rng = np.random.default_rng(seed)
    task = task_cls(rng, 16, DTYPE)
    # Two runs of one seed, scaled and unscaled, as run_scaling trains them.
    params = init_pooled(16, d_k, 4, task.classes, [rng], DTYPE)
    params = {k: np.repeat(v, 2, axis=0) for k, v in params.items()}
    query, index, labels = task.batch(rng, 6)
    query, labels = np.stack([query, query]), np.stack([labels, labels])
    tables = np.stack([task.query_table, task.query_table])
    items = Items(task.table[None], index[None], 2)
    inv = inverse_divisors(d_k, [True, False], DTYPE)

    def loss_and_grads(p):
        logits, cache = pooled_forward(p, tables, query, items, inv)
        loss, _, d_logits = run_cross_entropy(logits, labels)
        return float(loss.sum()), pooled_backward(p, cache, d_logits)
    return loss_and_grads, params


def _stack_case(shape: StackShape, batch, seed: int):
    params = init_stack(shape, np.random.default_rng(seed), DTYPE)
    tokens, targets, weight = batch[:3]
    weight = weight.astype(DTYPE)

    def loss_and_grads(p):
        loss, _, grads, _ = stack_loss_and_grads(p, shape, tokens, targets, weight)
        return loss, grads
    return loss_and_grads, params


def gradient_cases(seed: int = 0):
    """name → (loss_and_grads, params) for every experiment's model, in float64, small."""
    rng = np.random.default_rng(seed)
    roles_shape = StackShape(vocab=10, classes=10, max_len=9, d_model=8, layers=2, heads=2,
                             d_k=4, causal=True, scale=True)
    cases = {
        "scaling/averaging": _pooled_case(AveragingTask, 8, seed),
        "scaling/lookup": _pooled_case(LookupTask, 8, seed + 1),
        "roles": _stack_case(roles_shape, repeat_batch(rng, 4, 10, 2, 4), seed),
        "roles/unscaled": _stack_case(
            StackShape(**{**roles_shape.__dict__, "scale": False}),
            repeat_batch(rng, 4, 10, 2, 4), seed + 1),
        "roles/control": _stack_case(         # the 1-layer model trained beside
            StackShape(**{**roles_shape.__dict__, "layers": 1}),
            repeat_batch(rng, 4, 10, 2, 4), seed + 2),
    }
    for heads in (1, 4):
        shape = StackShape(vocab=relation_vocab(), classes=RELATION_VALUES ** 2,
                           max_len=RELATION_ITEMS + 1, d_model=8, layers=1, heads=heads,
                           d_k=8 // heads, causal=False, scale=True, last_query_only=True)
        cases[f"heads/h={heads}"] = _stack_case(shape, relation_batch(rng, 5), seed + heads)
    return cases


def check_all_gradients(seed: int = 0, per_param: int = 40) -> dict[str, float]:
    """Largest relative error of each experiment's model (all its parameters)."""
    rng = np.random.default_rng(seed + 100)
    return {name: max(check_gradients(fn, params, rng, per_param).values())
            for name, (fn, params) in gradient_cases(seed).items()}


def largest_error(errors: dict[str, float]) -> float:
    return max(errors.values()) if errors else math.nan
