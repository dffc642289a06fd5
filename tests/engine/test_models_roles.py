"""engine.models.roles: the detector finds heads planted in the weights, and its scores match
closed forms on hand-made attention maps."""
import math
from types import SimpleNamespace

import numpy as np
import pytest
from tiny_models import write_bert, write_gpt2

from engine.models import TokenError, attentions, head_roles, load_model, summarize_roles
from engine.models.roles import (INDUCTION_LENGTH, ROLE_THRESHOLD, head_scores, induction_ids,
                                 induction_scores, is_sink_token)

SENTENCE = "the cat sat on the mat, and then the dog ran."
BERT_PLANTS = {0: "previous", 1: "next", 2: "first", 3: "self"}
GPT2_PLANTS = {0: "previous", 1: "self", 2: "first"}
SCORE = {"previous": "prev_token_score", "next": "next_token_score", "self": "self_score",
         "first": "first_token_score"}


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted")
    return {"bert": write_bert(root / "bert", plants=BERT_PLANTS),
            "distilbert": write_bert(root / "distil", plants=BERT_PLANTS, distil=True),
            "gpt2": write_gpt2(root / "gpt2", plants=GPT2_PLANTS)}


@pytest.mark.parametrize("name", ["bert", "distilbert", "gpt2"])
def test_planted_heads_are_found(planted, name):
    model = load_model(planted[name])
    result = attentions(model, model.encode(SENTENCE)[1])
    roles = head_roles(result, model)
    assert len(roles) == 8 and [(r.layer, r.head) for r in roles[:2]] == [(0, 0), (0, 1)]
    plants = GPT2_PLANTS if name == "gpt2" else BERT_PLANTS
    for head, kind in plants.items():
        role = roles[head]
        assert role.role == kind
        assert getattr(role, SCORE[kind]) > 0.99
        others = [getattr(role, s) for k, s in SCORE.items() if k != kind]
        assert max(others) < 0.2
    # The random layer 1 (weights of std 0.02) attends almost uniformly: broad, no role.
    for role in roles[4:]:
        assert role.role == "broad" and role.broad_score > 0.95
    summary = summarize_roles(roles, result)
    assert summary.first_token_heads == 1
    first = "[CLS]" if name != "gpt2" else "the first token ('the')"
    assert summary.line() == f"1 of 8 heads put more than half their attention on {first}"


def test_decoder_has_induction_scores_and_no_next_token(planted):
    model = load_model(planted["gpt2"])
    roles = head_roles(attentions(model, model.encode(SENTENCE)[1]), model)
    assert all(r.next_token_score == 0.0 for r in roles)
    assert all(r.induction_score is not None for r in roles)
    # A previous-token head looks one back, not at the token after the earlier copy.
    assert roles[0].induction_score < 0.05
    bert = load_model(planted["bert"])
    assert all(r.induction_score is None
               for r in head_roles(attentions(bert, bert.encode(SENTENCE)[1]), bert))


def test_induction_sequence_and_score():
    ids = induction_ids(MODEL_STUB)
    r = ids[1:]
    assert ids[0] == 7 and len(r) == 2 * INDUCTION_LENGTH
    assert r[:INDUCTION_LENGTH] == r[INDUCTION_LENGTH:] and len(set(r)) == INDUCTION_LENGTH
    assert 7 not in r
    n, L = 1 + 2 * INDUCTION_LENGTH, INDUCTION_LENGTH
    perfect = np.zeros((n, n))
    perfect[np.arange(n), 0] = 1.0
    for t in range(L):
        perfect[1 + L + t] = 0.0
        perfect[1 + L + t, 1 + t + 1] = 1.0
    previous = np.eye(n, k=-1)
    previous[0, 0] = 1.0
    scores = induction_scores(np.stack([perfect, previous]), 1, L)
    np.testing.assert_allclose(scores, [1.0, 0.0])


# induction_ids reads only the config's vocabulary size, positions and BOS id.
MODEL_STUB = SimpleNamespace(config=SimpleNamespace(vocab_size=100, max_positions=64,
                                                    bos_token_id=7))


def test_scores_on_uniform_maps():
    n = 6
    sinks = np.array([False, False, True, False, False, True])
    uniform = np.full((n, n), 1 / n)
    s = head_scores(uniform, sinks, causal=False)
    for key in ("prev_token_score", "next_token_score", "self_score", "first_token_score"):
        assert s[key] == pytest.approx(1 / n)
    assert s["separator_score"] == pytest.approx(2 / n)
    assert s["entropy"] == pytest.approx(math.log(n))
    assert s["broad_score"] == pytest.approx(1.0)
    causal = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    s = head_scores(causal, sinks, causal=True)
    rows = np.arange(1, n)  # query rows 1..n-1 see i+1 keys
    assert s["entropy"] == pytest.approx(np.mean(np.log(rows + 1)))
    assert s["broad_score"] == pytest.approx(1.0)
    assert s["first_token_score"] == pytest.approx(np.mean(1 / (rows + 1)))
    assert s["next_token_score"] == 0.0
    # a separator sink: every row on key 5
    sink = np.zeros((n, n))
    sink[:, 5] = 1.0
    s = head_scores(sink, sinks, causal=False)
    assert s["separator_score"] == 1.0 and s["entropy"] == 0.0 and s["first_token_score"] == 0.0


def test_role_threshold_and_too_few_tokens():
    one = np.ones((1, 1, 1))
    with pytest.raises(TokenError):
        head_scores(one, np.array([False]), causal=True)
    assert ROLE_THRESHOLD == 0.5


@pytest.mark.parametrize("token,sink", [("[SEP]", True), (".", True), ("Ġ,", True), ("##!", True),
                                        ("。", True), ("cat", False), ("Ġthe", False),
                                        ("[CLS]", False), ("##s", False), ("", False)])
def test_sink_tokens(token, sink):
    assert is_sink_token(token) is sink


def test_planted_induction_circuit_is_found(tmp_path):
    """Layer 0 head 0 copies each token's identity one position on (a previous-token head);
    layer 1 head 0 matches the current token against that copy (tiny_models._plant_induction)."""
    from tiny_models import check_attention_step, check_float64_forward

    model = load_model(write_gpt2(tmp_path / "induction", d_model=96, induction=True))
    result = attentions(model, model.encode(SENTENCE)[1])
    roles = head_roles(result, model)
    assert roles[0].role == "previous" and roles[0].induction_score < 0.05
    induction = roles[4]
    assert (induction.layer, induction.head, induction.role) == (1, 0, "induction")
    assert induction.induction_score > 0.9
    assert all(r.induction_score < 0.2 for r in roles if (r.layer, r.head) != (1, 0))
    # the planted maps as the reference computes them: end to end in float64, then each
    # layer's float32 attention step on its own (see tiny_models for the bounds)
    check_attention_step(model, check_float64_forward(model, induction_ids(model)))


def test_roles_of_maps_scores_hand_made_maps_in_closed_form():
    """Maps from outside a model: a shift-by-one map, an induction map on [BOS] r r and a
    uniform causal map, scored as head_roles scores a model's heads."""
    from engine.models import repeat_span, roles_of_maps

    r = ["5", "9", "2", "7"]
    tokens = ["BOS", *r, *r]
    n, offset, length = len(tokens), 1, len(r)
    assert repeat_span(tokens) == (offset, length)
    assert repeat_span(r + r) == (0, length)
    assert repeat_span(["the", "cat", "sat"]) is None and repeat_span(["a", "a"]) is None
    previous = np.zeros((n, n))
    previous[0, 0] = 1.0
    previous[np.arange(1, n), np.arange(n - 1)] = 1.0
    induction = np.zeros((n, n))
    induction[np.arange(n), np.arange(n)] = 1.0            # self where there is no earlier copy
    for t in range(length - 1):                            # the copy's next token, except the last
        induction[offset + length + t] = 0.0
        induction[offset + length + t, offset + t + 1] = 1.0
    uniform = np.tril(np.ones((n, n)))
    uniform /= uniform.sum(axis=1, keepdims=True)
    attn = np.stack([previous, induction, uniform])[None]  # (1, 3, n, n)
    ind = induction_scores(attn, offset, length)
    roles = roles_of_maps(attn, tokens, causal=True, induction=ind)
    assert [(x.layer, x.head) for x in roles] == [(0, 0), (0, 1), (0, 2)]
    assert roles[0].role == "previous" and roles[0].prev_token_score == pytest.approx(1.0)
    # induction: length − 1 of the length rows of the second copy hit the next token
    assert roles[1].induction_score == pytest.approx((length - 1) / length)
    assert roles[1].role == "induction"
    # uniform causal rows: entropy ln(i+1), broad score exactly 1, role "broad"
    expected_entropy = np.mean([math.log(i + 1) for i in range(1, n)])
    assert roles[2].entropy == pytest.approx(expected_entropy)
    assert roles[2].broad_score == pytest.approx(1.0) and roles[2].role == "broad"
    assert roles[2].first_token_score == pytest.approx(np.mean([1 / (i + 1) for i in range(1, n)]))
    # no induction where it does not apply
    assert roles_of_maps(attn, tokens, causal=True)[1].induction_score is None


def test_head_roles_is_roles_of_maps_on_the_forward_pass(planted):
    from engine.models import roles_of_maps

    model = load_model(planted["bert"])
    result = attentions(model, model.encode(SENTENCE)[1])
    assert head_roles(result, model) == roles_of_maps(result.attentions, result.tokens, False)
