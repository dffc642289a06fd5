"""Illustrative attention heads built by hand from token features, and random heads.

Nothing here is learned. Each "role head" is a rule ("attend to the previous
token") written as a score matrix and passed through softmax, so it has the
same form as a real head, softmax(S) with S (n, n):

    S[i, j] = ATTEND_SCORE   if the rule says query token i attends to key token j
            = 0              otherwise
    weights = softmax(S) row by row            (n, n), every row sums to 1

A row whose rule has no target (the first token for "previous", a token that
is not a pronoun for "pronoun_to_noun", …) attends to itself. With k targets
in a row of n the targets share e^6 k / (e^6 k + n − k) of the mass; for one
target and n ≤ MAX_TOKENS = 40 that is ≥ 0.91. Softmax never gives exactly 0,
so a little mass always leaks to the other tokens; the maps show it.

Shapes: n tokens, h heads; role and random heads are stacked as (h, n, n).

Tokenisation is deliberately simple and documented, not a real tokenizer:

* "en": words (letters/digits, with inner apostrophes) and single punctuation
  marks. English contractions are split into two tokens of the same word:
  "it's" → "it" + "'s", "don't" → "do" + "n't". word_index numbers the words.
* "ja_chars": every non-space character is a token; word_index groups the
  characters by the heuristic of `japanese_words`.
* "ja_words": one token per word of that heuristic.

Sentences: a sentence ends at a full stop, ! ? … 。 ！ ？ (a run of them ends one
sentence; a closing quote or bracket right after it stays with it). Rough on purpose:
"Mr." and "3.5" end a sentence too. Token.sentence_index numbers the sentences.

Pronouns come from the bundled lists resources/words/{en,ja}_pronouns.txt.
Nouns: English – a word in resources/words/en_nouns.txt (or its -s/-es
plural), or a capitalised word that does not start a sentence (a proper noun;
"I" excepted). Japanese – a word made only of kanji and/or katakana that is
not a pronoun. Both rules are rough on purpose: they are enough to show a
"pronoun → nearest preceding noun" head on simple sentences.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .multihead import attention, fan_in_uniform, split_heads
from .softmax import entropy, softmax

WORDS_DIR = Path(__file__).resolve().parents[1] / "resources" / "words"

MODES = ("en", "ja_chars", "ja_words")
#: Longest sentence drawn; more tokens are cut off (see `truncate`) so the maps stay readable.
MAX_TOKENS = 40
#: Score a rule gives to the tokens it attends to; every other score is 0.
ATTEND_SCORE = 6.0

#: The hand-built heads, in display order.
ROLE_HEADS = ("previous", "next", "first", "same_word", "punct_to_all", "pronoun_to_noun")


@dataclass(frozen=True)
class Token:
    """One token and the features the role heads read.

    word_index: index (0, 1, …) of the word the token belongs to; tokens of
    one word share it. `word` is that word's text and `sentence_index` the index of
    its sentence (see the module docstring). The flags describe the whole word.
    """

    text: str
    word_index: int
    is_punct: bool = False
    is_pronoun: bool = False
    is_noun: bool = False
    word: str = ""
    sentence_index: int = 0


# -- word lists -------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def load_words(name: str) -> frozenset[str]:
    """The words of resources/words/<name>.txt: one per line, blank lines and '#' comments skipped.

    Cached: each file is read once per process.
    """
    path = WORDS_DIR / f"{name}.txt"
    words = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.split("#", 1)[0].strip()
        if word:
            words.add(word)
    return frozenset(words)


# -- characters ----------------------------------------------------------------------------

def char_script(ch: str) -> str:
    """'space', 'kanji', 'hiragana', 'katakana', 'latin' (any other letter or digit) or 'punct'.

    Kanji: CJK unified ideographs (incl. extension A and compatibility) and 々 〆.
    Hiragana: U+3041–3096, ゝ ゞ ゟ. Katakana: U+30A1–30FA, ヽ ヾ ヿ, small
    katakana U+31F0–31FF and half-width katakana. The long-vowel mark ー is
    'katakana' here; `japanese_words` lets it continue a hiragana run.
    """
    if ch.isspace():
        return "space"
    o = ord(ch)
    if (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF
            or 0x20000 <= o <= 0x2FFFF or ch in "々〆"):
        return "kanji"
    if 0x3041 <= o <= 0x3096 or 0x309D <= o <= 0x309F:
        return "hiragana"
    if 0x30A1 <= o <= 0x30FA or 0x30FC <= o <= 0x30FF or 0x31F0 <= o <= 0x31FF or 0xFF66 <= o <= 0xFF9F:
        return "katakana"
    if ch.isalnum():
        return "latin"
    return "punct"


# -- Japanese words ---------------------------------------------------------------------

#: Particles split off the front of a hiragana run that follows a kanji, katakana or latin word.
LEADING_PARTICLES = frozenset("はがをにでとのもへや")
#: Particles split off the end of a hiragana run (longest first).
TRAILING_PARTICLES = ("から", "まで", "より", "は", "が", "を", "に", "で", "と", "の", "も", "へ", "や")
#: Hiragana runs that start with a particle kana but are a word (です, でした, できる).
_NOT_LEADING = ("です", "でし", "でき")
#: Words whose last kana looks like a particle but is not one.
_KEEP_WHOLE = frozenset({"こと", "もの", "ひと", "あと", "もと", "そと"})


def _script_runs(text: str) -> list[tuple[str, str]]:
    """(script, run) pairs: maximal runs of one script; spaces dropped; each punctuation mark alone."""
    runs: list[tuple[str, str]] = []
    prev = None
    for ch in text:
        script = char_script(ch)
        if ch == "ー" and prev == "hiragana":
            script = "hiragana"                      # すごーい: the mark continues the run
        if script == "space":
            prev = None
            continue
        if runs and script == prev and script != "punct":
            runs[-1] = (script, runs[-1][1] + ch)
        else:
            runs.append((script, ch))
        prev = script
    return runs


def _split_hiragana(run: str, after: str | None) -> tuple[list[str], str, list[str]]:
    """(leading particles, core, trailing particles) of a hiragana run.

    `after` is the script of the run before it (None at the start or after a
    space). Leading particles are split only after a kanji, katakana or latin
    word (猫|が), unless the run starts with です, でし or でき. Trailing particles are split while the core left over keeps
    ≥ 2 kana (それ|は, but こと stays whole), or ≥ 1 kana when the core will be
    attached to a preceding kanji as its okurigana (彼ら|は). と after small っ
    is kept (ちょっと).
    """
    lead = []
    if after in ("kanji", "katakana", "latin"):
        while run and run[0] in LEADING_PARTICLES and not run.startswith(_NOT_LEADING):
            lead.append(run[0])
            run = run[1:]
    min_core = 1 if (after == "kanji" and not lead) else 2
    trail: list[str] = []
    while run and not any(run.endswith(w) for w in _KEEP_WHOLE):
        particle = next((p for p in TRAILING_PARTICLES if run.endswith(p)), None)
        if particle is None:
            break
        core = run[: -len(particle)]
        if len(core) < (1 if len(particle) > 1 else min_core) or (particle == "と" and core.endswith("っ")):
            break
        trail.insert(0, particle)
        run = core
    return lead, run, trail


def japanese_words(text: str) -> list[str]:
    """Split Japanese text into rough words (no dictionary, no morphology).

    The heuristic, in order:
    1. cut the text into runs of one script: kanji, hiragana, katakana,
       latin/digits; every punctuation mark is a word of its own; spaces split;
    2. in a hiragana run, split off particles (は が を に で と の も へ や,
       and から まで より at the end) as their own words — see `_split_hiragana`;
    3. what is left of a hiragana run right after kanji, with no particle in
       between, is okurigana and joins the kanji word (座 + った → 座った).
    Known failures: all-hiragana text is not split inside a run, particles
    inside a run are missed (見たことがある is one word), and a verb ending that
    starts with a particle kana may be cut (見|に|くい).
    """
    words: list[str] = []
    prev = None
    for script, run in _script_runs(text):
        if script != "hiragana":
            words.append(run)
            prev = script
            continue
        after = prev
        lead, core, trail = _split_hiragana(run, after)
        words.extend(lead)
        if core:
            if after == "kanji" and not lead and words:
                words[-1] += core                    # okurigana
            else:
                words.append(core)
        words.extend(trail)
        prev = script
    return words


def _ja_flags(word: str) -> tuple[bool, bool, bool]:
    """(is_punct, is_pronoun, is_noun) of a Japanese word."""
    scripts = {char_script(c) for c in word}
    is_punct = scripts == {"punct"}
    is_pronoun = word in load_words("ja_pronouns")
    is_noun = (not is_pronoun and not is_punct and scripts <= {"kanji", "katakana"})
    return is_punct, is_pronoun, is_noun


# -- English ---------------------------------------------------------------------------------

_EN_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]|_")
_EN_NT = re.compile(r"(?i)^(.+?)(n['’]t)$")
_EN_CLITIC = re.compile(r"(?i)^(.+?)(['’](?:s|re|ve|ll|d|m))$")
_SENTENCE_END = frozenset(".!?…。！？")
_QUOTES = frozenset("\"'“”‘’«»()[]{}")
#: Closing quotes and brackets: right after a sentence end they still belong to its sentence.
_CLOSERS = frozenset("”’»)]}」』）")


def sentence_indices(words: list[str]) -> list[int]:
    """The sentence index (0, 1, …) of each word: a new sentence starts at the first word
    after a sentence end (. ! ? … 。 ！ ？) that is neither one more end nor a closer."""
    indices, sentence, ended = [], 0, False
    for word in words:
        if ended and word not in _SENTENCE_END and word not in _CLOSERS:
            sentence += 1
            ended = False
        indices.append(sentence)
        ended = ended or word in _SENTENCE_END
    return indices


def _english_words(text: str) -> list[list[str]]:
    """Words, each a list of its tokens (contractions split: it's → it + 's)."""
    words = []
    for chunk in _EN_TOKEN.findall(text):
        m = _EN_NT.match(chunk) or _EN_CLITIC.match(chunk)
        words.append([m.group(1), m.group(2)] if m else [chunk])
    return words


def _is_english_noun(word: str, sentence_initial: bool) -> bool:
    lower = word.lower()
    nouns = load_words("en_nouns")
    if lower in nouns or (lower.endswith("s") and lower[:-1] in nouns) or (
            lower.endswith("es") and lower[:-2] in nouns):
        return True
    return word[:1].isupper() and not sentence_initial and lower != "i"


def _tokenize_english(text: str) -> list[Token]:
    tokens: list[Token] = []
    pronouns = load_words("en_pronouns")
    words = _english_words(text)
    sentences = sentence_indices(["".join(parts) for parts in words])
    last = None            # last token that is not a quote or bracket
    for w, parts in enumerate(words):
        head = parts[0]
        is_punct = not any(c.isalnum() for c in head)
        initial = last is None or last in _SENTENCE_END
        is_pronoun = not is_punct and head.lower() in pronouns
        is_noun = not is_punct and not is_pronoun and _is_english_noun(head, initial)
        for part in parts:
            tokens.append(Token(part, w, is_punct, is_pronoun, is_noun, word="".join(parts),
                                sentence_index=sentences[w]))
        if head not in _QUOTES:
            last = head
    return tokens


# -- public API ------------------------------------------------------------------------------

def tokenize(text: str, mode: str) -> list[Token]:
    """Tokens of `text` in `mode` ∈ MODES (see the module docstring); never truncated."""
    if mode not in MODES:
        raise ValueError(f"unknown token mode {mode!r}; choose one of {', '.join(MODES)}")
    if mode == "en":
        return _tokenize_english(text)
    tokens = []
    words = japanese_words(text)
    for w, (word, sentence) in enumerate(zip(words, sentence_indices(words))):
        flags = _ja_flags(word)
        pieces = word if mode == "ja_chars" else [word]
        tokens.extend(Token(piece, w, *flags, word=word, sentence_index=sentence)
                      for piece in pieces)
    return tokens


def _has_japanese(text: str) -> bool:
    return any(char_script(c) in ("kanji", "hiragana", "katakana") for c in text)


def mode_for_text(text: str, mode: str) -> str:
    """The token mode for `text`: `mode` when it fits the script (a Japanese mode for text
    with kana or kanji, "en" for text without), else "ja_words" or "en". Text with no
    letters keeps `mode`."""
    if mode not in MODES:
        raise ValueError(f"unknown token mode {mode!r}; choose one of {', '.join(MODES)}")
    if _has_japanese(text):
        return "ja_words" if mode == "en" else mode
    if any(char_script(c) == "latin" for c in text):
        return "en"
    return mode


def truncate(tokens: list[Token], limit: int = MAX_TOKENS) -> tuple[list[Token], int]:
    """(the first `limit` tokens, how many were dropped)."""
    return list(tokens[:limit]), max(0, len(tokens) - limit)


def role_targets(tokens: list[Token], role: str) -> np.ndarray:
    """Boolean (n, n): T[i, j] is True where the rule lets query i attend to key j.

    previous: j = i − 1.  next: j = i + 1.  first: j = 0.
    same_word: every token j of i's word (i itself included) and of every repeat of
    that word elsewhere (same letters, case ignored; punctuation is never a repeat).
    punct_to_all: a punctuation token attends to every token of its own sentence
    (Token.sentence_index); others nothing.
    pronoun_to_noun: a pronoun attends to the tokens of the nearest noun word
    before its own word; others nothing.
    Rows left empty are then pointed at the token itself (the diagonal).
    """
    n = len(tokens)
    if n == 0:
        raise ValueError("no tokens: the sentence is empty")
    t = np.zeros((n, n), dtype=bool)
    idx = np.arange(n)
    words = np.array([tok.word_index for tok in tokens])
    if role == "previous":
        t[idx[1:], idx[:-1]] = True
    elif role == "next":
        t[idx[:-1], idx[1:]] = True
    elif role == "first":
        t[:, 0] = True
    elif role == "same_word":
        spelling = np.array(["" if tok.is_punct else (tok.word or tok.text).casefold()
                             for tok in tokens])
        repeat = (spelling[:, None] == spelling[None, :]) & (spelling != "")[:, None]
        t = (words[:, None] == words[None, :]) | repeat
    elif role == "punct_to_all":
        sentences = np.array([tok.sentence_index for tok in tokens])
        punct = np.array([tok.is_punct for tok in tokens])
        t = punct[:, None] & (sentences[:, None] == sentences[None, :])
    elif role == "pronoun_to_noun":
        for i, tok in enumerate(tokens):
            if not tok.is_pronoun:
                continue
            before = [j for j in range(n) if tokens[j].is_noun and words[j] < tok.word_index]
            if before:
                t[i] = words == words[before[-1]]
    else:
        raise ValueError(f"unknown role {role!r}; choose one of {', '.join(ROLE_HEADS)}")
    empty = ~t.any(axis=1)
    t[empty, empty.nonzero()[0]] = True
    return t


def role_weights(tokens: list[Token], role: str) -> np.ndarray:
    """Row-stochastic (n, n) attention weights of one hand-built head.

    weights = softmax(ATTEND_SCORE · role_targets(tokens, role)) along each row.
    """
    return softmax(np.where(role_targets(tokens, role), ATTEND_SCORE, 0.0))


def role_heads(tokens: list[Token]) -> np.ndarray:
    """All hand-built heads, (len(ROLE_HEADS), n, n), in ROLE_HEADS order."""
    return np.stack([role_weights(tokens, role) for role in ROLE_HEADS])


def random_heads(n_tokens: int, heads: int, seed: int, d_k: int = 16) -> np.ndarray:
    """Weights (heads, n, n) of untrained heads: softmax(Q Kᵀ / √d_k) on random data.

    X (MAX_TOKENS or more, d) with d = heads·d_k has i.i.d. N(0, 1) entries; W_Q and
    W_K (d, d) follow the fan-in rule (engine.multihead.fan_in_uniform); head i
    uses columns [i·d_k, (i+1)·d_k). The first n_tokens rows of X are used, so
    each token keeps its embedding when the sentence grows. Same arguments →
    the identical array.
    """
    if n_tokens < 1 or heads < 1 or d_k < 1:
        raise ValueError("random_heads needs n_tokens, heads and d_k ≥ 1")
    rng = np.random.default_rng(seed)
    d = heads * d_k
    w_q, w_k = fan_in_uniform(rng, 2, d, d)
    x = rng.standard_normal((max(n_tokens, MAX_TOKENS), d), dtype=np.float32)[:n_tokens]
    q, k = split_heads(x @ w_q, heads), split_heads(x @ w_k, heads)
    weights, _ = attention(q, k, k, math.sqrt(d_k))
    return weights


def average_heads(weights: np.ndarray) -> np.ndarray:
    """(h, n, n) → (n, n): the mean over heads, still row-stochastic."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 3 or w.shape[0] == 0:
        raise ValueError(f"expected weights of shape (h, n, n) with h ≥ 1, got {w.shape}")
    return w.mean(axis=0)


def head_entropies(weights: np.ndarray) -> tuple[np.ndarray, float]:
    """(per_head (h,), average): mean row entropy in nats of each head and of their average.

    H(row) = −Σ_j p_j ln p_j ∈ [0, ln n]. Entropy is concave, so for every row
    H(mean_h p_h) ≥ mean_h H(p_h) (Jensen): `average` ≥ per_head.mean(), with
    equality only when all heads agree. The gap measures how averaging blurs
    heads that attend to different tokens.
    """
    w = np.asarray(weights, dtype=np.float64)
    per_head = entropy(w).mean(axis=-1)
    return per_head, float(entropy(average_heads(w)).mean())


@dataclass(frozen=True)
class HeadsResult:
    """One head-roles study: tokens (n ≤ MAX_TOKENS), heads (h, n, n), their average (n, n).

    `weights` is None when the sentence has no tokens. `dropped` counts the tokens
    cut off by `truncate`; `per_head_entropy` (h,) and `average_entropy` are mean
    row entropies in nats (see head_entropies).
    """

    sentence: str
    mode: str
    random: bool
    seed: int
    tokens: tuple[Token, ...]
    dropped: int
    weights: np.ndarray | None
    average: np.ndarray | None
    per_head_entropy: np.ndarray | None
    average_entropy: float | None


def heads_study(sentence: str, mode: str, random: bool = False, seed: int = 0) -> HeadsResult:
    """Tokenise `sentence` in `mode` and build the hand-built heads, or len(ROLE_HEADS)
    random heads seeded by `seed`, with their average and entropies (arrays read-only)."""
    tokens, dropped = truncate(tokenize(sentence, mode), MAX_TOKENS)
    if not tokens:
        return HeadsResult(sentence, mode, bool(random), int(seed), (), dropped,
                           None, None, None, None)
    weights = random_heads(len(tokens), len(ROLE_HEADS), seed) if random else role_heads(tokens)
    weights = np.asarray(weights, dtype=np.float64)
    average = average_heads(weights)
    per_head, avg = head_entropies(weights)
    for a in (weights, average, per_head):
        a.flags.writeable = False
    return HeadsResult(sentence, mode, bool(random), int(seed), tuple(tokens), dropped,
                       weights, average, per_head, avg)
