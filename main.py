"""Attention Lab entry point.

    python main.py                  open the window
    python main.py report [flags]   print the window's numbers as JSON (no Qt)
    python main.py export --out DIR write one image per panel and results.json
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
    fields.update({name: getattr(args, name) for name in (
        "keys", "samples", "seed", "scale", "temperature", "distribution", "sigma", "tokens",
        "seq_len", "causal", "kv_heads", "cached_layers", "live_scores", "scale_by")
        if getattr(args, name, None) is not None})
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
    for p in (report, export):
        p.error = parser.error
    return parser


def run_report(args) -> int:
    from engine import compute
    from engine.report import results_to_dict

    results = compute(params_from_args(args))
    json.dump(results_to_dict(results, args.model), sys.stdout, indent=1)
    sys.stdout.write("\n")
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
    if not argv or argv[0] not in ("report", "export", "-h", "--help"):
        return run_gui(argv)
    from engine import ParamsError

    try:
        args = build_parser().parse_args(argv)
        return run_report(args) if args.command == "report" else run_export(args)
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
