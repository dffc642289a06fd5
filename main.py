"""Attention Lab entry point.

    python main.py                  open the window
    python main.py report [flags]   print the window's numbers as JSON (no Qt)
    python main.py export --out DIR write one image per panel and results.json
    python main.py train [flags]    train a tiny model live (no Qt); --json for JSON
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad command-line input; the message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, no usage dump
        raise UsageError(message)


def _int_arg(low, high):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        return value
    return parse


def _float_arg():
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
        return value
    return parse


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


def params_from_args(args):
    """Build Params from parsed flags; raises ParamsError with a clear message."""
    from engine import Params, resolve_shape
    from engine.scores import parse_scores

    dk, heads, d_model = resolve_shape(args.dk, args.heads, args.d_model)
    fields = {name: getattr(args, name) for name in (
        "keys", "samples", "seed", "scale", "temperature", "distribution", "sigma", "tokens",
        "seq_len", "causal") if getattr(args, name) is not None}
    if args.scores is not None:
        fields["scores"] = parse_scores(args.scores)
    return Params(dk=dk, heads=heads, d_model=d_model, **fields)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="attention-lab", description="Attention Lab: see why attention "
                     "divides by √d_k and how multi-head attention splits d_model.")
    sub = parser.add_subparsers(dest="command")
    report = sub.add_parser("report", help="print the numbers as JSON")
    add_param_flags(report)
    export = sub.add_parser("export", help="write one image per panel and results.json")
    add_param_flags(export)
    export.add_argument("--out", required=True, help="output folder")
    export.add_argument("--format", choices=("png", "svg"), default="png")
    export.add_argument("--size", default="1200x800", help="WxH in pixels")
    add_train_parser(sub)
    for p in sub.choices.values():
        p.error = parser.error
    return parser


def add_train_parser(sub) -> None:
    train = sub.add_parser("train", help="train a tiny attention model and print its curves")
    train.add_argument("--experiment", choices=("scaling", "roles", "heads"))
    train.add_argument("--dk", type=_int_arg(1, 4096))
    train.add_argument("--no-scale", dest="scale", action="store_false", default=None)
    train.add_argument("--heads", type=_int_arg(1, 64))
    train.add_argument("--steps", type=_int_arg(1, 100_000))
    train.add_argument("--seed", type=_int_arg(0, 2**31 - 1))
    train.add_argument("--json", action="store_true")
    train.add_argument("--check-gradients", action="store_true",
                       help="check every model's gradients against finite differences")


def run_report(args) -> int:
    from engine import compute
    from engine.report import results_to_dict

    results = compute(params_from_args(args))
    json.dump(results_to_dict(results), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


def train_config_from_args(args):
    """The experiment's config with the flags applied; UsageError for a flag that does not apply."""
    from engine.training import TrainingConfigError, default_config

    name = args.experiment
    fields = default_config(name).to_dict()
    for flag, value, key in (("--steps", args.steps, "steps"), ("--seed", args.seed, "seed")):
        if value is not None:
            fields[key] = value
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
                f"{row['final_max_attention']:.2f}  |∇W_Q| {row['final_grad_norm_wq']:.2g}")
    elif data["experiment"] == "roles":
        lines.append(f"final loss {final['loss']:.3f}, accuracy {final['accuracy']:.3f}")
        for h in data["heads"]:
            lines.append(f"  layer {h['layer']} head {h['head']}: {h['role']:<14} previous "
                         f"{h['prev_token_score']:.2f}  induction {h['induction_score']:.2f}  "
                         f"BOS {h['bos_score']:.2f}  self {h['self_score']:.2f}")
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
        from engine.training.gradcheck import check_gradients, gradient_cases

        cases = {name: case for name, case in gradient_cases().items()
                 if args.experiment is None or name.split("/")[0] == args.experiment}
        import numpy as np

        rng = np.random.default_rng(100)
        errors = {name: max(check_gradients(fn, params, rng).values())
                  for name, (fn, params) in cases.items()}
        worst = max(errors.values())
        if args.json:
            json.dump({"gradient_check": errors, "largest_relative_error": worst,
                       "passed": worst < 1e-5}, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            for name, err in errors.items():
                print(f"{name:<18} {err:.2e}")
            print(f"largest relative error: {worst:.2e} ({'below' if worst < 1e-5 else 'NOT below'}"
                  " 1e-5)")
        return 0 if worst < 1e-5 else 1
    if args.experiment is None:
        raise UsageError("train needs --experiment scaling|roles|heads (or --check-gradients)")
    from engine.training import result_to_dict, run_experiment

    data = result_to_dict(run_experiment(args.experiment, train_config_from_args(args)))
    if args.json:
        json.dump(data, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print("\n".join(_train_summary(data)))
    return 0


def run_export(args) -> int:
    from gui.export import export_panels

    params = params_from_args(args)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        if not (100 <= width <= 8000 and 100 <= height <= 8000):
            raise ValueError
    except ValueError:
        raise UsageError(f"--size must be WxH with 100 ≤ W, H ≤ 8000, got {args.size!r}") from None
    for path in export_panels(params, args.out, args.format, (width, height)):
        print(path)
    return 0


def parse_window_args(argv: list[str]):
    """--lang, --session, --lesson, --presentation; unknown arguments are left for Qt."""
    parser = _Parser(prog="attention-lab", add_help=False)
    parser.add_argument("--lang", choices=("ja", "en"))
    parser.add_argument("--session")
    parser.add_argument("--lesson", type=_int_arg(1, 99))
    parser.add_argument("--presentation", action="store_true")
    return parser.parse_known_args(argv)


def build_window(argv: list[str]):
    """Create the application (if needed) and a MainWindow with the command-line options applied.

    Raises UsageError for bad options and engine.session.SessionError for a bad session file.
    """
    args, qt_args = parse_window_args(argv)
    from gui.app import create_application
    from gui.i18n import set_language, system_language

    create_application(qt_args)
    set_language(args.lang or system_language())
    from gui.main_window import MainWindow

    window = MainWindow()
    if args.session:
        try:
            window.load_session(args.session)
        except Exception:
            window.close()  # stops the worker thread
            raise
    if args.lesson:
        window.lesson.go_to(args.lesson - 1)
    if args.presentation:
        window.set_presentation(True)
    return window


def run_gui(argv: list[str]) -> int:
    from engine.session import SessionError

    try:
        window = build_window(argv)
    except (UsageError, SessionError) as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from gui.app import install_smoke_hooks
    from PySide6.QtWidgets import QApplication

    if not window.presentation:
        window.show()
    install_smoke_hooks(window)
    return QApplication.instance().exec()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("report", "export", "train", "-h", "--help"):
        return run_gui(argv)
    from engine import ParamsError

    try:
        args = build_parser().parse_args(argv)
        runners = {"report": run_report, "export": run_export, "train": run_train}
        return runners[args.command](args)
    except (UsageError, ParamsError) as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `report | head`: the reader left; that is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
