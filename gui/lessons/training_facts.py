"""Lesson facts from the training lab's runs (engine.training results).

Each `*_run_text(context)` gives the sentence a step shows about its run: before a run
exists, what pressing Train will do; while it trains, that it is training; after, what
the run showed, every number read from the result. The runs the lesson starts:

    LESSON_RUNS[step key] = (experiment, options for TrainingTab.start)
"""
from __future__ import annotations


from gui.common.i18n import tr
from gui.lessons.context import LessonContext
from gui.common.style import format_number

#: d_k of the lesson's scaling run: wide enough that unscaled scores saturate softmax.
LESSON_DK = 256
LESSON_RUNS = {
    "gradients": ("scaling", {"tasks": "averaging,lookup", "d_ks": str(LESSON_DK),
                              "scales": "true,false"}),
    "roles": ("roles", {}),
    "many_heads": ("heads", {}),
}


def lesson_training(key: str):
    """AppState.training for LESSON_RUNS[key]: the Training lab shows the experiment (and
    options) a step's ▶ Train will run before it runs."""
    from gui.state.app_state import TrainingSettings
    from gui.training.runner import config_from_options, options_from_config

    experiment, options = LESSON_RUNS[key]
    return TrainingSettings(experiment,
                            options_from_config(config_from_options(experiment, options)))


def role_thresholds() -> dict:
    """engine.training's role thresholds (engine.training is imported when a text needs it,
    not at the window's start)."""
    from engine.training.roles_scoring import ROLE_THRESHOLDS

    return ROLE_THRESHOLDS


def percent(value: float) -> str:
    return f"{value:.0%}"


def _training_now(context: LessonContext, experiment: str) -> str | None:
    if context.running == experiment:
        return tr("Training now, in the Training tab; this text fills in with what the run "
                  "shows when it ends.")
    return None


def _summary_row(rows, task: str, d_k: int, scaled: bool):
    for row in rows:
        if (row["task"], row["d_k"], row["scaled"]) == (task, d_k, scaled):
            return row
    return None


def _step_to_95(row, steps: int) -> str:
    """Median first step at which the seeds that reached 95 % did, over those seeds."""
    if row["median_step_to_95"] is None:
        return tr("not reached in {n}").format(n=steps)
    return str(int(row["median_step_to_95"]))


def scaling_facts(result) -> dict | None:
    """Numbers of the lesson's scaling run: averaging and lookup, scaled vs unscaled, at
    LESSON_DK (or the widest d_k the run has). None if the run lacks one of the four."""
    c = result.config
    d_k = LESSON_DK if LESSON_DK in c.d_ks else max(c.d_ks)
    rows = result.summary()
    cells = {(task, scaled): _summary_row(rows, task, d_k, scaled)
             for task in ("averaging", "lookup") for scaled in (True, False)}
    if any(row is None for row in cells.values()):
        return None

    def final(task, scaled, metric):
        return float(result.band(task, d_k, scaled, metric).mean[-1])

    avg_s, avg_u = cells["averaging", True], cells["averaging", False]
    look_s, look_u = cells["lookup", True], cells["lookup", False]
    return {
        "d_k": d_k, "seeds": c.seeds, "steps": c.steps,
        "acc_s": avg_s["final_accuracy"], "acc_u": avg_u["final_accuracy"],
        "copy": result.copy_baseline,
        "max_s": avg_s["final_max_attention"], "max_u": avg_u["final_max_attention"],
        "ent_s": final("averaging", True, "attention_entropy"),
        "ent_u": final("averaging", False, "attention_entropy"),
        "g_s": avg_s["median_grad_norm_wq"], "g_u": avg_u["median_grad_norm_wq"],
        "look_s": look_s["final_accuracy"], "look_u": look_u["final_accuracy"],
        "reach_s": look_s["seeds_reaching_95"], "reach_u": look_u["seeds_reaching_95"],
        "to95_s": _step_to_95(look_s, c.steps), "to95_u": _step_to_95(look_u, c.steps),
    }


def gradients_run_text(context: LessonContext) -> str:
    busy = _training_now(context, "scaling")
    result = context.trained("scaling")
    f = scaling_facts(result) if result is not None else None
    if f is None:
        return busy or tr(
            "Press Train to test this on a real model: one head is trained at d_k = {dk}, "
            "scaled and unscaled, from the same start, on an averaging task (count the "
            "majority colour of 9 tokens) and on a lookup task (find one of 8 keys). The "
            "run takes a few seconds and this text then says what it showed.").format(
            dk=LESSON_DK)
    text = tr(
        "<b>Trained</b> ({seeds} seeds × {steps} steps, d_k = {dk}): on the averaging task "
        "the scaled head reaches accuracy {acc_s}, the unscaled one {acc_u} (copying one "
        "random token gives {copy}). Unscaled, the top attention weight is {max_u} against "
        "{max_s}, the attention entropy {ent_u} against {ent_s} nats, and the median |∇W_Q| "
        "over the run (one batch per logged step) {g_u} against {g_s}. On the lookup task the "
        "unscaled head reaches {look_u} (scaled {look_s}); {reach_u} of {seeds} unscaled "
        "seeds and {reach_s} of {seeds} scaled seeds reach 95 % (median step: unscaled "
        "{to95_u}, scaled {to95_s}).").format(
        seeds=f["seeds"], steps=f["steps"], dk=f["d_k"], acc_s=percent(f["acc_s"]),
        acc_u=percent(f["acc_u"]), copy=percent(f["copy"]), max_u=format_number(f["max_u"]),
        max_s=format_number(f["max_s"]), ent_u=format_number(f["ent_u"]),
        ent_s=format_number(f["ent_s"]), g_u=format_number(f["g_u"]),
        g_s=format_number(f["g_s"]), look_u=percent(f["look_u"]), look_s=percent(f["look_s"]),
        reach_u=f["reach_u"], reach_s=f["reach_s"], to95_u=f["to95_u"], to95_s=f["to95_s"])
    gap_avg, gap_look = f["acc_s"] - f["acc_u"], f["look_s"] - f["look_u"]
    if gap_avg > gap_look + 0.02:
        verdict = tr("In this run ÷√d_k mattered more on the averaging task, where the head "
                     "must spread its attention, than on the lookup task.")
    elif abs(gap_avg) <= 0.02 and abs(gap_look) <= 0.02:
        verdict = tr("In this run ÷√d_k made little difference on either task.")
    else:
        verdict = tr("In this run the lookup task lost more without ÷√d_k than the "
                     "averaging task.")
    adam = tr("The model is trained with Adam, which divides each step by a running size of "
              "its gradient, so the size of |∇W_Q| is not the whole story.")
    return f"{text} {verdict} {adam}"


# -- roles ----------------------------------------------------------------------------
def role_label(role: str) -> str:
    from gui.panels.training_plots import role_names

    return role_names().get(role, role)


def roles_facts(result) -> dict:
    """Per role: the heads (layer, head, score the role is named from), strongest first."""
    by_role: dict[str, list] = {}
    for head in result.heads:
        score = role_thresholds().get(head.role, (None,))[0]
        value = float(head.scores[score]) if score is not None else None
        by_role.setdefault(head.role, []).append((head.layer, head.head, value))
    for heads in by_role.values():
        heads.sort(key=lambda h: -(h[2] or 0.0))
    return {"by_role": by_role, "heads": len(result.heads), "layers": result.config.layers,
            "steps": result.config.steps, "accuracy": result.run.final_accuracy,
            "mixed": len(by_role.get("mixed", ()))}


def roles_run_text(context: LessonContext) -> str:
    busy = _training_now(context, "roles")
    result = context.trained("roles")
    if result is None:
        return busy or tr(
            "Press Train to watch roles appear: a 2-layer model with 4 heads a layer learns "
            "to continue a repeated random sequence, from random weights. The Training tab "
            "then shows its learned heads, each named from its scores.")
    f = roles_facts(result)
    parts = []
    for role, heads in f["by_role"].items():
        if role == "mixed":
            continue
        listed = ", ".join(f"L{layer} H{head} {format_number(score)}" for layer, head, score in heads)
        parts.append(tr("{n} × {role} ({heads})").format(n=len(heads), role=role_label(role),
                                                          heads=listed))
    roles = "; ".join(parts) if parts else tr("no head reached a role's threshold")
    text = tr("<b>Trained</b> ({steps} steps, accuracy {acc}), the {n} heads of {layers} "
              "layers took these roles by themselves: {roles}.").format(
        steps=f["steps"], acc=percent(f["accuracy"]), n=f["heads"], layers=f["layers"],
        roles=roles)
    if f["mixed"]:
        text += " " + tr("{k} of {n} heads have no clean role (mixed: no score reaches its "
                         "threshold).").format(k=f["mixed"], n=f["heads"])
    icl = icl_text(result)
    return f"{text}<br>{icl}" if icl else text


def icl_facts(result) -> dict:
    """layers → engine.training.icl.PhaseChange (or None) of every model of a roles result."""
    return {layers: depth.phase_change() for layers, depth in result.depths().items()}


def icl_text(result) -> str:
    """What the In-context learning tab's two curves show, with this run's figures; ""
    without the 1-layer control."""
    changes = icl_facts(result)
    deep, one = changes.get(result.config.layers), changes.get(1)
    if deep is None or one is None or result.control is None:
        return ""
    text = tr("The <b>In-context learning</b> tab plots the loss beside the ICL score, the "
              "loss on the repeated half minus the loss on the first half (Olsson et al. "
              "2022): negative when the model reads the context.")
    if deep.induction_step is not None:
        text += " " + tr("With {layers} layers, induction heads formed at step {step} (largest "
                         "induction score ≥ {t:g}) after a plateau; the ICL score fell fastest "
                         "between steps {a} and {b} (from {i0} to {i1} nats) while the loss "
                         "dropped from {l0} to {l1}. It ends at {icl} nats, the best induction "
                         "score at {ind}.").format(
            layers=result.config.layers, step=deep.induction_step, t=deep.threshold,
            a=deep.drop_from, b=deep.drop_to, i0=format_number(deep.icl_before),
            i1=format_number(deep.icl_after), l0=format_number(deep.loss_before),
            l1=format_number(deep.loss_after), icl=format_number(deep.final_icl),
            ind=format_number(deep.final_induction))
    else:
        text += " " + tr("With {layers} layers no induction head formed in this run (largest "
                         "induction score {ind} < {t:g}); its ICL score ends at {icl} nats: "
                         "train longer.").format(
            layers=result.config.layers, ind=format_number(deep.final_induction),
            t=deep.threshold, icl=format_number(deep.final_icl))
    if one.induction_step is None:
        text += " " + tr("The 1-layer control, trained on the same batches, formed none "
                         "(largest induction score {ind}) and ends at {icl} nats: one layer "
                         "can favour tokens it has seen, but its keys do not know which token "
                         "came before them, so it cannot find the token after an earlier "
                         "copy.").format(ind=format_number(one.final_induction),
                                         icl=format_number(one.final_icl))
    else:
        text += " " + tr("The 1-layer control, trained on the same batches, reached an "
                         "induction score of {ind} at step {step} and ends at {icl} "
                         "nats.").format(ind=format_number(one.final_induction),
                                         step=one.induction_step,
                                         icl=format_number(one.final_icl))
    return text


# -- heads vs h -------------------------------------------------------------------------
def heads_facts(result) -> dict | None:
    rows = result.summary()
    if not rows:
        return None
    best_acc = max(rows, key=lambda r: r["final_accuracy"])
    best_loss = min(rows, key=lambda r: r["final_loss"])
    most = max(rows, key=lambda r: r["heads"])
    return {"rows": rows, "best_acc": best_acc, "best_loss": best_loss, "most": most,
            "hurt": most["heads"] != best_acc["heads"]
            and most["final_accuracy"] < best_acc["final_accuracy"] - 0.02,
            "d_model": result.config.d_model, "seeds": result.config.seeds,
            "steps": result.config.steps}


def paper_text(result=None) -> str:
    """The paper's Table 3 (A) rows and how little they move with h; with a finished heads
    run, beside it how much the toy moves between h = 1 and its best h, and why."""
    from engine.training import PAPER_TABLE3_A

    rows = ", ".join(f"h = {r['heads']} (d_k {r['d_k']}): {r['ppl']:.2f} / {r['bleu']:.1f}"
                     for r in PAPER_TABLE3_A)
    best_ppl = min(r["ppl"] for r in PAPER_TABLE3_A)
    best_bleu = max(r["bleu"] for r in PAPER_TABLE3_A)
    one = next(r for r in PAPER_TABLE3_A if r["heads"] == 1)
    most = max(PAPER_TABLE3_A, key=lambda r: r["heads"])
    text = tr("The paper's Table 3 (A), d_model = 512, dev perplexity / BLEU: {rows}. Across "
              "h it moves little: h = 1 is {dp1:.2f} perplexity and {db1:.1f} BLEU behind the "
              "best (perplexity {pb:.2f}, BLEU {bb:.1f}); h = {hm} is {dpm:.2f} and {dbm:.1f} "
              "behind.").format(
        rows=rows, dp1=one["ppl"] - best_ppl, db1=best_bleu - one["bleu"], pb=best_ppl,
        bb=best_bleu, hm=most["heads"], dpm=most["ppl"] - best_ppl, dbm=best_bleu - most["bleu"])
    f = heads_facts(result) if result is not None else None
    single = next((r for r in f["rows"] if r["heads"] == 1), None) if f else None
    if single is not None:
        best = f["best_acc"]
        text += " " + tr(
            "The toy moves {pts} accuracy points between h = 1 ({acc1}) and its best h = {hb} "
            "({acc}), and its h = 1 failure is built into the task: one head can only average "
            "the two items' values, so it cannot tell which item is which.").format(
            pts=f"{100 * (best['final_accuracy'] - single['final_accuracy']):.0f}",
            acc1=percent(single["final_accuracy"]), hb=best["heads"],
            acc=percent(best["final_accuracy"]))
    return text


def heads_run_text(context: LessonContext) -> str:
    busy = _training_now(context, "heads")
    result = context.trained("heads")
    f = heads_facts(result) if result is not None else None
    if f is None:
        return busy or tr(
            "Press Train: one attention layer with d_model fixed is trained with h = 1, 2, "
            "4, 8 and 16 heads (d_k = d_model / h, so the matrix products cost the same) on "
            "a task that needs two relations at once, 3 seeds each; the Training tab then "
            "shows quality against h beside the paper's rows.")
    rows = ", ".join(tr("h = {h}: {acc} (loss {loss})").format(
        h=r["heads"], acc=percent(r["final_accuracy"]), loss=format_number(r["final_loss"]))
        for r in f["rows"])
    text = tr("<b>Trained</b> (d_model = {d}, {seeds} seeds × {steps} steps), final accuracy "
              "by h: {rows}. The best accuracy is at h = {ha} ({acc}), the lowest loss at "
              "h = {hl} ({loss}).").format(
        d=f["d_model"], seeds=f["seeds"], steps=f["steps"], rows=rows, ha=f["best_acc"]["heads"],
        acc=percent(f["best_acc"]["final_accuracy"]), hl=f["best_loss"]["heads"],
        loss=format_number(f["best_loss"]["final_loss"]))
    most = f["most"]
    if f["hurt"]:
        text += " " + tr("Too many heads hurt here: at h = {h} each head has d_k = {dk} and "
                         "accuracy falls to {acc}.").format(h=most["heads"], dk=most["d_k"],
                                                            acc=percent(most["final_accuracy"]))
    elif len(f["rows"]) > 1:
        text += " " + tr("More heads did not hurt here: h = {h} reaches {acc}.").format(
            h=most["heads"], acc=percent(most["final_accuracy"]))
    return text

