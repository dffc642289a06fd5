#!/usr/bin/env bash
# X11 smoke test: start the real app on Xvfb, screenshot the screen, check it is not blank.
set -euo pipefail
cd "$(dirname "$0")/.."
python=.venv/bin/python
.ci/install_xvfb.sh "$python"
shot=$(mktemp --suffix=.png)
ATTENTION_LAB_SCREENSHOT="$shot" ATTENTION_LAB_QUIT_AFTER_MS=30000 QT_QPA_PLATFORM=xcb \
  timeout 60 xvfb-run -a -s "-screen 0 1600x1000x24" "$python" main.py
"$python" - "$shot" <<'PY'
import sys
from PySide6.QtGui import QImage
image = QImage(sys.argv[1])
assert not image.isNull(), "no screenshot was written"
colours = {image.pixel(x, y) for x in range(0, image.width(), 5) for y in range(0, image.height(), 5)}
assert len(colours) > 50, f"screenshot looks blank ({len(colours)} colours)"
print(f"X11 smoke test: {image.width()}x{image.height()} screenshot with {len(colours)} colours")
PY
