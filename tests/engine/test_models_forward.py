"""engine.models.forward: shapes, rows summing to 1, the causal mask, agreement with an
independent float64 reference, and the score variance against d_k."""
import math

import numpy as np
import pytest
from tiny_models import (
    AS_ERF_GAP, as_erf_error, as_float64, check_attention_step, check_float64_forward,
    reference_attentions, write_bert, write_gpt2,
)
from tolerances import EPS32, EPS64, TINY32, U32, assert_within, row_sum_bound

from engine.models import attentions, load_model, run_sentence
from engine.models.forward import activation, erf

SENTENCE = "the cat sat on the mat, and then the dog ran."


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("fwd")
    return {
        "bert": write_bert(root / "bert", std=0.3, seed=3),
        "bert_relu": write_bert(root / "bert_relu", std=0.3, seed=4, activation="relu"),
        "distilbert": write_bert(root / "distil", std=0.3, seed=5, distil=True),
        "gpt2": write_gpt2(root / "gpt2", std=0.3, seed=6),
    }


@pytest.mark.parametrize("name", ["bert", "bert_relu", "distilbert", "gpt2"])
def test_shapes_dtype_rows_and_reference(folders, name):
    model = load_model(folders[name])
    tokens, ids = model.encode(SENTENCE)
    result = attentions(model, ids)
    n = len(ids)
    assert result.tokens == tokens and result.token_ids == ids
    assert result.attentions.shape == (2, 4, n, n)
    assert result.attentions.dtype == np.float32
    assert_within(result.attentions.sum(axis=-1), 1.0, row_sum_bound(n), "row sums")
    assert (result.attentions >= 0).all()
    # With std 0.3 weights the maps are far from uniform, so the comparisons are not vacuous.
    assert result.attentions.max() > 3.0 / n
    # The formulas, end to end, in float64 (maps and score variances), then the float32
    # attention step of each layer on its own: see tiny_models for the bounds.
    inputs = check_float64_forward(model, ids)
    check_attention_step(model, inputs)


def test_result_is_read_only(folders):
    result = run_sentence(load_model(folders["bert"]), SENTENCE)
    with pytest.raises(ValueError):
        result.attentions[0, 0, 0, 0] = 1.0


def test_causal_mask(folders):
    gpt = load_model(folders["gpt2"])
    _, ids = gpt.encode(SENTENCE)
    attn = attentions(gpt, ids).attentions
    n = len(ids)
    above = ~np.tri(n, dtype=bool)
    assert (attn[:, :, above] == 0).all()
    assert (attn[:, :, 0, 0] == 1.0).all()   # one allowed key: e/e, exactly 1
    # Causality: a prefix's attention is the top-left block of the full sequence's. In
    # float64 both are within the reference's bound of those exact values (then stored as
    # float32, ≤ u each).
    gpt64 = as_float64(gpt)
    prefix = attentions(gpt64, ids[:5]).attentions
    block = attentions(gpt64, ids).attentions[:, :, :5, :5]
    _, _, bound_prefix, _ = reference_attentions(gpt.folder, ids[:5], eps=EPS64)
    _, _, bound_full, _ = reference_attentions(gpt.folder, ids, eps=EPS64)
    assert_within(prefix, block, bound_prefix + bound_full[:, :, :5, :5]
                  + U32 * (np.abs(prefix) + np.abs(block)) + TINY32, "prefix")
    bert = load_model(folders["bert"])
    _, ids = bert.encode(SENTENCE)
    battn = attentions(bert, ids).attentions
    assert (battn[:, :, ~np.tri(len(ids), dtype=bool)] > 0).all()
    assert not np.allclose(attentions(bert, ids[:5]).attentions, battn[:, :, :5, :5], atol=1e-3)


def test_erf_and_activations():
    x = np.linspace(-6, 6, 4001)
    exact = np.array([math.erf(v) for v in x])
    # A&S 7.1.26 is within 1.5e-7 of erf; evaluating it adds as_erf_error (Horner, exp).
    assert_within(erf(x), exact, AS_ERF_GAP + as_erf_error(x, EPS64), "float64 erf")
    # In float32 the input rounding (u·|x|) moves erf by ≤ (2/√π)·max(|x|e^−x²)·u < u.
    x32 = x.astype(np.float32)
    assert_within(erf(x32), exact, AS_ERF_GAP + as_erf_error(x32, EPS32) + U32, "float32 erf")
    assert erf(x32).dtype == np.float32
    gelu_exact = x * 0.5 * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x]))
    # ½|x|·(erf's error at x/√2 + a few float64 roundings)
    assert_within(activation(x, "gelu_erf"), gelu_exact,
                  0.5 * np.abs(x) * (AS_ERF_GAP + as_erf_error(x / math.sqrt(2), EPS64)
                                     + 4 * EPS64), "gelu")
    # The tanh form is a different function: it differs from x·Φ(x) by up to ~1e-3.
    gap = np.abs(activation(x, "gelu_tanh") - gelu_exact).max()
    assert 1e-4 < gap < 1e-2
    assert (activation(x, "relu") == np.maximum(x, 0)).all()


def test_raw_score_variance_is_d_k_for_random_projections(tmp_path):
    """Layer 0 sees LayerNorm'd embeddings (mean 0, variance ≈ 1 per token). With W_Q, W_K
    entries N(0, 1/d), q·k = x_i W_Q W_Kᵀ x_jᵀ has E[(q·k)²] = ‖x_i‖²‖x_j‖² d_k / d² ≈ d_k,
    so the pooled raw variance is ≈ d_k (64/4 = 16) and the scaled one ≈ 1, up to sampling
    error across draws of the weights."""
    ratios = []
    for seed in range(16):
        folder = write_bert(tmp_path / f"m{seed}", std=1 / 8, seed=100 + seed, layers=1)
        model = load_model(folder)
        result = attentions(model, model.encode("the cat sat on the mat and the dog ran")[1])
        ratios.append(result.scaled_score_variance[0])
    ratios = np.array(ratios)
    stderr = ratios.std(ddof=1) / math.sqrt(len(ratios))
    assert abs(ratios.mean() - 1.0) < 4 * stderr + 0.03, (ratios.mean(), stderr)
    assert stderr < 0.1  # the check above is not vacuous
