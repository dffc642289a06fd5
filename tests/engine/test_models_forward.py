"""engine.models.forward: shapes, rows summing to 1, the causal mask, agreement with an
independent float64 reference, and the score variance against d_k."""
import math

import numpy as np
import pytest
from tiny_models import reference_attentions, write_bert, write_gpt2

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
    np.testing.assert_allclose(result.attentions.sum(axis=-1), 1.0, atol=2e-6)
    assert (result.attentions >= 0).all()
    reference, raw = reference_attentions(folders[name], ids)
    assert np.abs(result.attentions - reference).max() < 1e-5
    # With std 0.3 weights the maps are far from uniform, so the comparison is not vacuous.
    assert result.attentions.max() > 3.0 / n
    allowed = np.tri(n, dtype=bool) if model.config.causal else np.ones((n, n), dtype=bool)
    expected = np.array([raw[layer][:, allowed].var() for layer in range(2)])
    np.testing.assert_allclose(result.raw_score_variance, expected, rtol=1e-5)
    np.testing.assert_allclose(result.scaled_score_variance, expected / 16, rtol=1e-5)
    heads = np.array([[raw[layer][h][allowed].var() for h in range(4)] for layer in range(2)])
    np.testing.assert_allclose(result.head_raw_score_variance, heads, rtol=1e-5)


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
    assert np.allclose(attn[:, :, 0, 0], 1.0)
    # Causality: a prefix's attention is the top-left block of the full sequence's.
    prefix = attentions(gpt, ids[:5]).attentions
    np.testing.assert_allclose(prefix, attn[:, :, :5, :5], atol=1e-5)
    bert = load_model(folders["bert"])
    _, ids = bert.encode(SENTENCE)
    battn = attentions(bert, ids).attentions
    assert (battn[:, :, ~np.tri(len(ids), dtype=bool)] > 0).all()
    assert not np.allclose(attentions(bert, ids[:5]).attentions, battn[:, :, :5, :5], atol=1e-3)


def test_erf_and_activations():
    x = np.linspace(-6, 6, 4001)
    exact = np.array([math.erf(v) for v in x])
    assert np.abs(erf(x) - exact).max() < 1.5e-7
    assert np.abs(erf(x.astype(np.float32)) - exact).max() < 5e-7
    assert erf(x.astype(np.float32)).dtype == np.float32
    gelu_exact = x * 0.5 * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x]))
    assert np.abs(activation(x, "gelu_erf") - gelu_exact).max() < 1e-6
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
