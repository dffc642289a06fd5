"""The guided lesson: ten steps through the two ideas, with live numbers.

Each step says which panel it is about, how to set the controls, what its Play
button sweeps, and how to read its numbers from the current Results. Texts are
templates; every number in them is filled from the engine at display time.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine import Params, Results
from engine.multihead import divisor_comparison
from engine.presets import MODEL_PRESETS
from engine.softmax import softmax

from .i18n import tr
from .style import format_count, format_number


@dataclass(frozen=True)
class LessonStep:
    key: str
    panel: str                                   # objectName of the panel to highlight
    settings: dict                               # Params fields the step sets
    lock_d_model: bool = True
    sweep: tuple = ()                            # successive Params changes for Play
    facts: Callable[[Results, object], dict] = field(default=lambda r, heads: {})
    offset_gap: bool = False                     # show the offset and gap sliders


def _nearest_grid(grid: np.ndarray, dk: int) -> int:
    return int(np.argmin(np.abs(np.log2(grid) - math.log2(dk))))


def _variance_facts(r: Results, heads_view=None) -> dict:
    v = r.variance
    return {"dk": v.dk, "var": format_number(v.empirical_unscaled), "se": format_number(v.stderr_unscaled),
            "theory": format_number(v.theory_unscaled), "var_scaled": format_number(v.empirical_scaled)}


def _softmax_facts(r: Results, heads_view=None) -> dict:
    s = r.softmax
    t = r.params.temperature
    return {"p_ten": format_number(float(softmax(TEN, t).max())),
            "p_hundred": format_number(float(softmax(HUNDRED, t).max())),
            "scores": ", ".join(f"{x:g}" for x in s.scores), "p_raw": format_number(s.max_prob_unscaled),
            "p_scaled": format_number(s.max_prob_scaled), "h_raw": format_number(s.entropy_unscaled),
            "dk": r.params.dk}


def _gradient_facts(r: Results, heads_view=None) -> dict:
    sat = r.saturation
    i = _nearest_grid(sat.dk_grid, r.params.dk)
    j_raw = sat.quartiles("jacobian_norm", False).median
    p_raw = sat.quartiles("max_prob", False).median
    return {"keys": sat.keys, "j1": format_number(j_raw[0]), "jdk": format_number(j_raw[i]),
            "grid_dk": int(sat.dk_grid[i]), "p_dk": format_number(p_raw[i])}


def _fix_facts(r: Results, heads_view=None) -> dict:
    sat = r.saturation
    j = sat.quartiles("jacobian_norm", True).median
    p = sat.quartiles("max_prob", True).median
    j_raw = sat.quartiles("jacobian_norm", False).median
    return {"jlo": format_number(j.min()), "jhi": format_number(j.max()),
            "plo": format_number(p.min()), "phi": format_number(p.max()),
            "jraw_max": format_number(j_raw[-1]), "top": int(sat.dk_grid[-1])}


def _split_facts(r: Results, heads_view=None) -> dict:
    p = r.params
    return {"d": p.d_model, "h": p.heads, "dk": p.dk, "n": p.tokens}


def _cost_facts(r: Results, heads_view=None) -> dict:
    single, multi = r.cost_single, r.cost_multi
    both = ("scores", "weighted_sum")
    return {"h": multi.heads, "qk": format_count(sum(multi.total[t] for t in both)),
            "qk1": format_count(sum(single.total[t] for t in both)),
            "sm": format_count(multi.total["softmax"]), "sm1": format_count(single.total["softmax"]),
            "wo": format_count(multi.total["w_o"]), "share": f"{multi.total['w_o'] / multi.flops:.1%}",
            "n": multi.seq_len}


#: The models step 9's table lists (one line each: the lesson strip's height follows it).
LAYERS_TABLE = ("transformer-base", "transformer-big", "bert-base", "bert-large", "gpt-2-small",
                "gpt-2-xl", "gpt-3-175b", "llama-2-7b", "llama-2-70b")


def _layers_facts(r: Results, heads_view=None) -> dict:
    rows = [tr("{name}: {layers} layers × {heads} heads = {total}").format(
        name=p.name, layers=p.attention_layers, heads=p.heads, total=f"{p.attention_heads_total:,}")
        for p in MODEL_PRESETS if p.slug in LAYERS_TABLE]
    return {"table": "<br>".join(rows)}


def _mistake_facts(r: Results, heads_view=None) -> dict:
    mh = r.multihead
    c = divisor_comparison(mh.q, mh.k, mh.computed_heads * mh.computed_dk, r.params.temperature)
    d, dk = r.params.d_model, r.params.dk
    return {"sdm": format_number(math.sqrt(d)), "sdk": format_number(math.sqrt(dk)),
            "v_bad": format_number(c["score_variance_d_model"]), "v_ok": format_number(c["score_variance_dk"]),
            "ratio": format_number(dk / d), "h_bad": format_number(c["entropy_d_model"]),
            "h_ok": format_number(c["entropy_dk"]), "h_uni": format_number(c["uniform_entropy"]),
            "p_bad": format_number(c["max_prob_d_model"]), "p_ok": format_number(c["max_prob_dk"])}


def _heads_facts(r: Results, heads_view=None) -> dict:
    """Entropies of the head-roles panel's current heads and of their average."""
    if heads_view is None or heads_view.entropies is None:
        return {"each": "–", "avg": "–", "uni": "–", "n": 0}
    per_head, average = heads_view.entropies
    n = len(heads_view.tokens)
    return {"each": format_number(float(per_head.mean())), "avg": format_number(average),
            "uni": format_number(math.log(n)) if n else "–", "n": n}


TEN = (10.0, 1.0, 1.0, 1.0)
HUNDRED = (100.0, 91.0, 91.0, 91.0)
SPLIT = {"dk": 64, "heads": 8, "d_model": 512}
STEPS = (
    LessonStep("grow", "variancePlot", {"dk": 4, "heads": 1, "d_model": 4}, False,
               tuple({"dk": 2**i, "heads": 1, "d_model": 2**i} for i in range(2, 13)), _variance_facts),
    LessonStep("saturate", "softmaxPlot", {**SPLIT, "scores": TEN}, True,
               tuple({"scores": (float(g), 0.0, 0.0, 0.0)} for g in range(0, 21, 2)), _softmax_facts,
               offset_gap=True),
    LessonStep("gradients", "saturationPlot", {"dk": 1024, "heads": 1, "d_model": 1024, "scale": False},
               False,
               tuple({"dk": 4**i, "heads": 1, "d_model": 4**i} for i in range(8)), _gradient_facts),
    LessonStep("fix", "saturationPlot", {**SPLIT, "scale": True}, True, (), _fix_facts),
    LessonStep("one_head", "headsPanel", SPLIT, True, (), _heads_facts),
    LessonStep("split", "multiheadView", {**SPLIT, "tokens": 6}, True,
               tuple({"dk": 512 // h, "heads": h, "d_model": 512} for h in (1, 2, 4, 8, 16)), _split_facts),
    LessonStep("roles", "headsPanel", SPLIT, True, (), _heads_facts),
    LessonStep("cost", "costPlot", {**SPLIT, "seq_len": 512}, True,
               tuple({"dk": 512 // h, "heads": h, "d_model": 512} for h in (1, 2, 4, 8, 16, 32, 64)),
               _cost_facts),
    LessonStep("layers", "costPlot", {"dk": 64, "heads": 12, "d_model": 768}, True, (), _layers_facts),
    LessonStep("mistake", "multiheadView", {**SPLIT, "scale": True}, True, (), _mistake_facts),
)


def sweep_facts(step: LessonStep) -> dict:
    """The values Play walks through, from the step's own sweep (h if it moves, else d_k)."""
    if not step.sweep:
        return {}
    moving = [k for k in ("heads", "dk") if len({change.get(k) for change in step.sweep}) > 1]
    if not moving:
        return {}
    values = [change[moving[0]] for change in step.sweep]
    return {"sweep_first": values[0], "sweep_last": values[-1],
            "sweep_values": ", ".join(map(str, values))}


def step_params(step: LessonStep, current: Params) -> Params:
    """The step's settings on top of the defaults, keeping the user's seed."""
    import dataclasses

    return dataclasses.replace(Params(seed=current.seed), **step.settings)


def step_text(key: str) -> tuple[str, str]:
    """(title, body template) of a step, in the current language."""
    texts = {
        "grow": (tr("Dot products grow with d_k"), tr(
            "q and k have d_k independent components of variance 1. Each product q_i·k_i has "
            "variance 1, so their sum q·k has variance d_k. Now, at d_k = {dk}, the sampled variance "
            "is {var} ± {se}; theory says {theory}. Press Play to sweep d_k from {sweep_first} to {sweep_last}: the raw "
            "histogram's axis widens while the scaled one keeps variance {var_scaled}.")),
        "saturate": (tr("Softmax saturates"), tr(
            "Scores ({scores}) give the top key p = {p_raw}. Move the offset: all scores shift "
            "together and p does not change, because softmax only sees differences. "
            "Softmax gives the top key p = {p_ten} for (10, 1, 1, 1) and p = {p_hundred} for "
            "(100, 91, 91, 91): the same. Move the gap: p heads "
            "for 1. What saturates softmax is the spread, and the spread of q·k grows like √d_k. "
            "Divided by √{dk}, the same scores give p = {p_scaled}.")),
        "gradients": (tr("Gradients vanish"), tr(
            "The softmax Jacobian J = diag(p) − ppᵀ says how far the output moves when a score "
            "moves; for one-hot p it is zero. Median ‖J‖_F over random queries with {keys} keys, "
            "unscaled: {j1} at d_k = 1 and {jdk} at d_k = {grid_dk}, where the top key already takes "
            "p = {p_dk}. A vanishing Jacobian means a vanishing training signal.")),
        "fix": (tr("Dividing by √d_k fixes it"), tr(
            "Divided by √d_k, the scores have variance 1 at every width. Across d_k = 1 … {top} the "
            "scaled median ‖J‖_F stays between {jlo} and {jhi}, and max p between {plo} and {phi}; "
            "unscaled, ‖J‖_F falls to {jraw_max} at d_k = {top}.")),
        "one_head": (tr("One head, one distribution"), tr(
            "A head gives each token one probability distribution over the others. When several "
            "relations matter at once, one head has to blend them. On the sentence in the panel "
            "({n} tokens) the heads have a mean entropy of {each} nats; their average has {avg} "
            "nats (uniform attention: {uni}). Averaging blurs sharp roles.")),
        "split": (tr("Split, attend, concatenate, project"), tr(
            "d_model = {d} is split into h = {h} heads of d_k = {dk}. Each head makes its own Q, K "
            "and V ({n} × {dk}), attends, and returns {n} × {dk}. The outputs are concatenated back "
            "to {n} × {d}, and W_O, a full {d} × {d} matrix, mixes the heads. Play steps h through "
            "{sweep_values}.")),
        "roles": (tr("Heads specialise"), tr(
            "Trained heads often take on roles: one looks at the previous token, another links a "
            "pronoun to its noun. The heads shown are built by hand from simple rules to show what "
            "such roles look like; they are not learned. Switch on random heads to compare with "
            "untrained, seeded attention. The heads shown now have a mean entropy of {each} nats "
            "(uniform: {uni}).")),
        "cost": (tr("The cost stays the same"), tr(
            "For n = {n} tokens, QKᵀ and weights·V cost {qk} FLOPs with h = {h} heads, the same as "
            "one full-width head ({qk1}). Softmax grows with h ({sm} against {sm1}) but stays "
            "small. W_O adds {wo} FLOPs, {share} of the layer.")),
        "layers": (tr("Layers × heads"), tr(
            "Each layer has its own heads, so a model holds layers × heads attention patterns:"
            "<br>{table}")),
        "mistake": (tr("A common mistake: √d_model"), tr(
            "Dividing by √d_model = {sdm} instead of √d_k = {sdk} leaves each head's scores with "
            "variance {v_bad} instead of {v_ok} (about d_k / d_model = {ratio}). Attention goes flat: "
            "mean entropy {h_bad} nats against {h_ok} (uniform is {h_uni}), mean max p {p_bad} "
            "against {p_ok}.")),
    }
    return texts[key]
