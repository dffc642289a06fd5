"""Write screenshots of the window: `python -m gui.screenshot --out docs/window.png`.

Runs offscreen unless a display is present. Used to make the README's images.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, help="PNG file to write")
    parser.add_argument("--size", default="1600x1000", help="window size WxH")
    parser.add_argument("--dk", type=int, default=None)
    args, rest = parser.parse_known_args(argv)
    from .export import ensure_headless_platform

    ensure_headless_platform()
    from .app import create_application

    app = create_application([])
    from .main_window import MainWindow

    window = MainWindow()
    width, height = (int(v) for v in args.size.split("x"))
    window.resize(width, height)
    window.show()
    if args.dk:
        window.controls.dk_spin.setValue(args.dk)
    window.model.wait_idle()
    app.processEvents()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(out))
    window.close()
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
