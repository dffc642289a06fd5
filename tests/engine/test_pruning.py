"""Head masks and pruning (Michel et al. 2019): the mask with every head on is the model
bit for bit, a layer with every head off is the closed form without its attention, the
mask gradient matches finite differences and each sequence's share of it, importance orders
heads on constructed cases, and the curves start at the unpruned quality."""
import dataclasses

import numpy as np
import pytest

from engine.models import load_model
from engine.models.forward import _ffn, hidden_states, layer_norm
from engine.models.pruning import (LESSON_SENTENCES, cosine, embedding_quality, prune_model,
                                   sentence_embedding)
from engine.training import gradcheck
from engine.training.heads import HeadsConfig
from engine.training.pruning import (PAPER_PRUNING, gradient_importance, prune_trained,
                                     pruning_curve, pruning_order)
from engine.training.stack import StackShape, init_stack, stack_forward, stack_loss_and_grads
from engine.training.tasks import relation_batch, relation_vocab, repeat_batch
from tiny_models import write_bert

ROLES = StackShape(vocab=10, classes=10, max_len=9, d_model=8, layers=2, heads=2, d_k=4,
                   causal=True, scale=True)
HEADS = StackShape(vocab=relation_vocab(), classes=64, max_len=9, d_model=8, layers=1,
                   heads=4, d_k=2, causal=False, scale=True, last_query_only=True)
# cos(e, e) in float64 for d ≤ 64: the dot product and the two norms are each within
# d·ε₆₄ relative (Higham), so |cos − 1| ≤ 3·64·2.2e-16 < 1e-13.
COS_ONE_TOL = 1e-13


def _params(shape, dtype=np.float32, seed=0):
    return init_stack(shape, np.random.default_rng(seed), dtype)


@pytest.mark.parametrize("shape", [ROLES, HEADS], ids=["roles", "heads"])
def test_all_heads_on_is_the_unmasked_forward_bit_for_bit(shape):
    params = _params(shape)
    tokens = (repeat_batch(np.random.default_rng(1), 5, 10, 2, 4)[0] if shape is ROLES
              else relation_batch(np.random.default_rng(1), 5)[0])
    plain, _ = stack_forward(params, shape, tokens)
    masked, _ = stack_forward(params, shape, tokens, np.ones((shape.layers, shape.heads)))
    np.testing.assert_array_equal(plain, masked)


def test_every_head_of_a_layer_off_is_the_model_without_that_attention():
    """One layer, every head off: the residual stream keeps x₀ = E[tokens] + P, and the
    logits are x₀ W_R at the query position, exactly (the heads add 0·… = 0)."""
    params = _params(HEADS)
    tokens = relation_batch(np.random.default_rng(2), 6)[0]
    logits, _ = stack_forward(params, HEADS, tokens, np.zeros((1, HEADS.heads)))
    x0 = params["embed"][tokens] + params["pos"][:tokens.shape[1]]
    np.testing.assert_array_equal(logits, x0[:, -1:] @ params["readout"])


def _mask_loss(shape, params, batch):
    tokens, targets, weight = batch[:3]

    def loss_and_grads(p):
        loss, _, grads, _ = stack_loss_and_grads(params, shape, tokens, targets,
                                                 weight.astype(np.float64), p["mask"])
        return loss, {"mask": grads["head_mask"]}
    return loss_and_grads


@pytest.mark.parametrize("point", [1.0, 0.5], ids=["on", "half"])
def test_mask_gradient_matches_finite_differences(point):
    params = _params(ROLES, np.float64, seed=3)
    batch = repeat_batch(np.random.default_rng(4), 4, 10, 2, 4)
    mask = np.full((ROLES.layers, ROLES.heads), point)
    mask[0, 1] = 0.3
    errors = gradcheck.check_gradients(_mask_loss(ROLES, params, batch), {"mask": mask},
                                       np.random.default_rng(5), per_param=mask.size)
    assert gradcheck.passed(errors["mask"]), errors


def test_each_sequence_share_is_its_own_gradient():
    """term_b · W / w_b is the mask gradient of sequence b alone (float64: the two differ
    only by summation order, far below 1e-9 relative)."""
    params = _params(ROLES, np.float64, seed=6)
    tokens, targets, weight, _ = repeat_batch(np.random.default_rng(7), 5, 10, 2, 4)
    weight = weight.astype(np.float64)
    mask = np.ones((ROLES.layers, ROLES.heads))
    _, _, grads, _ = stack_loss_and_grads(params, ROLES, tokens, targets, weight, mask)
    total = weight.sum()
    for b in range(5):
        _, _, alone, _ = stack_loss_and_grads(params, ROLES, tokens[b:b + 1], targets[b:b + 1],
                                              weight[b:b + 1], mask)
        share = grads["head_mask_per_sequence"][b] * total / weight[b].sum()
        np.testing.assert_allclose(share, alone["head_mask"], rtol=1e-9, atol=1e-14)
    np.testing.assert_allclose(grads["head_mask_per_sequence"].sum(0), grads["head_mask"],
                               rtol=0, atol=0)


def test_pruning_order_and_curve_on_constructed_cases():
    assert pruning_order(np.array([[0.3, 0.1], [0.2, 0.1]])) == ((0, 1), (1, 1), (1, 0), (0, 0))
    # quality = fraction of heads on: the curve is 1 − k/K, from exactly 1
    curve = pruning_curve(lambda m: float(m.astype(np.float64).mean()),
                          np.arange(6.0).reshape(2, 3), "gradient", "x")
    np.testing.assert_array_equal(curve.fractions, np.arange(7) / 6)
    np.testing.assert_allclose(curve.quality, 1 - np.arange(7) / 6, rtol=0, atol=1e-15)
    assert [p["fraction"] for p in PAPER_PRUNING] == [0.2, 0.4]


def test_a_head_that_writes_nothing_has_importance_zero_and_goes_first():
    params = _params(HEADS, np.float64, seed=8)
    params["wo0"][2] = 0.0                       # head 2 adds nothing to the stream
    params["wo0"][0] *= 10.0                     # head 0 writes loudest
    tokens, targets, weight, _ = relation_batch(np.random.default_rng(9), 32)
    importance = gradient_importance(params, HEADS, tokens, targets, weight)
    assert importance[0, 2] == 0.0 and importance.min() == 0.0
    assert pruning_order(importance)[0] == (0, 2)
    assert importance[0, 0] == importance.max()


def test_trained_curve_starts_at_the_unpruned_accuracy():
    config = HeadsConfig(heads=(4,), seeds=1, steps=30, log_every=10, eval_size=64)
    result = prune_trained(config, 4)
    curve = result.curve
    assert curve.quality[0] == result.run.final_accuracy
    assert len(curve.quality) == 5 and curve.fractions[-1] == 1.0
    assert sorted(curve.order) == [(0, h) for h in range(4)]
    data = result.to_dict()
    assert data["quality"][0] == data["final_accuracy"] and data["importance_kind"] == "gradient"


# -- a tiny BERT stands in for MiniLM ---------------------------------------------------
@pytest.fixture(scope="module")
def bert(tmp_path_factory):
    return load_model(write_bert(tmp_path_factory.mktemp("bert") / "b", layers=2, heads=4,
                                 std=0.3, seed=11))


IDS = ((2, 5, 6, 7, 8, 9, 3), (2, 10, 11, 12, 3))


def test_minilm_style_mask_all_on_is_bit_for_bit(bert):
    for ids in IDS:
        np.testing.assert_array_equal(hidden_states(bert, ids),
                                      hidden_states(bert, ids, np.ones((2, 4))))


def test_minilm_style_layer_off_is_the_closed_form(bert):
    """Every head of layer 0 off: its attention output is b_O alone, so
    u = LN_attn(x₀ + b_O), x₁ = LN_ffn(u + FFN(u)); layer 1 runs as usual."""
    ids = IDS[0]
    mask = np.ones((2, 4))
    mask[0] = 0.0
    eps, lw = bert.config.layer_norm_eps, bert.layers[0]
    x0 = bert.word_embeddings[np.asarray(ids)] + bert.position_embeddings[:len(ids)]
    x0 = layer_norm(x0 + bert.token_type_embedding, bert.embedding_ln, eps)
    u = layer_norm(x0 + lw.b_o, lw.ln_attn, eps)
    x1 = layer_norm(u + _ffn(u, lw, bert.config.activation), lw.ln_ffn, eps)
    rest = dataclasses.replace(bert, layers=bert.layers[1:], embedding_ln=None,
                               token_type_embedding=None)
    # layer 1 alone on x₁: feed x₁ in as the "embeddings" of a one-layer model
    one = dataclasses.replace(rest, word_embeddings=x1,
                              position_embeddings=np.zeros_like(bert.position_embeddings))
    expected = hidden_states(one, tuple(range(len(ids))))
    np.testing.assert_array_equal(hidden_states(bert, ids, mask), expected)


def test_minilm_style_curve_starts_at_one_and_silent_head_goes_first(bert):
    lw = bert.layers[1]
    w_o = lw.w_o.copy()
    d_k = w_o.shape[0] // 4
    w_o[3 * d_k:4 * d_k] = 0.0                 # layer 1, head 3 writes nothing
    model = dataclasses.replace(bert, layers=(bert.layers[0],
                                              dataclasses.replace(lw, w_o=w_o)))
    curve = prune_model(model, id_lists=IDS)
    assert abs(curve.quality[0] - 1.0) < COS_ONE_TOL
    assert curve.importance[1, 3] == 0.0 and curve.order[0] == (1, 3)
    assert abs(curve.quality[1] - 1.0) < COS_ONE_TOL    # it changed nothing
    assert curve.importance_kind == "ablation" and len(curve.quality) == 9
    quality = embedding_quality(model, IDS)
    e = sentence_embedding(model, IDS[0])
    assert abs(cosine(e, e) - 1.0) < COS_ONE_TOL and quality(np.ones((2, 4))) == curve.quality[0]


def test_lesson_sentences_are_the_head_roles_defaults():
    from gui.state.app_state import DEFAULT_SENTENCES
    assert set(LESSON_SENTENCES) == set(DEFAULT_SENTENCES.values())


def test_at_fraction_counts_whole_heads():
    curve = pruning_curve(lambda m: float(m.astype(np.float64).sum()), np.arange(10.0)[None],
                          "gradient", "heads on")
    assert curve.at_fraction(0.2) == (2, 8.0) and curve.at_fraction(0.4) == (4, 6.0)
    assert curve.at_fraction(0.05) == (0, 10.0)
