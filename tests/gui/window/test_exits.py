"""Any exit (issue 32): Ctrl-C in the terminal closes the window as File → Quit does; a
machine with no display gets one line of ours and exit 2, after the command line and the
session are checked; a headless command stopped by Ctrl-C says one line and exits 130.
Each case runs the real entry point in a process of its own."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
MAIN = ROOT / "main.py"
#: File → Quit's own limit for a closing window (test_faults.CLOSE_LIMIT_S).
CLOSE_LIMIT_S = 2.0
START_LIMIT_S = 60.0

pytestmark = pytest.mark.slow


def no_display_env(tmp_path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return dict(env, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))


def start(args, env, **kwargs) -> subprocess.Popen:
    """The app as a terminal starts it: SIGINT at its default (a shell's background job
    would ignore it)."""
    return subprocess.Popen([sys.executable, str(MAIN), *args], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            **kwargs)


def test_no_display_says_so_in_one_line_and_exits_2(tmp_path):
    proc = start([], no_display_env(tmp_path))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.strip().splitlines() == [err.strip()]
    assert err.startswith("attention-lab: error: no display") and "attention-lab --help" in err


def test_a_bad_session_is_said_before_the_missing_display(tmp_path):
    missing = tmp_path / "class.json"
    proc = start(["--session", str(missing)], no_display_env(tmp_path))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.strip() == (f"attention-lab: error: --session {missing}: cannot read the file: "
                           "No such file or directory")


def test_an_unreachable_display_is_named(tmp_path):
    env = dict(no_display_env(tmp_path), DISPLAY=":97")     # no X server answers there
    proc = start([], env)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.strip().startswith("attention-lab: error: cannot open the display ':97'")


def test_ctrl_c_closes_the_window_as_quit_does(tmp_path):
    ready = tmp_path / "ready"
    env = dict(no_display_env(tmp_path), QT_QPA_PLATFORM="offscreen",
               ATTENTION_LAB_READY_FILE=str(ready), ATTENTION_LAB_QUIT_AFTER_MS="120000")
    proc = start([], env)
    deadline = time.monotonic() + START_LIMIT_S
    while not ready.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ready.exists(), proc.communicate(timeout=10)[1]
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert time.monotonic() - sent < CLOSE_LIMIT_S + 0.5
    assert proc.returncode == 0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


@pytest.mark.parametrize("command", [["train", "--experiment", "roles"],
                                     ["export", "--out", "{tmp}/figures", "--size", "4000x3000"]])
def test_a_headless_command_stops_on_ctrl_c_with_one_line(tmp_path, command):
    env = dict(no_display_env(tmp_path), QT_QPA_PLATFORM="offscreen")
    proc = start([part.format(tmp=tmp_path) for part in command], env)
    time.sleep(2.0)                  # into its work (each takes 10 s or more here)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip() == "attention-lab: interrupted"


@pytest.mark.parametrize("args", [[], ["--presentation"]])
def test_on_a_small_screen_the_window_fits_it(tmp_path, args):
    """Issue 32's fault case: a 1024×768 X screen (Xvfb, no window manager). Windowed, the
    first window takes at most 90 % of the available geometry and lies inside it;
    presentation mode fills the screen."""
    import json

    from gui_helpers import xvfb_or_skip

    xvfb = xvfb_or_skip()
    ready = tmp_path / "ready"
    env = dict(no_display_env(tmp_path), QT_QPA_PLATFORM="xcb",
               ATTENTION_LAB_READY_FILE=str(ready), ATTENTION_LAB_QUIT_AFTER_MS="3000")
    proc = subprocess.run([xvfb, "-a", "-s", "-screen 0 1024x768x24", sys.executable,
                           str(MAIN), *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=START_LIMIT_S + 30)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    report = json.loads(ready.read_text())
    assert report["screen"] == [0, 0, 1024, 768]
    x, y, w, h = report["window"]
    ax, ay, aw, ah = report["available"]
    if args:
        assert report["full_screen"] and report["window"] == report["screen"]
    else:
        assert w <= 0.9 * aw + 1 and h <= 0.9 * ah + 1, report
        assert ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah, report
