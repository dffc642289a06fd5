"""Screenshots of the window for the README and for checking lessons by eye.

    python -m gui.headless.screenshot --out docs/workspace_scaling.png [--size 1920x1080]
        [--lang ja] [--lesson 6] [--workspace multihead] [--scale 3]
    python -m gui.headless.screenshot --lessons docs/lessons      # every lesson step, en and ja

Runs offscreen unless a display is present.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _settle(window, app) -> None:
    window.model.wait_idle()
    app.processEvents()
    window.model.wait_idle()
    app.processEvents()


def _wait(app, seconds: float) -> None:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be WxH, e.g. 1920x1080, got {text!r}") from None
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(f"must be from 320x240 to 7680x4320, got {text!r}")
    return width, height


def _scale(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number from 1 to 3, got {text!r}") from None
    if not 1.0 <= value <= 3.0:
        raise argparse.ArgumentTypeError(f"must be from 1 to 3, got {text!r}")
    return value


def _parser(steps: int) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", help="PNG file for one screenshot")
    target.add_argument("--lessons", help="folder for lesson_<lang>_<step>.png of every step")
    parser.add_argument("--size", type=_size, default=(1600, 1000), help="window size WxH")
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    from engine.cli_args import int_arg

    parser.add_argument("--lesson", type=int_arg(1, steps),
                        help=f"show this lesson step (1 to {steps})")
    parser.add_argument("--workspace", choices=("scaling", "multihead", "training", "realheads"),
                        help="the workspace in front")
    parser.add_argument("--scale", type=_scale, default=1.0, help="text size, 1 to 3")
    parser.add_argument("--wait", type=float, default=0.0,
                        help="seconds to let background work (a model's forward) finish")
    return parser


class ScreenshotError(RuntimeError):
    """A screenshot could not be written (the message names the file)."""


def _save(window, out: Path) -> Path:
    """Grab `window` into the PNG `out`, written atomically; ScreenshotError if not."""
    from gui.window.export import ExportError, check_target, png_bytes, write_bytes

    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScreenshotError(f"cannot write {out}: {exc.strerror or exc}") from None
    try:
        check_target(out)
        return write_bytes(out, png_bytes(window.grab().toImage(), out))
    except ExportError as exc:
        raise ScreenshotError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots; print each file written. Exit 0 when every one was written,
    1 (one line on stderr) when one was not, 2 for bad options, 130 on Ctrl-C. The window
    and its workers are stopped before it returns, whatever happened."""
    from gui.lessons.steps import STEPS

    args = _parser(len(STEPS)).parse_args(argv)
    from gui.headless.batch import ensure_headless_platform

    ensure_headless_platform()
    import tempfile

    from PySide6.QtCore import QSettings

    # A clean settings folder: screenshots must not depend on this user's saved layout.
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from gui import app as entry
    from gui.common.quit_signals import DeferredInterrupt
    from PySide6.QtWidgets import QApplication

    width, height = args.size
    languages = ("en", "ja") if args.lessons else (args.lang,)
    written = []
    with DeferredInterrupt() as interrupt:
        window = entry.build_window(["--lang", languages[0]])
        try:
            app = QApplication.instance()
            window.resize(width, height)
            window.show()
            window.set_ui_scale(args.scale)
            for lang in languages:
                window.switch_language(lang)
                steps = range(len(STEPS)) if args.lessons else \
                    ([args.lesson - 1] if args.lesson else [])
                if not steps:
                    if args.workspace:
                        from gui.window.layout import SHARED_VIEWS, TRAINING, REAL_HEADS
                        from gui.common import names

                        first = {TRAINING: names.TRAINING_PANEL, REAL_HEADS: names.MODEL_HEADS}
                        window.bring_forward(first.get(args.workspace)
                                             or SHARED_VIEWS[args.workspace][0])
                    _settle(window, app)
                    _wait(app, args.wait)
                    written.append(_save(window, Path(args.out)))
                for index in steps:
                    window.lesson.go_to(index)
                    _settle(window, app)
                    out = Path(args.lessons) / f"lesson_{lang}_{index + 1:02d}.png" \
                        if args.lessons else Path(args.out)
                    written.append(_save(window, out))
                    interrupt.check()
        except ScreenshotError as exc:
            print(f"screenshot: error: {exc}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("screenshot: interrupted", file=sys.stderr)
            return 130
        finally:
            window.close()           # its workers stopped before the interpreter ends
            for path in written:
                print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
