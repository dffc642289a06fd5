#!/usr/bin/env bash
# Xvfb and the xcb libraries Qt needs: the projector walk (tests/gui/window/
# test_projector_walk.py) and the X11 smoke test run the app on a real X screen.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-.venv/bin/python}
plugin=""
if [ -x "$python" ]; then
  plugin=$("$python" -c "import PySide6, os; print(os.path.join(os.path.dirname(PySide6.__file__), 'Qt/plugins/platforms/libqxcb.so'))" 2>/dev/null || true)
fi
if command -v xvfb-run >/dev/null && { [ -z "$plugin" ] || ! ldd "$plugin" | grep -q "not found"; }; then
  exit 0
fi
echo "installing Xvfb and the xcb libraries Qt needs"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends xvfb xauth libxcb-icccm4 libxcb-keysyms1 \
  libxcb-image0 libxcb-render-util0 libxcb-cursor0 libxcb-xkb1 libxkbcommon-x11-0 \
  libxcb-shape0 libxcb-randr0 libxcb-xfixes0 libxcb-sync1 libxcb-shm0 libxcb-util1 \
  libx11-xcb1 libegl1 libgl1 libfontconfig1 libdbus-1-3 >/dev/null
