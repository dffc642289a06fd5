"""The Real heads tab's texts, from a ModelHeadsResult: every number is the engine's
(engine.models: summarize_roles, head_roles, the forward pass's score variances)."""
from __future__ import annotations

from engine.models import HeadRole
from engine.models.score_variance import per_head_summary

from gui.common.i18n import tr
from gui.common.names import hand_rule_names, role_names
from gui.realheads.study import HeadSet, ModelHeadsResult
from gui.common.style import format_number


def summary_html(r: ModelHeadsResult) -> str:
    """'26 of 72 heads put more than half their attention on [CLS]', the model's shape and
    the count of each role."""
    s, names = r.summary, role_names()
    counts = " · ".join(f"{names[role]} {count}" for role, count in s.role_counts)
    first = r.forward.tokens[0]
    token = s.first_token if first == s.first_token else tr("the first token (“{t}”)").format(
        t=first)
    summary = tr("{k} of {n} heads put more than half their attention on {token}").format(
        k=s.first_token_heads, n=s.heads, token=token)
    shape = tr("{model}: {layers} layers × {heads} heads, d_model {d}, d_k {dk}").format(
        model=r.model_name, layers=r.layers, heads=r.heads, d=r.d_model, dk=r.d_k)
    return f"<b>{summary}</b><br>{shape} · {counts}{ignored_ids_html(r)}"


def ignored_ids_html(r: ModelHeadsResult) -> str:
    """A line saying which special token ids of the config were ignored (outside the
    vocabulary; ModelConfig.ignored_token_ids), or ""."""
    if not r.ignored_token_ids:
        return ""
    ids = ", ".join(f"{key} {value}" for key, value in r.ignored_token_ids)
    return "<br>" + tr("{ids}: outside the vocabulary 0..{last}, ignored as transformers "
                       "does").format(ids=ids, last=r.vocab_size - 1)


def variance_html(r: ModelHeadsResult, by_rows: bool = False) -> str:
    """Per layer, Var(q·k) against d_k and Var(q·k/√d_k) against 1, as a small table
    (variance_table)."""
    heading = tr("The first idea on real weights")
    if by_rows:
        theory = tr("with unit-variance q and k, Var(q·k) = d_k = {dk} and Var(q·k/√d_k) = 1; "
                    "trained weights and LayerNorm move both, by the factor in the third "
                    "column.").format(dk=r.d_k)
    else:
        theory = tr("with unit-variance q and k, Var(q·k) = d_k = {dk} and Var(q·k/√d_k) = 1; "
                    "trained weights and LayerNorm move both, by the factor in the second "
                    "row.").format(dk=r.d_k)
    return f"<b>{heading}</b>: {theory}{variance_table(r, by_rows)}{variance_finding(r)}"


def variance_table(r: ModelHeadsResult, by_rows: bool = False) -> str:
    """The table of variance_html: a column per layer, or (`by_rows`, for a narrow tab at
    large text, where twelve columns were 1000 px wide) a row per layer."""
    def cell(value) -> str:
        return f"<td align='right'>&nbsp;{format_number(float(value))}&nbsp;</td>"

    raw_name, scaled_name = tr("Var(q·k)"), tr("Var(q·k/√d_k)")
    f = r.forward
    if by_rows:
        rows = "".join(f"<tr><th>&nbsp;L{i}&nbsp;</th>{cell(raw)}{cell(scaled)}</tr>"
                       for i, (raw, scaled) in enumerate(zip(f.raw_score_variance,
                                                             f.scaled_score_variance)))
        return (f"<table cellspacing='0'><tr><th></th><th>&nbsp;{raw_name}&nbsp;</th>"
                f"<th>&nbsp;{scaled_name}&nbsp;</th></tr>{rows}</table>")
    layer_cells = "".join(f"<th>&nbsp;L{i}&nbsp;</th>" for i in range(r.layers))
    return (f"<table cellspacing='0'><tr><th></th>{layer_cells}</tr>"
            f"<tr><td>{raw_name}</td>{''.join(cell(v) for v in f.raw_score_variance)}</tr>"
            f"<tr><td>{scaled_name}</td>{''.join(cell(v) for v in f.scaled_score_variance)}"
            f"</tr></table>")


def variance_finding(r: ModelHeadsResult) -> str:
    """The finding: the range of the pooled Var(q·k/√d_k) over the layers against 1, then
    what the heads show one by one (per_head_finding)."""
    scaled = r.forward.scaled_score_variance
    lo, hi = int(scaled.argmin()), int(scaled.argmax())
    return tr("Here Var(q·k/√d_k) runs from {lo} (L{i}) to {hi} (L{j}) instead of 1: the "
              "trained q and k are not independent unit-variance vectors, so ÷√d_k alone does "
              "not bring the scores to variance 1.").format(
        lo=format_number(float(scaled[lo])), i=lo, hi=format_number(float(scaled[hi])),
        j=hi) + " " + per_head_finding(r)


def per_head_finding(r: ModelHeadsResult) -> str:
    """The per-head distribution the variance plot shows, in numbers: the median head of each
    layer, the range over heads, how many are below 1, and the highest head against its
    layer's median (per_head_fields)."""
    return tr("The table pools every head and every (query, key) pair, so it also counts each "
              "query's constant offset, which softmax ignores. Head by head, within each "
              "query's row (the plot): the median head per layer is {medians}; the heads run "
              "from {lo} (L{ll}·H{lh}) to {hi} (L{hl}·H{hh}), and {k} of {n} are below 1. "
              "L{hl}·H{hh} stands out: {factor} times its layer's median head.").format(
        **per_head_fields(r))


def per_head_fields(r: ModelHeadsResult) -> dict[str, str | int]:
    """The per-head sentence's fields, formatted from
    engine.models.score_variance.per_head_summary of the within-row Var(q·k/√d_k) (L × h
    values): medians ('L0 0.94, L1 3.39, …'), lo / hi with their layer and head (ll, lh /
    hl, hh), k of n heads below 1, and factor = the highest head over its layer's median.
    The Real heads footnote and the lesson's sentence both read these."""
    s = per_head_summary(r.forward.head_scaled_within_row_variance)
    (ll, lh), (hl, hh) = s.lowest_at, s.highest_at
    return {"medians": ", ".join(f"L{i} {format_number(m)}" for i, m in enumerate(s.medians)),
            "lo": format_number(s.lowest), "ll": ll, "lh": lh,
            "hi": format_number(s.highest), "hl": hl, "hh": hh, "k": s.below, "n": s.count,
            "factor": format_number(s.highest_over_median)}


def japanese_note(r: ModelHeadsResult | None) -> str:
    """What an English WordPiece vocabulary (MiniLM's) does with Japanese, and how many
    tokens of this sentence it could not spell."""
    note = tr("MiniLM is English-only. Its tokenizer splits off every kanji: common ones are in "
              "its vocabulary as single characters, the rest become [UNK]. Kana runs are cut "
              "into single-character ##-pieces, and voiced marks are dropped (が → か, で → て).")
    if r is not None and r.forward is not None:
        note += " " + tr("Here {k} of {n} tokens are [UNK].").format(
            k=r.unknown, n=len(r.forward.tokens))
    return note


def head_scores_text(role: HeadRole, heading: str | None = None) -> str:
    """One head's role and every score the role was chosen from; `heading` names a head from
    outside the model (default "Layer ℓ head h is “role”: ")."""
    names = role_names()
    parts = [tr("previous {v}").format(v=format_number(role.prev_token_score)),
             tr("next {v}").format(v=format_number(role.next_token_score)),
             tr("self {v}").format(v=format_number(role.self_score)),
             tr("first {v}").format(v=format_number(role.first_token_score)),
             tr("separator {v}").format(v=format_number(role.separator_score)),
             tr("entropy {v} nats").format(v=format_number(role.entropy)),
             tr("broad {v}").format(v=format_number(role.broad_score))]
    if role.induction_score is not None:
        parts.append(tr("induction {v}").format(v=format_number(role.induction_score)))
    if heading is None:
        heading = tr("Layer {layer} head {head} is “{role}”: ").format(
            layer=role.layer, head=role.head, role=names[role.role])
    return heading + " · ".join(parts)


def compare_heading(heads: HeadSet, layer: int, head: int) -> str:
    """'Trained L1·H2 is “induction”: ' or 'Hand-built head 3 (first token) is “first
    token”: ', the detector's role of a head from outside the model."""
    role = role_names()[heads.role(layer, head).role]
    if heads.kind == "trained":
        return tr("Trained L{layer}·H{head} is “{role}”: ").format(layer=layer, head=head,
                                                                    role=role)
    return tr("Hand-built head {i} ({rule}) is “{role}”: ").format(
        i=head + 1, rule=compare_rule(heads, head), role=role)


def compare_rule(heads: HeadSet, head: int) -> str:
    own = heads.own_roles[head]
    return tr("random head {i}").format(i=head + 1) if own == "random" else \
        hand_rule_names()[own]


def compare_title(heads: HeadSet, layer: int, head: int) -> str:
    """The detail view's title for a head from outside the model."""
    role = role_names()[heads.role(layer, head).role]
    if heads.kind == "trained":
        return tr("trained from scratch · L{layer}·H{head}: {role}").format(
            layer=layer, head=head, role=role)
    return tr("hand-built {i} · {rule}: {role}").format(i=head + 1,
                                                        rule=compare_rule(heads, head), role=role)


def lab_scores_text(heads: HeadSet, layer: int, head: int, lab_names: dict[str, str]) -> str:
    """The training lab's own role and scores of a learned head (on its scoring batch)."""
    index = layer * heads.heads + head
    s, own = heads.own_scores[index], heads.own_roles[index]
    return tr("The training lab, on its scoring batch: “{role}” (previous {p} · induction {i} · "
              "BOS {b} · self {s} · entropy {e} nats)").format(
        role=lab_names.get(own, own), p=format_number(s["previous_token"]),
        i=format_number(s["induction"]), b=format_number(s["bos"]),
        s=format_number(s["self"]), e=format_number(s["entropy"]))
