"""Attention Lab entry point.

    python main.py                  open the window
    python main.py report [flags]   print the window's numbers as JSON (no Qt)
    python main.py export --out DIR write one image per panel and results.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from engine.cli_args import EXIT_USAGE, UsageError
from engine.cli_args import ArgParser as _Parser
from engine.cli_args import float_arg as _float_arg
from engine.cli_args import int_arg as _int_arg


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
    for p in (report, export):
        p.error = parser.error
    return parser


def run_report(args) -> int:
    from engine import compute
    from engine.report import results_to_dict

    results = compute(params_from_args(args))
    json.dump(results_to_dict(results), sys.stdout, indent=1)
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


def build_window(argv: list[str]):
    """gui.app.build_window (kept here so `from main import build_window` works)."""
    from gui.app import build_window as build

    return build(argv)


def run_gui(argv: list[str]) -> int:
    from gui.app import run_gui as run

    return run(argv)


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
