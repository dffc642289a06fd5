"""The multi-head diagram's label texts (no widgets): matrix names and shapes, row captions,
the "+k heads not drawn" note and the notes under the diagram, and their shorter variants."""
from __future__ import annotations

from gui.common.i18n import tr
from gui.panels.multihead_layout import MATRICES  # noqa: F401 (the view's names)


def not_drawn_text(k: int) -> str:
    """The note for `k` ≥ 1 heads without a map."""
    return tr("+1 head not drawn") if k == 1 else tr("+{k} heads not drawn").format(k=k)


def diagram_texts(results, max_drawn: int) -> dict:
    """Every label's text for `results`: matrix names over their shapes (two lines),
    the operators, the row captions, "+k heads not drawn" (the heads beyond `max_drawn`)
    and the notes (a list of lines, wrapped by the view)."""
    mh, p = results.multihead, results.params
    n, d, h, dk, g = mh.x.shape[0], mh.d_model, mh.heads, mh.dk, mh.kv_heads
    kd = g * dk
    shape = "{0} × {1}".format
    if not p.scale:
        scores = "softmax(Qⁱ·Kⁱᵀ)"
    else:
        scores = "softmax(Qⁱ·Kⁱᵀ/√{v})".format(v=round(mh.divisor ** 2))
    drawn = min(mh.computed_heads, max_drawn)
    if g == h:
        notes = [tr("each head reads all of X through its own {d} × {dk} blocks "
                    "(d_model × d_k) of W_Q, W_K, W_V").format(d=d, dk=dk)]
    else:   # K and V blocks belong to the K/V heads, not to one query head
        notes = [tr("each head reads all of X through its own {d} × {dk} block "
                    "(d_model × d_k) of W_Q, and its K/V head's blocks of W_K, W_V"
                    ).format(d=d, dk=dk)]
    if g == 1 and h > 1:
        notes.append(tr("MQA: one K/V head shared by all {h} query heads").format(h=h))
    elif g < h:
        notes.append(tr("GQA: {g} K/V heads, each shared by {s} query heads")
                     .format(g=g, s=h // g))
    if not p.scale:
        scale = tr("scores not scaled")
    elif getattr(p, "scale_by", "d_k") == "d_model":
        scale = tr("scores ÷ √d_model = {v}: the √d_model mistake flattens every map"
                   ).format(v=f"{mh.divisor:.3g}")
    else:
        scale = tr("scores ÷ √d_k = {v}").format(v=f"{mh.divisor:.3g}")
    if p.causal:
        scale += " · " + tr("causal mask")
    notes.append(scale)
    if mh.reduced:
        notes.append(tr("matrices drawn at reduced width {w} ({hc} × {dc}); shapes and costs are exact")
                     .format(w=mh.computed_heads * mh.computed_dk, hc=mh.computed_heads,
                             dc=mh.computed_dk))
    return {
        "x": "X\n" + shape(n, d), "w_q": "W_Q\n" + shape(d, d), "w_k": "W_K\n" + shape(d, kd),
        "w_v": "W_V\n" + shape(d, kd), "q": "Q\n" + shape(n, d), "k": "K\n" + shape(n, kd),
        "v": "V\n" + shape(n, kd), "dot": "·", "eq": "=", "dot2": "·", "eq2": "=",
        "maps": scores, "outs": "Aⁱ·Vⁱ  " + shape(n, dk),
        "concat": tr("concat") + "\n" + shape(n, d), "w_o": "W_O\n" + shape(d, d),
        "output": tr("output") + "\n" + shape(n, d),
        "more": not_drawn_text(h - drawn) if h > drawn else "",
        "note": notes,
    }


def wrap_lines(text: str, width: float, width_of) -> str:
    """Greedy line breaking at spaces into lines no wider than `width` as `width_of(line)`
    measures them; inside a word between characters."""
    lines: list = []
    for word in text.split(" "):
        if lines and width_of(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
            continue
        lines.append("")
        for char in word:     # a word wider than the view (Japanese has no spaces)
            if lines[-1] and width_of(lines[-1] + char) > width:
                lines.append("")
            lines[-1] += char
    return "\n".join(lines)


def text_variant(texts: dict, which: int) -> dict:
    """The texts at one of three heights: "name\nshape", "name  shape" on one line,
    or names only, the outputs' caption without its shape too (the readout has the
    shapes)."""
    if which == 0:
        return texts
    if which == 1:
        return {k: t.replace("\n", "  ") if k in MATRICES else t for k, t in texts.items()}
    return {k: t.split("\n")[0] if k in MATRICES else t.split("  ")[0] if k == "outs" else t
            for k, t in texts.items()}
