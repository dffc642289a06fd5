"""engine.head_roles: tokenisation (English, Japanese characters and words), the hand-built
role heads, seeded random heads and the entropy of their average (concavity)."""
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.head_roles import (ATTEND_SCORE, MAX_TOKENS, ROLE_HEADS, Token, average_heads,
                               head_entropies, japanese_words, load_words, mode_for_text,
                               random_heads, role_heads, role_targets, role_weights,
                               sentence_indices, tokenize, truncate)
from engine.softmax import entropy

ROOT = Path(__file__).resolve().parents[2]
EN = "The cat sat on the mat. It was happy."
JA = "猫がマットに座った。それは暖かかった。"


def texts(tokens):
    return [t.text for t in tokens]


# --- tokenisation: English ----------------------------------------------------------------

def test_english_words_and_punctuation_are_separate_tokens():
    tokens = tokenize(EN, "en")
    assert texts(tokens) == ["The", "cat", "sat", "on", "the", "mat", ".", "It", "was", "happy", "."]
    assert [t.word_index for t in tokens] == list(range(11))
    assert [t.text for t in tokens if t.is_punct] == [".", "."]
    assert [t.text for t in tokens if t.is_pronoun] == ["It"]
    assert [t.text for t in tokens if t.is_noun] == ["cat", "mat"]
    assert all(isinstance(t, Token) for t in tokens)
    with pytest.raises(AttributeError):
        tokens[0].text = "A"          # frozen


def test_english_pronouns_nouns_and_contractions():
    tokens = tokenize('She said, "Alice gave Bob two books; it\'s his." Dogs bark!', "en")
    by_text = {t.text: t for t in tokens}
    for pronoun in ("She", "it", "his"):
        assert by_text[pronoun].is_pronoun, pronoun
    # Capitalised and not sentence-initial → proper noun; plurals of listed nouns are nouns.
    assert by_text["Alice"].is_noun and by_text["Bob"].is_noun and by_text["books"].is_noun
    assert by_text["Dogs"].is_noun                    # listed noun, although sentence-initial
    assert not by_text["gave"].is_noun and not by_text["She"].is_noun
    # it's → it + 's, one word
    i = texts(tokens).index("it")
    assert tokens[i + 1].text == "'s" and tokens[i + 1].word_index == tokens[i].word_index
    assert [t.text for t in tokens if t.is_punct] == [",", '"', ";", ".", '"', "!"]


def test_capitalised_sentence_start_is_not_a_noun_but_mid_sentence_is():
    tokens = tokenize("Happy people smile. Then Happy arrived, and I waved.", "en")
    happy = [t for t in tokens if t.text == "Happy"]
    assert [t.is_noun for t in happy] == [False, True]
    assert not any(t.is_noun for t in tokens if t.text in ("Then", "I"))


def test_unknown_mode_and_empty_text():
    with pytest.raises(ValueError, match="token mode"):
        tokenize("x", "fr")
    for mode in ("en", "ja_chars", "ja_words"):
        assert tokenize("", mode) == []
        assert tokenize("   ", mode) == []


# --- tokenisation: Japanese ---------------------------------------------------------------

def test_japanese_words_split_scripts_and_particles():
    assert japanese_words(JA) == ["猫", "が", "マット", "に", "座った", "。", "それ", "は",
                                  "暖かかった", "。"]
    assert japanese_words("彼らは日本では有名です。") == ["彼ら", "は", "日本", "で", "は", "有名です", "。"]
    assert japanese_words("それから、学校へ行きました。") == ["それ", "から", "、", "学校", "へ",
                                                         "行きました", "。"]
    assert japanese_words("ことを") == ["こと", "を"]          # こと keeps its と
    assert japanese_words("AIは 人間") == ["AI", "は", "人間"]  # latin run; spaces dropped


def test_japanese_characters_versus_words():
    chars = tokenize(JA, "ja_chars")
    words = tokenize(JA, "ja_words")
    assert texts(chars) == list(JA)                 # every character, in order
    assert len(chars) == 19 and len(words) == 10
    assert "".join(texts(words)) == JA
    # characters of one word share its index and its flags
    assert [t.word_index for t in chars[:7]] == [0, 1, 2, 2, 2, 3, 4]
    for c in chars:
        w = words[c.word_index]
        assert c.text in w.text
        assert (c.is_punct, c.is_pronoun, c.is_noun) == (w.is_punct, w.is_pronoun, w.is_noun)
    assert [w.text for w in words if w.is_noun] == ["猫", "マット"]
    assert [w.text for w in words if w.is_pronoun] == ["それ"]
    assert [w.text for w in words if w.is_punct] == ["。", "。"]
    assert tokenize("猫 が", "ja_chars") == tokenize("猫が", "ja_chars")


def test_word_lists_are_bundled_and_cached():
    assert {"cat", "mat"} <= load_words("en_nouns")
    assert {"he", "she", "it", "they", "them", "its", "this", "those"} <= load_words("en_pronouns")
    assert {"彼", "彼女", "それ", "これ", "彼ら"} <= load_words("ja_pronouns")
    assert load_words("en_nouns") is load_words("en_nouns")
    assert not any(w.startswith("#") for w in load_words("en_pronouns"))


def test_truncate_reports_what_it_dropped():
    tokens = tokenize(" ".join(["cat"] * 50), "en")
    kept, dropped = truncate(tokens)
    assert len(kept) == MAX_TOKENS == 40 and dropped == 10
    assert truncate(tokens[:5]) == (tokens[:5], 0)


# --- role heads ---------------------------------------------------------------------------

def mass(weights, row, cols):
    return float(weights[row, list(cols)].sum())


@pytest.mark.parametrize("role", ROLE_HEADS)
def test_each_role_is_row_stochastic_softmax_of_its_targets(role):
    tokens = tokenize(EN, "en")
    w = role_weights(tokens, role)
    assert w.shape == (11, 11)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(w > 0)                      # softmax never gives exactly 0
    t = role_targets(tokens, role)
    assert t.any(axis=1).all()                # every row has a target (itself if nothing else)
    for i in range(11):
        assert mass(w, i, np.nonzero(t[i])[0]) >= 0.9


def test_roles_attend_to_the_intended_tokens():
    tokens = tokenize(EN, "en")           # The cat sat on the mat . It was happy .
    n = len(tokens)
    w = {role: role_weights(tokens, role) for role in ROLE_HEADS}
    for i in range(1, n):
        assert w["previous"][i, i - 1] >= 0.9
        assert w["first"][i, 0] >= 0.9
    for i in range(n - 1):
        assert w["next"][i, i + 1] >= 0.9
    assert w["previous"][0, 0] >= 0.9 and w["next"][n - 1, n - 1] >= 0.9   # no target: itself
    for i in (1, 2, 3, 5, 6, 7, 8, 9, 10):
        assert w["same_word"][i, i] >= 0.9                                  # one token per word
    for i in (0, 4):                                                          # The … the
        assert mass(w["same_word"], i, [0, 4]) >= 0.9
        assert w["same_word"][i, 0] == pytest.approx(w["same_word"][i, 4], rel=1e-12)
    # a full stop attends to its own sentence only: The cat sat on the mat . | It was happy .
    for i, own in ((6, range(0, 7)), (10, range(7, 11))):
        row = w["punct_to_all"][i]
        assert mass(w["punct_to_all"], i, own) >= 0.9
        np.testing.assert_allclose(row[list(own)], row[own[0]])
        other = [j for j in range(n) if j not in own]
        assert row[other].max() < 0.01
    assert w["punct_to_all"][2, 2] >= 0.9
    assert w["pronoun_to_noun"][7, 5] >= 0.9          # It → mat (the nearest preceding noun)
    assert w["pronoun_to_noun"][7, 1] < 0.01          # … not cat
    assert w["pronoun_to_noun"][2, 2] >= 0.9          # sat is no pronoun: itself
    # the attended weight is exactly softmax of (6 at the target, 0 elsewhere)
    e = math.exp(ATTEND_SCORE)
    assert w["previous"][3, 2] == pytest.approx(e / (e + n - 1), rel=1e-12)


def test_pronoun_with_no_noun_before_attends_to_itself():
    tokens = tokenize("It rained on the cat.", "en")
    w = role_weights(tokens, "pronoun_to_noun")
    assert w[0, 0] >= 0.9


def test_japanese_roles_on_characters():
    tokens = tokenize(JA, "ja_chars")           # 猫 が マ ッ ト に 座 っ た 。 そ れ は 暖 か か っ た 。
    w_noun = role_weights(tokens, "pronoun_to_noun")
    mat = [2, 3, 4]
    for i in (10, 11):                           # そ, れ → マット
        assert mass(w_noun, i, mat) >= 0.9
        assert w_noun[i, 0] < 0.01               # not the cat
    w_word = role_weights(tokens, "same_word")
    for i in mat:
        assert mass(w_word, i, mat) >= 0.9
        np.testing.assert_allclose(w_word[i, mat], w_word[i, mat][0])   # shared evenly
    w_punct = role_weights(tokens, "punct_to_all")
    assert mass(w_punct, 9, range(10)) >= 0.9          # the first 。 → its own sentence
    assert w_punct[9, 10:].max() < 0.01                # … not the second
    assert mass(w_punct, 18, range(10, 19)) >= 0.9
    assert w_punct[18, :10].max() < 0.01


def test_sentences_end_at_stops_and_keep_their_closing_quotes():
    assert sentence_indices(["Hi", "!", "Yes", ".", ".", ".", "No", "?"]) == [0, 0, 1, 1, 1, 1, 2, 2]
    assert sentence_indices(["「", "はい", "。", "」", "と", "言った", "。"]) == [0, 0, 0, 0, 1, 1, 1]
    tokens = tokenize("I'm here. You're there.", "en")
    assert [t.sentence_index for t in tokens] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [t.word for t in tokens][:2] == ["I'm", "I'm"]
    chars = tokenize(JA, "ja_chars")
    assert [t.sentence_index for t in chars] == [0] * 10 + [1] * 9
    assert chars[2].word == "マット"


def test_same_word_links_repeated_words_and_the_pieces_of_one_word():
    tokens = tokenize("Mary gave John a book. The book's cover is red; Book!", "en")
    w = role_weights(tokens, "same_word")
    t = role_targets(tokens, "same_word")
    book = [i for i, tok in enumerate(tokens) if tok.word.casefold() in ("book", "book's")]
    plain = [i for i, tok in enumerate(tokens) if tok.word.casefold() == "book"]
    assert texts(tokens)[plain[0]] == "book" and len(plain) == 2        # book … Book
    for i in plain:
        assert set(np.nonzero(t[i])[0]) == set(plain)                   # case ignored
        assert mass(w, i, plain) >= 0.9
    s = texts(tokens).index("'s")
    assert set(np.nonzero(t[s])[0]) == {s - 1, s}                       # book's: its own word
    stops = [i for i, tok in enumerate(tokens) if tok.is_punct]
    for i in stops:                                                      # punctuation: no repeats
        assert np.nonzero(t[i])[0].tolist() == [i]
    assert set(book) >= set(plain)
    ja = tokenize("本を読んだ。本は重い。", "ja_words")
    hon = [i for i, tok in enumerate(ja) if tok.text == "本"]
    assert len(hon) == 2 and all(mass(role_weights(ja, "same_word"), i, hon) >= 0.9 for i in hon)


def test_mode_follows_the_script_of_the_text():
    assert mode_for_text("猫がマットに座った。", "en") == "ja_words"
    assert mode_for_text("猫がマットに座った。", "ja_chars") == "ja_chars"
    assert mode_for_text("GPT は文を読む", "en") == "ja_words"       # kana: Japanese
    assert mode_for_text("The cat sat.", "ja_words") == "en"
    assert mode_for_text("The cat sat.", "en") == "en"
    assert mode_for_text("…!?", "ja_chars") == "ja_chars"           # no letters: kept
    assert mode_for_text("", "en") == "en"
    with pytest.raises(ValueError, match="token mode"):
        mode_for_text("x", "fr")


def test_role_heads_stack_and_errors():
    tokens = tokenize(EN, "en")
    stack = role_heads(tokens)
    assert stack.shape == (len(ROLE_HEADS), 11, 11)
    for k, role in enumerate(ROLE_HEADS):
        np.testing.assert_array_equal(stack[k], role_weights(tokens, role))
    with pytest.raises(ValueError, match="unknown role"):
        role_weights(tokens, "syntax")
    with pytest.raises(ValueError, match="empty"):
        role_weights([], "previous")


def test_single_token_sentence():
    tokens = tokenize("Hello", "en")
    for role in ROLE_HEADS:
        np.testing.assert_allclose(role_weights(tokens, role), [[1.0]])


ALPHABET = st.sampled_from(list("abc XYZ.,!?") + ["cat ", "mat ", "it ", "she ", "猫", "が",
                                                 "それ", "は", "マット", "。", "彼"])


@given(st.lists(ALPHABET, min_size=1, max_size=60), st.sampled_from(["en", "ja_chars", "ja_words"]))
def test_any_text_gives_stochastic_rows_with_most_mass_on_targets(parts, mode):
    tokens, _ = truncate(tokenize("".join(parts), mode))
    if not tokens:
        return
    for role in ROLE_HEADS:
        w = role_weights(tokens, role)
        t = role_targets(tokens, role)
        np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)
        # k targets out of n: mass k·e⁶ / (k·e⁶ + n − k) ≥ e⁶ / (e⁶ + 39) > 0.91 for n ≤ 40
        assert np.all((w * t).sum(axis=1) >= 0.9)


# --- random heads and averaging -----------------------------------------------------------

def test_random_heads_are_seeded_and_row_stochastic():
    a = random_heads(9, 6, seed=3)
    assert a.shape == (6, 9, 9)
    np.testing.assert_array_equal(a, random_heads(9, 6, seed=3))
    assert not np.allclose(a, random_heads(9, 6, seed=4))
    np.testing.assert_allclose(a.sum(axis=-1), 1.0, atol=1e-12)
    assert np.all(a > 0)
    assert random_heads(5, 2, seed=0, d_k=4).shape == (2, 5, 5)
    with pytest.raises(ValueError):
        random_heads(0, 6, seed=0)


def test_average_heads_is_the_mean():
    w = random_heads(7, 4, seed=1)
    np.testing.assert_allclose(average_heads(w), w.mean(axis=0))
    np.testing.assert_allclose(average_heads(w).sum(axis=1), 1.0)
    with pytest.raises(ValueError):
        average_heads(w[0])


def test_head_entropies_values():
    tokens = tokenize(EN, "en")
    w = role_heads(tokens)
    per_head, avg = head_entropies(w)
    assert per_head.shape == (len(ROLE_HEADS),)
    np.testing.assert_allclose(per_head, entropy(w).mean(axis=-1))
    assert avg == pytest.approx(float(entropy(w.mean(axis=0)).mean()))
    assert avg > per_head.mean() + 0.5             # averaging different roles blurs a lot
    same = np.stack([w[0]] * 3)                    # identical heads: no blur
    p, a = head_entropies(same)
    assert a == pytest.approx(p.mean())


@given(st.integers(1, MAX_TOKENS), st.integers(1, 8), st.integers(0, 2**32 - 1),
       st.sampled_from([1, 4, 16]))
def test_average_is_never_sharper_than_the_heads(n, heads, seed, d_k):
    """Entropy is concave: H(mean_h p_h) ≥ mean_h H(p_h), row by row and so on average."""
    w = random_heads(n, heads, seed, d_k)
    rows_avg = entropy(average_heads(w))
    rows_heads = entropy(w).mean(axis=0)
    assert np.all(rows_avg >= rows_heads - 1e-12)
    per_head, avg = head_entropies(w)
    assert avg >= per_head.mean() - 1e-12
    assert avg <= math.log(n) + 1e-12


# --- isolation ----------------------------------------------------------------------------

def test_no_qt_is_imported():
    code = ("import sys, engine.head_roles as h; h.role_heads(h.tokenize('The cat. It', 'en')); "
            "h.random_heads(3, 2, 0); bad = [m for m in sys.modules if m.split('.')[0] in "
            "('PySide6', 'PyQt5', 'PyQt6', 'shiboken6', 'pyqtgraph')]; print(bad); sys.exit(bool(bad))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
