"""A model's heads as JSON-ready data and as a readable text summary (`python main.py heads`)."""
from __future__ import annotations

from .forward import ForwardResult
from .loader import Model
from .roles import HeadRole, summarize_roles

ROLE_FIELDS = ("prev_token_score", "next_token_score", "self_score", "first_token_score",
               "separator_score", "entropy", "broad_score", "induction_score")


def model_to_dict(model: Model) -> dict:
    cfg = model.config
    return {"name": model.name, "folder": str(model.folder), "architecture": cfg.architecture,
            "model_type": cfg.model_type, "layers": cfg.layers, "heads": cfg.heads,
            "d_model": cfg.d_model, "d_k": cfg.d_k, "causal": cfg.causal}


def result_to_dict(model: Model, result: ForwardResult, roles: tuple[HeadRole, ...]) -> dict:
    """model, tokens, token_ids, attentions [layer][head][query][key], roles, score_variance,
    summary."""
    summary = summarize_roles(roles, result)
    return {
        "model": model_to_dict(model),
        "tokens": list(result.tokens),
        "token_ids": list(result.token_ids),
        "attentions": result.attentions.tolist(),
        "roles": [{"layer": r.layer, "head": r.head, **{f: getattr(r, f) for f in ROLE_FIELDS},
                   "role": r.role} for r in roles],
        "score_variance": score_variance_to_dict(result),
        "summary": summary.line(),
        "role_counts": dict(summary.role_counts),
    }


def score_variance_to_dict(result: ForwardResult) -> dict:
    """Var(q·k) and Var(q·k/√d_k) of the sentence's scores (engine.models.score_variance):
    d_k; per_layer [layer] {layer, raw, scaled, d_k, heads_raw} pooled over the layer's heads
    (heads_raw: each head's pooled raw variance); per_head [layer][head] {layer, head, raw,
    scaled}, raw and scaled each {within_row, pooled}."""
    within, pooled = result.head_within_row_variance, result.head_raw_score_variance
    within_s, pooled_s = result.head_scaled_within_row_variance, result.head_scaled_score_variance
    return {
        "d_k": result.d_k,
        "per_layer": [
            {"layer": layer, "raw": float(raw), "scaled": float(scaled), "d_k": result.d_k,
             "heads_raw": [float(v) for v in pooled[layer]]}
            for layer, (raw, scaled) in enumerate(zip(result.raw_score_variance,
                                                      result.scaled_score_variance))],
        "per_head": [
            [{"layer": layer, "head": head,
              "raw": {"within_row": float(within[layer, head]),
                      "pooled": float(pooled[layer, head])},
              "scaled": {"within_row": float(within_s[layer, head]),
                         "pooled": float(pooled_s[layer, head])}}
             for head in range(within.shape[1])]
            for layer in range(within.shape[0])],
    }


def format_text(model: Model, result: ForwardResult, roles: tuple[HeadRole, ...]) -> str:
    """The role table, the summary line and the score variance per layer, as plain text."""
    cfg = model.config
    summary = summarize_roles(roles, result)
    lines = [f"{model.name}: {cfg.model_type}, {cfg.layers} layers × {cfg.heads} heads, "
             f"d_model {cfg.d_model}, d_k {cfg.d_k}{', causal' if cfg.causal else ''}",
             f"tokens ({len(result.tokens)}): {' '.join(result.tokens)}", ""]
    induction = cfg.causal
    header = "layer head  prev  next  self first   sep  entropy broad" + \
             (" induct" if induction else "") + "  role"
    lines.append(header)
    for r in roles:
        row = (f"{r.layer:5d} {r.head:4d} {r.prev_token_score:5.2f} {r.next_token_score:5.2f} "
               f"{r.self_score:5.2f} {r.first_token_score:5.2f} {r.separator_score:5.2f} "
               f"{r.entropy:8.2f} {r.broad_score:5.2f}")
        if induction:
            row += f" {r.induction_score:6.2f}"
        lines.append(f"{row}  {r.role}")
    lines += ["", summary.line() + "; roles: "
              + ", ".join(f"{name} {count}" for name, count in summary.role_counts), "",
              f"score variance per layer (theory for unit-variance q, k: raw = d_k = {cfg.d_k}, "
              f"scaled = 1)", "layer       raw  raw/d_k=scaled"]
    for layer, (raw, scaled) in enumerate(zip(result.raw_score_variance,
                                              result.scaled_score_variance)):
        lines.append(f"{layer:5d} {raw:9.2f} {scaled:15.3f}")
    return "\n".join(lines) + "\n"
