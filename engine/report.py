"""Results as plain JSON-ready data: what `python main.py report` prints."""
from __future__ import annotations

from .saturation import METRICS
from .simulation import Results


def _floats(a) -> list[float]:
    return [float(v) for v in a]


def results_to_dict(r: Results) -> dict:
    """A JSON-ready dict of every number the window shows for `r.params`."""
    sm, var, sat, mh = r.softmax, r.variance, r.saturation, r.multihead
    saturation = {"dk": [int(d) for d in sat.dk_grid], "keys": sat.keys, "trials": sat.trials}
    for metric in METRICS:
        for scaled in (False, True):
            q = sat.quartiles(metric, scaled)
            suffix = "scaled" if scaled else "unscaled"
            saturation[f"median_{metric}_{suffix}"] = _floats(q.median)
            saturation[f"q25_{metric}_{suffix}"] = _floats(q.q25)
            saturation[f"q75_{metric}_{suffix}"] = _floats(q.q75)
    single, multi = r.cost_single, r.cost_multi
    return {
        "params": r.params.to_dict(),
        "softmax": {
            "scores": _floats(sm.scores), "divisor": sm.divisor,
            "probs_unscaled": _floats(sm.probs_unscaled), "probs_scaled": _floats(sm.probs_scaled),
            "entropy_unscaled": sm.entropy_unscaled, "entropy_scaled": sm.entropy_scaled,
            "max_prob_unscaled": sm.max_prob_unscaled, "max_prob_scaled": sm.max_prob_scaled,
            "jacobian_norm_unscaled": sm.jacobian_norm_unscaled,
            "jacobian_norm_scaled": sm.jacobian_norm_scaled,
        },
        "variance": {
            "dk": var.dk, "samples": var.samples, "method": var.method,
            "theory_kind": var.theory_kind,
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
            "causal": r.params.causal,
        },
        "cost": {
            "seq_len": multi.seq_len,
            "single_head_flops": single.flops, "multi_head_flops": multi.flops,
            "w_o_flops": multi.total["w_o"],
            "single_head_terms": dict(single.total), "multi_head_terms": dict(multi.total),
            "multi_head_per_head": dict(multi.per_head),
            "single_head_params": single.params, "multi_head_params": multi.params,
        },
    }
