"""Screenshots of the window for the README and for checking lessons by eye.

    python -m gui.headless.screenshot --out docs/window.png [--lang ja] [--lesson 6]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", help="PNG file for one screenshot")
    target.add_argument("--lessons", help="folder for lesson_<lang>_<step>.png of every step")
    parser.add_argument("--size", default="1600x1000", help="window size WxH")
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--lesson", type=int, help="show this lesson step (1-based)")
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
    written = []
    for lang in languages:
        window.switch_language(lang)
        steps = range(len(STEPS)) if args.lessons else ([args.lesson - 1] if args.lesson else [])
        if not steps:
            _settle(window, app)
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
