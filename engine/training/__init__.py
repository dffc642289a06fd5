"""Training lab: tiny attention models trained live, in numpy (no Qt).

Three experiments, each with a frozen config and a run function:

    scaling  ScalingConfig  run_scaling(config, on_snapshot=None, should_stop=None,
                                        snapshot_period_s=None)  -> ScalingResult
    roles    RolesConfig    run_roles(...)                       -> RolesResult
    heads    HeadsConfig    run_heads(...)                       -> HeadsResult

`on_snapshot(snapshot)` receives a small frozen, picklable common.TrainingSnapshot every
`config.snapshot_every` steps (or every `snapshot_period_s` seconds of wall clock) and
once at the end (`done=True`); `should_stop()` is polled before every step and ends the
run at once (the result then has `stopped=True` and the runs so far). Configs round-trip
through `to_dict` / `config_from_dict`; results become JSON with `result_to_dict`.
Everything is seeded: the same config gives the same curves.

    from engine.training import run_experiment, config_from_dict
    result = run_experiment("roles", config_from_dict("roles", {"steps": 300}))
"""
from __future__ import annotations

import math

from .common import Band, Curve, HeadView, Run, TrainingConfigError, TrainingSnapshot, band
from .heads import PAPER_TABLE3_A, HeadsConfig, HeadsResult, run_heads
from .roles import RolesConfig, RolesResult, run_roles
from .roles_scoring import ROLES, SCORE_NAMES
from .scaling import ScalingConfig, ScalingResult, run_scaling
from . import gradcheck, worker  # noqa: F401  (every module loads with the package)

EXPERIMENTS = ("scaling", "roles", "heads")
CONFIGS = {"scaling": ScalingConfig, "roles": RolesConfig, "heads": HeadsConfig}
RUNNERS = {"scaling": run_scaling, "roles": run_roles, "heads": run_heads}

__all__ = ["EXPERIMENTS", "CONFIGS", "PAPER_TABLE3_A", "ROLES", "SCORE_NAMES", "Band", "Curve",
           "HeadView", "HeadsConfig", "HeadsResult", "RolesConfig", "RolesResult", "Run",
           "ScalingConfig", "ScalingResult", "TrainingConfigError", "TrainingSnapshot", "band",
           "config_from_dict", "default_config", "result_to_dict", "run_experiment",
           "run_heads", "run_roles", "run_scaling"]


def _check_name(name: str) -> None:
    if name not in EXPERIMENTS:
        raise TrainingConfigError(f"unknown experiment {name!r}; one of {', '.join(EXPERIMENTS)}")


def default_config(name: str):
    _check_name(name)
    return CONFIGS[name]()


def config_from_dict(name: str, data) -> object:
    """The config of experiment `name` from a dict saved by its `to_dict` (missing keys keep
    their defaults; unknown keys and bad values raise TrainingConfigError)."""
    _check_name(name)
    return CONFIGS[name].from_dict(data)


def run_experiment(name: str, config=None, on_snapshot=None, should_stop=None,
                   snapshot_period_s: float | None = None):
    """Run experiment `name` with `config` (its default when None). Snapshots come every
    `config.snapshot_every` steps, or with `snapshot_period_s` every that many seconds
    of wall clock (a window's steady rate; the curves and scores stay the same)."""
    _check_name(name)
    if config is not None and not isinstance(config, CONFIGS[name]):
        raise TrainingConfigError(f"{name} needs a {CONFIGS[name].__name__}, "
                                  f"got {type(config).__name__}")
    return RUNNERS[name](config, on_snapshot=on_snapshot, should_stop=should_stop,
                         snapshot_period_s=snapshot_period_s)


def _num(value) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def _mean_curve(runs) -> dict:
    """Seed-mean curve of runs with equal steps, as JSON lists."""
    runs = list(runs)
    if not runs:
        return {"step": [], **{m: [] for m in ("loss", "accuracy", "attention_entropy",
                                               "grad_norm_wq", "max_attention")}}
    out = {"step": [int(s) for s in band(runs, "loss").steps]}
    for metric in ("loss", "accuracy", "attention_entropy", "grad_norm_wq", "max_attention"):
        out[metric] = [_num(v) for v in band(runs, metric).mean]
    return out


def _final(curve: dict) -> dict:
    return {"loss": curve["loss"][-1] if curve["loss"] else None,
            "accuracy": curve["accuracy"][-1] if curve["accuracy"] else None}


def result_to_dict(result) -> dict:
    """JSON-ready summary of a result.

    Every experiment: experiment, params (the config), curve (lists by step: step, loss,
    accuracy, attention_entropy, grad_norm_wq, max_attention), final (loss, accuracy),
    stopped, elapsed_s. `curve` is the seed mean of the first configuration of the grid
    (scaling: first task, d_k and scale; heads: first h; roles: its one run).
    scaling adds runs (each task, d_k, scaled, seed, final_loss, final_accuracy),
    summary (per task, d_k, scaled over seeds) and copy_baseline; roles adds heads
    (layer, head, prev_token_score, induction_score, bos_score, self_score, entropy,
    role) and score_history of its model, its curve has icl_score and induction_max
    (common.OPTIONAL_METRICS), and depths: "2" (the model) and "1" (the 1-layer control,
    with config.control), each {layers, curve, final, phase_change (icl.PhaseChange, or
    None), heads, score_history}; heads adds runs (heads, d_k, seed, final_loss,
    final_accuracy), summary (per h over seeds), paper (Table 3 rows A) and pruning (per h,
    its first seed's model pruned head by head: pruning.PruningCurve.to_dict, with heads
    and seed)."""
    out = {"experiment": result.experiment, "params": result.config.to_dict()}
    if isinstance(result, ScalingResult):
        c = result.config
        curve = _mean_curve(result.group(c.tasks[0], c.d_ks[0], c.scales[0]))
    elif isinstance(result, HeadsResult):
        curve = _mean_curve(r for r in result.runs if r.label["heads"] == result.config.heads[0])
    else:
        curve = result.run.curve.to_dict()
    out.update(curve=curve, final=_final(curve), stopped=result.stopped,
               elapsed_s=round(result.elapsed_s, 3))
    if isinstance(result, (ScalingResult, HeadsResult)):
        out["runs"] = [{**r.label, "final_loss": _num(r.final_loss),
                        "final_accuracy": _num(r.final_accuracy)} for r in result.runs]
        out["summary"] = [{k: _num(v) if isinstance(v, float) else v for k, v in row.items()}
                          for row in result.summary()]
    if isinstance(result, ScalingResult):
        out["copy_baseline"] = result.copy_baseline
    if isinstance(result, HeadsResult):
        out["paper"] = [dict(row) for row in result.paper]
        out["pruning"] = [{"heads": h, "seed": result.config.seed, **curve.to_dict()}
                          for h, curve in result.pruning]
    if isinstance(result, RolesResult):
        main = result.depths()[result.config.layers]
        out.update(_depth_dict(main, with_curve=False))
        out["depths"] = {str(layers): _depth_dict(depth)
                         for layers, depth in result.depths().items()}
    return out


def _depth_dict(depth, with_curve: bool = True) -> dict:
    """One model of a roles result: heads, score_history and, with_curve, curve (with
    icl_score and induction_max), final and phase_change."""
    out = {}
    if with_curve:
        curve = depth.run.curve.to_dict()
        change = depth.phase_change()
        out.update(layers=depth.layers, curve=curve, final=_final(curve),
                   phase_change=None if change is None else change.to_dict())
    out["heads"] = [{"layer": h.layer, "head": h.head,
                     "prev_token_score": h.scores["previous_token"],
                     "induction_score": h.scores["induction"], "bos_score": h.scores["bos"],
                     "self_score": h.scores["self"], "entropy": h.scores["entropy"],
                     "role": h.role} for h in depth.heads]
    out["score_history"] = {"step": [int(s) for s in depth.score_steps],
                            "scores": list(SCORE_NAMES),
                            "values": depth.score_history.round(4).tolist()}
    return out
