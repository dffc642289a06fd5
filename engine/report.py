"""Results as plain JSON-ready data: what `python main.py report` prints."""
from __future__ import annotations

from .cost import PRECISION_BITS
from .presets import ModelPreset
from .saturation import METRICS
from .simulation import Results


def _floats(a) -> list[float]:
    return [float(v) for v in a]


def _pmf(pmf) -> dict | None:
    if pmf is None:
        return None
    return {"x": _floats(pmf.x), "prob": _floats(pmf.prob), "spacing": pmf.spacing}


def model_to_dict(m: ModelPreset) -> dict:
    return {"name": m.name, "slug": m.slug, "source": m.source, "d_model": m.d_model,
            "heads": m.heads, "d_k": m.dk, "kv_heads": m.kv_heads,
            "encoder_layers": m.encoder_layers, "decoder_layers": m.decoder_layers,
            "cross_layers": m.cross_layers, "attention_layers": m.attention_layers,
            "attention_heads_total": m.attention_heads_total, "cached_layers": m.cached_layers}


def results_to_dict(r: Results, model: ModelPreset | None = None) -> dict:
    """A JSON-ready dict of every number the window shows for `r.params`; with `model`, a
    "model" section describes the preset the shape came from."""
    sm, var, sat, mh = r.softmax, r.variance, r.saturation, r.multihead
    saturation = {"dk": [int(d) for d in sat.dk_grid], "keys": sat.keys, "trials": sat.trials,
                  "trials_per_dk": [int(t) for t in sat.trials_per_dk]}
    for metric in METRICS:
        for scaled in (False, True):
            q = sat.quartiles(metric, scaled)
            suffix = "scaled" if scaled else "unscaled"
            saturation[f"median_{metric}_{suffix}"] = _floats(q.median)
            saturation[f"q25_{metric}_{suffix}"] = _floats(q.q25)
            saturation[f"q75_{metric}_{suffix}"] = _floats(q.q75)
            saturation[f"median_lo_{metric}_{suffix}"] = _floats(q.median_lo)
            saturation[f"median_hi_{metric}_{suffix}"] = _floats(q.median_hi)
    for scaled, suffix in ((False, "unscaled"), (True, "scaled")):
        saturation[f"median_jacobian_wrt_raw_scores_{suffix}"] = _floats(
            sat.jacobian_wrt_raw_scores(scaled).median)
    single, multi, bare, mem = r.cost_single, r.cost_multi, r.cost_no_output_projection, r.memory
    data = {
        "params": r.params.to_dict(),
        "softmax": {
            "scores_source": sm.source, "live_method": sm.live_method,
            "scores": _floats(sm.scores), "divisor": sm.divisor,
            "probs_unscaled": _floats(sm.probs_unscaled), "probs_scaled": _floats(sm.probs_scaled),
            "entropy_unscaled": sm.entropy_unscaled, "entropy_scaled": sm.entropy_scaled,
            "max_prob_unscaled": sm.max_prob_unscaled, "max_prob_scaled": sm.max_prob_scaled,
            "jacobian_norm_unscaled": sm.jacobian_norm_unscaled,
            "jacobian_norm_scaled": sm.jacobian_norm_scaled,
            "jacobian_norm_raw_unscaled": sm.jacobian_norm_raw_unscaled,
            "jacobian_norm_raw_scaled": sm.jacobian_norm_raw_scaled,
        },
        "variance": {
            "dk": var.dk, "sigma": var.sigma, "samples": var.samples, "method": var.method,
            "theory_kind": var.theory_kind, "theory_bounded": var.theory_bounded,
            "pmf_unscaled": _pmf(var.pmf_unscaled), "pmf_scaled": _pmf(var.pmf_scaled),
            "theory_unscaled": var.theory_unscaled, "empirical_unscaled": var.empirical_unscaled,
            "stderr_unscaled": var.stderr_unscaled,
            "theory_scaled": var.theory_scaled, "empirical_scaled": var.empirical_scaled,
            "stderr_scaled": var.stderr_scaled,
        },
        "saturation": saturation,
        "multihead": {
            "d_model": mh.d_model, "heads": mh.heads, "d_k": mh.dk, "tokens": mh.x.shape[0],
            "output_shape": list(mh.output_shape), "reduced": mh.reduced,
            "computed_heads": mh.computed_heads, "computed_d_k": mh.computed_dk,
            "kv_heads": mh.kv_heads, "computed_kv_heads": mh.computed_kv_heads,
            "divisor": mh.divisor, "scale_by": r.params.scale_by,
            "causal": r.params.causal,
        },
        "cost": {
            "seq_len": multi.seq_len,
            "single_head_flops": single.flops, "multi_head_flops": multi.flops,
            "w_o_flops": multi.total["w_o"],
            "single_head_terms": dict(single.total), "multi_head_terms": dict(multi.total),
            "multi_head_per_head": dict(multi.per_head),
            "single_head_params": single.params, "multi_head_params": multi.params,
            "no_output_projection_flops": bare.flops,
            "no_output_projection_terms": dict(bare.total),
            "no_output_projection_params": bare.params,
            "softmax_flops_over_single_head": multi.total["softmax"] - single.total["softmax"],
            "softmax_share_single_head": single.softmax_share,
            "softmax_share_multi_head": multi.softmax_share,
            "kv_heads": multi.kv_heads,
            "attention_params_per_layer": multi.params,
            "cached_layers": mem.layers,
            "kv_cache_bytes_per_token": mem.cache_per_token[16],
            "kv_cache_bytes_at_seq_len": mem.cache_at_context[16],
            "attention_score_bytes": mem.scores[16],
            "bytes_by_bits": {str(b): {"kv_cache_per_token": mem.cache_per_token[b],
                                       "kv_cache_at_seq_len": mem.cache_at_context[b],
                                       "attention_scores": mem.scores[b]}
                              for b in PRECISION_BITS},
        },
    }
    if model is not None:
        data["model"] = model_to_dict(model)
    return data
