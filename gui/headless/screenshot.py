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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", help="PNG file for one screenshot")
    target.add_argument("--lessons", help="folder for lesson_<lang>_<step>.png of every step")
    parser.add_argument("--size", default="1600x1000", help="window size WxH")
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--lesson", type=int, help="show this lesson step (1-based)")
    parser.add_argument("--workspace", choices=("scaling", "multihead", "training", "realheads"),
                        help="the workspace in front")
    parser.add_argument("--scale", type=float, default=1.0, help="text size, 1 to 3")
    parser.add_argument("--wait", type=float, default=0.0,
                        help="seconds to let background work (a model's forward) finish")
    args = parser.parse_args(argv)
    from gui.headless.batch import ensure_headless_platform

    ensure_headless_platform()
    import tempfile

    from PySide6.QtCore import QSettings

    # A clean settings folder: screenshots must not depend on this user's saved layout.
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from gui import app as entry

    from gui.lessons.steps import STEPS

    width, height = (int(v) for v in args.size.split("x"))
    languages = ("en", "ja") if args.lessons else (args.lang,)
    window = entry.build_window(["--lang", languages[0]])
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    window.resize(width, height)
    window.show()
    window.set_ui_scale(args.scale)
    written = []
    for lang in languages:
        window.switch_language(lang)
        steps = range(len(STEPS)) if args.lessons else ([args.lesson - 1] if args.lesson else [])
        if not steps:
            if args.workspace:
                from gui.window.layout import SHARED_VIEWS, TRAINING, REAL_HEADS
                from gui.common import names

                first = {TRAINING: names.TRAINING_PANEL, REAL_HEADS: names.MODEL_HEADS}
                window.bring_forward(first.get(args.workspace) or SHARED_VIEWS[args.workspace][0])
            _settle(window, app)
            _wait(app, args.wait)
            out = Path(args.out)
            out.parent.mkdir(parents=True, exist_ok=True)
            window.grab().save(str(out))
            written.append(out)
        for index in steps:
            window.lesson.go_to(index)
            _settle(window, app)
            out = Path(args.lessons) / f"lesson_{lang}_{index + 1:02d}.png" if args.lessons else Path(args.out)
            out.parent.mkdir(parents=True, exist_ok=True)
            window.grab().save(str(out))
            written.append(out)
    window.close()
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
