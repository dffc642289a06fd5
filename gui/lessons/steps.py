"""The guided lesson: ten steps through the two ideas, with live numbers.

Each step says which panel it is about, how to set the controls, what its Play
button sweeps, and how to read its numbers from the current Results. Texts are
templates; every number in them is filled from the engine at display time.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from engine import Params, Results
from engine.literature import HEAD_PRUNING
from engine.multihead import divisor_comparison
from engine.presets import MODEL_PRESETS
from engine.softmax import softmax

from gui.common.i18n import tr
from gui.lessons.context import LessonContext
from gui.lessons.real_heads_facts import real_heads_text
from gui.lessons.layers_grid import preset_for
from gui.lessons.training_facts import gradients_run_text, heads_run_text, paper_text, roles_run_text
from gui.common import names
from gui.common.style import format_count, format_number
from gui.state.app_state import DEFAULT_SENTENCES, DEFAULT_TOKEN_MODES


@dataclass(frozen=True)
class LessonStep:
    key: str
    panel: str                                   # objectName of the panel to highlight
    settings: dict                               # Params fields the step sets
    lock_d_model: bool = True
    sweep: tuple = ()                            # successive Params changes for Play
    facts: Callable[[Results], dict] | None = None  # numbers of the simulation Results
    offset_gap: bool = False                     # show the offset and gap sliders
    run_facts: Callable[[LessonContext], dict] | None = None  # numbers of the other studies
    train: str | None = None                     # LESSON_RUNS key of the step's Train button
    tab: str | None = None                       # bottom tab the step brings to the front
    grid: bool = False                           # show the layers × heads picture
    #: The sentence of the Head roles and Real heads tabs at this step, in every language
    #: (None: the default sentence of the language shown, step_heads_input)
    sentence: str | None = None


def _nearest_grid(grid: np.ndarray, dk: int) -> int:
    return int(np.argmin(np.abs(np.log2(grid) - math.log2(dk))))


def _variance_facts(r: Results) -> dict:
    v = r.variance
    return {"dk": v.dk, "s2": format_number(v.sigma**2), "s4": format_number(v.sigma**4), "var": format_number(v.empirical_unscaled), "se": format_number(v.stderr_unscaled),
            "theory": format_number(v.theory_unscaled), "var_scaled": format_number(v.empirical_scaled)}


def _softmax_facts(r: Results) -> dict:
    s = r.softmax
    t = r.params.temperature
    return {"p_ten": format_number(float(softmax(TEN, t).max())),
            "p_hundred": format_number(float(softmax(HUNDRED, t).max())),
            "scores": ", ".join(format_number(float(x)) for x in s.scores), "p_raw": format_number(s.max_prob_unscaled),
            "p_scaled": format_number(s.max_prob_scaled), "h_raw": format_number(s.entropy_unscaled),
            "dk": r.params.dk,
            "source": tr("live q·k at d_k = {dk}").format(dk=r.params.dk) if s.source == "live"
            else tr("typed")}


def _median_with_interval(q, i: int) -> str:
    """A median and its distribution-free 95 % interval: "m (95 %: lo … hi)"."""
    return tr("{m} (95 %: {lo} … {hi})").format(
        m=format_number(float(q.median[i])), lo=format_number(float(q.median_lo[i])),
        hi=format_number(float(q.median_hi[i])))


def _gradient_facts(r: Results) -> dict:
    sat = r.saturation
    i = _nearest_grid(sat.dk_grid, r.params.dk)
    j_raw = sat.quartiles("jacobian_norm", False)
    p_raw = sat.quartiles("max_prob", False)
    # The quoted curve is the unscaled one: w.r.t. the raw q·k its ‖J‖ is divided by T alone.
    j_wrt_qk = sat.jacobian_wrt_raw_scores(False)
    return {"keys": sat.keys, "trials": int(sat.trials_per_dk[i]),
            "j1": _median_with_interval(j_raw, 0), "jdk": _median_with_interval(j_raw, i),
            "grid_dk": int(sat.dk_grid[i]), "p_dk": format_number(float(p_raw.median[i])),
            "t": format_number(sat.temperature), "jqk": format_number(float(j_wrt_qk.median[i]))}


def _fix_facts(r: Results) -> dict:
    sat = r.saturation
    j = sat.quartiles("jacobian_norm", True)
    p = sat.quartiles("max_prob", True).median
    j_raw = sat.quartiles("jacobian_norm", False)
    return {"jlo": format_number(j.median.min()), "jhi": format_number(j.median.max()),
            "jci_lo": format_number(j.median_lo.min()), "jci_hi": format_number(j.median_hi.max()),
            "plo": format_number(p.min()), "phi": format_number(p.max()),
            "jraw_max": _median_with_interval(j_raw, len(sat.dk_grid) - 1),
            "top": int(sat.dk_grid[-1])}


def _split_facts(r: Results) -> dict:
    p = r.params
    g = p.kv_heads_used
    if g == p.heads:
        own = tr("Each head projects X with its own {d} × {dk} blocks of W_Q, W_K and W_V "
                 "into its own Q, K and V ({n} × {dk}), attends, and returns {n} × {dk}.")
    elif g == 1:
        own = tr("Each head projects X with its own {d} × {dk} block of W_Q into its own Q "
                 "({n} × {dk}); all {h} heads share one K and one V (multi-query attention), "
                 "projected from X by one {d} × {dk} block of W_K and one of W_V. Each attends "
                 "and returns {n} × {dk}.")
    else:
        own = tr("Each head projects X with its own {d} × {dk} block of W_Q into its own Q "
                 "({n} × {dk}); K and V come from {g} K/V heads, each shared by {group} query "
                 "heads (grouped-query attention), each projected from X by its own {d} × {dk} "
                 "blocks of W_K and W_V. Each attends and returns {n} × {dk}.")
    return {"d": p.d_model, "h": p.heads, "dk": p.dk, "n": p.tokens,
            "own": own.format(n=p.tokens, d=p.d_model, dk=p.dk, h=p.heads, g=g,
                              group=p.heads // g)}


def _cost_facts(r: Results) -> dict:
    single, multi = r.cost_single, r.cost_multi
    both = ("scores", "weighted_sum")
    return {"h": multi.heads, "qk": format_count(sum(multi.total[t] for t in both)),
            "qk1": format_count(sum(single.total[t] for t in both)),
            "sm": format_count(multi.total["softmax"]), "sm1": format_count(single.total["softmax"]),
            "sm_share": f"{multi.softmax_share:.1%}", "sm1_share": f"{single.softmax_share:.1%}",
            "wo": format_count(multi.total["w_o"]), "share": f"{multi.total['w_o'] / multi.flops:.1%}",
            "no_wo": format_count(r.cost_no_output_projection.flops),
            "total": format_count(multi.flops), "total1": format_count(single.flops),
            "n": multi.seq_len}


#: The models step 9's table lists (one line each: the lesson strip's height follows it).
LAYERS_TABLE = ("transformer-base", "transformer-big", "bert-base", "bert-large", "gpt-2-small",
                "gpt-2-xl", "gpt-3-175b", "llama-2-7b", "llama-2-70b")


def _layers_facts(r: Results) -> dict:
    def kinds(p) -> str:
        parts = [(p.encoder_layers, tr("{k} encoder")), (p.decoder_layers, tr("{k} decoder")),
                 (p.cross_layers, tr("{k} cross"))]
        return " + ".join(text.format(k=k) for k, text in parts if k)

    rows = [tr("{name}: {kinds} = {layers} attention layers × {heads} heads = {total}").format(
        name=p.name, kinds=kinds(p), layers=p.attention_layers, heads=p.heads,
        total=f"{p.attention_heads_total:,}")
        for p in MODEL_PRESETS if p.slug in LAYERS_TABLE]
    return {"table": "<br>".join(rows), "name": preset_for(r.params).name}


def _mistake_facts(r: Results) -> dict:
    mh = r.multihead
    c = divisor_comparison(mh.q, mh.k, mh.computed_heads * mh.computed_dk, r.params.temperature,
                           x=mh.x)
    d, dk = r.params.d_model, r.params.dk
    return {"sdm": format_number(math.sqrt(d)), "sdk": format_number(math.sqrt(dk)),
            "v_bad": format_number(c["score_variance_d_model"]), "v_ok": format_number(c["score_variance_dk"]),
            "ratio": format_number(dk / d), "h_bad": format_number(c["entropy_d_model"]),
            "h_ok": format_number(c["entropy_dk"]), "h_uni": format_number(c["uniform_entropy"]),
            "p_bad": format_number(c["max_prob_d_model"]), "p_ok": format_number(c["max_prob_dk"]),
            "count": c["score_count"], "e_ok": format_number(c["score_variance_expected_dk"]),
            "e_bad": format_number(c["score_variance_expected_d_model"]),
            "state": _divisor_state(r.params).format(sdm=format_number(math.sqrt(d)),
                                                      sdk=format_number(math.sqrt(dk)))}


def _divisor_state(p: Params) -> str:
    """What the multi-head view divides its scores by now (a template for sdm and sdk)."""
    if not p.scale:
        return tr("÷√d_k is off: the multi-head view does not scale its scores at all. Tick it "
                  "and the ÷√d_model toggle to see the mistake.")
    if p.scale_by == "d_model":
        return tr("The ÷√d_model toggle is on: the multi-head view divides by √d_model = {sdm} "
                  "instead of √d_k = {sdk}, and its maps go flat. Switch it off to see the right "
                  "maps.")
    return tr("The ÷√d_model toggle is off: the multi-head view divides by √d_k = {sdk}, as it "
              "should. Switch it on to see the maps go flat with √d_model = {sdm}.")


def _heads_facts(context: LessonContext) -> dict:
    """Entropies of the hand-built heads on screen in the Head roles tab and of their average."""
    h = context.head_roles
    if h is None or h.per_head_entropy is None:
        return {"each": "–", "avg": "–", "uni": "–", "n": 0}
    n = len(h.tokens)
    return {"each": format_number(float(h.per_head_entropy.mean())),
            "avg": format_number(float(h.average_entropy)),
            "uni": format_number(math.log(n)) if n else "–", "n": n}


def pruning_text() -> str:
    """What the pruning studies did (engine.literature.HEAD_PRUNING), without overstating."""
    m, v, c = (HEAD_PRUNING[k] for k in ("michel", "voita", "clark"))
    return tr("{michel} removed {wmt} % (WMT) and {bert} % (BERT) of the heads at test time "
              "without a noticeable loss; {voita} removed {k} of {n} encoder heads while "
              "retraining; {clark} pruned none.").format(
        michel=m["citation"], wmt=m["percent"]["WMT"], bert=m["percent"]["BERT"],
        voita=v["citation"], k=v["pruned"], n=v["heads"], clark=c["citation"])


def _roles_facts(context: LessonContext) -> dict:
    return {**_heads_facts(context), "run": roles_run_text(context), "pruning": pruning_text()}


#: The Real heads step's sentence: MiniLM reads English only (a Japanese sentence becomes
#: [UNK] and ## fragments), so the Japanese lesson reads it too, and says what it means.
REAL_HEADS_SENTENCE = "The animal didn't cross the street because it was too tired."

TEN = (10.0, 1.0, 1.0, 1.0)
HUNDRED = (100.0, 91.0, 91.0, 91.0)
SPLIT = {"dk": 64, "heads": 8, "d_model": 512}
STEPS = (
    LessonStep("grow", "variancePlot", {"dk": 4, "heads": 1, "d_model": 4}, False,
               tuple({"dk": 2**i, "heads": 1, "d_model": 2**i} for i in range(2, 13)), _variance_facts),
    LessonStep("saturate", "softmaxPlot",
               {"dk": 4, "heads": 1, "d_model": 4, "scores": TEN, "live_scores": True}, False,
               tuple({"dk": 4**i, "heads": 1, "d_model": 4**i} for i in range(1, 7)), _softmax_facts,
               offset_gap=True),
    LessonStep("gradients", "saturationPlot", {"dk": 1024, "heads": 1, "d_model": 1024, "scale": False},
               False,
               tuple({"dk": 4**i, "heads": 1, "d_model": 4**i} for i in range(8)), _gradient_facts,
               run_facts=lambda c: {"run": gradients_run_text(c)}, train="gradients"),
    LessonStep("fix", "saturationPlot", {**SPLIT, "scale": True}, True, (), _fix_facts),
    LessonStep("one_head", "headsPanel", SPLIT, True, (), run_facts=_heads_facts),
    LessonStep("split", "multiheadView", {**SPLIT, "tokens": 6}, True,
               tuple({"dk": 512 // h, "heads": h, "d_model": 512} for h in (1, 2, 4, 8, 16)), _split_facts),
    LessonStep("roles", names.TRAINING_PANEL, SPLIT, True, (), run_facts=_roles_facts,
               train="roles"),
    LessonStep("real_heads", names.MODEL_HEADS, SPLIT, True, (),
               run_facts=lambda c: {"run": real_heads_text(c), "sentence": REAL_HEADS_SENTENCE},
               sentence=REAL_HEADS_SENTENCE),
    LessonStep("cost", "costPlot", {**SPLIT, "seq_len": 512}, True,
               tuple({"dk": 512 // h, "heads": h, "d_model": 512} for h in (1, 4, 16, 64, 256, 512)),
               _cost_facts),
    LessonStep("many_heads", names.TRAINING_PANEL, SPLIT, True, (),
               run_facts=lambda c: {"run": heads_run_text(c), "paper": paper_text(c.trained("heads"))},
               train="many_heads"),
    LessonStep("layers", "multiheadView", SPLIT, True, (), _layers_facts, grid=True),
    LessonStep("mistake", "multiheadView", {**SPLIT, "scale": True, "scale_by": "d_model"}, True, (),
               _mistake_facts),
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


def step_heads_input(step: LessonStep, language: str, own) -> dict:
    """The head-roles input the step sets (AppState.update_heads_input fields): the step's
    own sentence, read as English words, else `own` (the student's HeadsInput from before
    the lesson), whose untouched default sentence follows `language`."""
    if step.sentence is not None:
        return {"sentence": step.sentence, "token_mode": "en", "random_heads": False}
    fields = dataclasses.asdict(own)
    if own.sentence.strip() in DEFAULT_SENTENCES.values() and language in DEFAULT_SENTENCES:
        fields.update(sentence=DEFAULT_SENTENCES[language],
                      token_mode=DEFAULT_TOKEN_MODES[language])
    return fields


def step_text(key: str) -> tuple[str, str]:
    """(title, body template) of a step, in the current language."""
    texts = {
        "grow": (tr("Dot products grow with d_k"), tr(
            "q and k have d_k independent components of variance σ² = {s2}. Each product q_i·k_i "
            "has variance σ⁴ = {s4}, so their sum q·k has variance d_k·σ⁴. Now, at d_k = {dk}, the "
            "sampled variance is {var} ± {se}; theory says {theory}. Press Play to sweep d_k from "
            "{sweep_first} to {sweep_last}: the raw histogram's axis widens while the scaled one "
            "keeps variance {var_scaled}.")),
        "saturate": (tr("Softmax saturates"), tr(
            "Scores ({source}: {scores}) give the top key p = {p_raw}; divided by √{dk}, the same "
            "scores give p = {p_scaled}. Press Play or drag d_k: with live scores the raw bars go "
            "one-hot while the ÷√d_k bars keep their shape. Move the offset (typed scores): all "
            "scores shift together and p does not change, because softmax only sees differences: "
            "p = {p_ten} for (10, 1, 1, 1) and p = {p_hundred} for (100, 91, 91, 91). Move the gap: "
            "p heads for 1. What saturates softmax is the spread, and the spread of q·k grows like "
            "√d_k.")),
        "gradients": (tr("Gradients vanish"), tr(
            "The softmax Jacobian J = diag(p) − ppᵀ says how far the output moves when a score "
            "moves; for one-hot p it is zero. Median ‖J‖_F over {trials} random queries with {keys} "
            "keys, unscaled: {j1} at d_k = 1 and {jdk} at d_k = {grid_dk}, where the top key "
            "already takes p = {p_dk}. The ‖J‖ plotted is taken w.r.t. the logits softmax sees "
            "(q·k ÷ T, and ÷√d_k as well on the scaled curve). The numbers here are unscaled, "
            "so w.r.t. the raw q·k the median is ‖J‖/T = {jqk} at d_k = {grid_dk} (T = {t}). "
            "A vanishing J starves "
            "the Q/K path: the gradient to W_Q and W_K flows through it. V still gets gradient "
            "through the weights p.") + "<br>{run}"),
        "fix": (tr("Dividing by √d_k fixes it"), tr(
            "Divided by √d_k, the scores have variance σ⁴ at every width. Across d_k = 1 … {top} "
            "the scaled median ‖J‖_F stays between {jlo} and {jhi} (every 95 % interval within "
            "{jci_lo} … {jci_hi}), and max p between {plo} and {phi}; unscaled, ‖J‖_F falls to "
            "{jraw_max} at d_k = {top}.<br><small>Var(q·k) = d_k·σ⁴ is an assumption at "
            "initialisation: learned weights and LayerNorm move the variance. ÷√d_k is a fixed "
            "temperature, not a normalisation.</small>")),
        "one_head": (tr("One head, one distribution"), tr(
            "A head gives each token one probability distribution over all tokens, itself "
            "included. When several relations matter at once, one head has to blend them. On the "
            "sentence in the panel ({n} tokens) the heads have a mean entropy of {each} nats; "
            "their average has {avg} nats (uniform attention: {uni}). Averaging blurs sharp roles.")),
        "split": (tr("Split, attend, concatenate, project"), tr(
            "No head gets a slice of X: every head reads all of X ({n} × {d}). {own} What is "
            "divided is the width budget: d_model = h·d_k = {h} × {dk} = {d}. The outputs are "
            "concatenated back to {n} × {d}, and W_O, a full {d} × {d} matrix, mixes the heads. "
            "Play steps h through {sweep_values}.")),
        "roles": (tr("Heads specialise"), tr(
            "Nobody assigns roles to heads: trained from random weights, they find them. "
            "{run}<br>In trained Transformers, too, roles emerge rather than being "
            "assigned, are rarely clean, and some heads are redundant: {pruning} "
            "The Head roles tab keeps hand-built heads as an illustration of what such roles "
            "look like (mean entropy {each} nats; uniform: {uni}).")),
        "real_heads": (tr("Real heads"), tr(
            "A pretrained model reads the sentence “{sentence}”. {run}")),
        "cost": (tr("Same matrix products, more softmax"), tr(
            "For n = {n} tokens, QKᵀ and weights·V cost {qk} FLOPs with h = {h} heads, the same as "
            "one full-width head ({qk1}). What grows with h is softmax and masking, h score "
            "matrices of n² entries: {sm} FLOPs against {sm1}, {sm_share} of the layer at h = {h} "
            "(one head: {sm1_share}). The layer costs {total} against {total1}. W_O ({wo} FLOPs, "
            "{share}) is part of both; one head without it costs {no_wo}. Play steps h through "
            "{sweep_values}.")),
        "many_heads": (tr("Many thin heads or one wide one?"), tr(
            "At a fixed d_model, more heads means thinner heads: h heads of d_k = d_model / h "
            "cost the same matrix products as one wide head. Do they learn better? {run}<br>"
            "{paper}")),
        "layers": (tr("Layers × heads"), tr(
            "Each attention layer has its own h heads, and an encoder–decoder model has three "
            "kinds of attention layer: encoder self-attention, decoder self-attention and "
            "cross-attention. A model holds attention layers × heads patterns; the picture "
            "draws one cell per head of {name}, and the multi-head view shows the h maps of "
            "one layer. Pick a model in the controls' model box to redraw it.<br>{table}")),
        "mistake": (tr("A common mistake: √d_model"), tr(
            "{state} Divided by √d_model, each head's scores have variance {v_bad} instead of "
            "{v_ok}. Those are sample variances of h·n² = {count} scores; given these X and "
            "weights their expected values are {e_bad} and {e_ok} (for unit-variance X: "
            "d_k / d_model = {ratio} and 1). Mean entropy {h_bad} nats against {h_ok} (uniform "
            "is {h_uni}), mean max p {p_bad} against {p_ok}.")),
    }
    return texts[key]
