#!/usr/bin/env python
"""Instructions per change of the window's update + paint, counted by callgrind.

    python -m benchmarks.render_instructions     # prints one JSON object
    (python benchmarks/render_instructions.py runs the same module)

Wall-clock figures on a shared 2-core machine move by ±20 % from run to run; an instruction
count does not (the same code, inputs and environment give the same count, whatever else the
machine is doing), so it shows whether a change to the panels made the work smaller. It needs
valgrind (Debian: apt-get install valgrind) and runs the loop below under callgrind with
instrumentation switched on only around the loop (about 30 s a sequence).

jumps   d_model locked at 512, d_k through 32, 64, 128, 16, 256 (h follows): every change moves
        the variance axes and the per-head layout, as the defaults of ui_latency.py do.
steps   d_k 60 … 79 one step at a time, h = 8 unlocked (d_model follows): a drag.
repaint the workspace's plots repainted with nothing changed (after a resize, an
        expose, a tab switch; and the part of every change that no update can avoid).
multihead_jumps, multihead_steps   the same changes with the Multi-head workspace in front
        (the others have the Scaling workspace in front).
stack   the bare stack of benchmarks/stack_floor.py: five plots' curves, bars and ten labels
        set and painted (its "labels" change); over_stack gives each sequence against it.
Each change is the window's show_results (panel updates, layout, Qt's paint of what changed)
with Results computed beforehand; compute itself is not counted. The window is the latency
benchmark's (benchmarks/harness.py).
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.render_instructions",
                              *sys.argv[1:]])

import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = "RENDER_INSTRUCTIONS_CHILD"
CHANGES = 20


def sequence(name: str) -> list:
    import dataclasses

    from engine import Params

    p0 = Params()
    if name == "jumps":
        return [dataclasses.replace(p0, dk=dk, heads=512 // dk, d_model=512)
                for dk in [32, 64, 128, 16, 256] * (CHANGES // 5)]
    return [dataclasses.replace(p0, dk=dk, heads=8, d_model=8 * dk) for dk in range(60, 60 + CHANGES)]


def stack_child() -> None:
    """Runs under callgrind: the bare stack (benchmarks.stack_floor), a change with labels."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from gui.app import configure_pyqtgraph

    from .stack_floor import BarePlots

    app = QApplication.instance() or QApplication([])
    configure_pyqtgraph()
    bare = BarePlots(app, 10)
    for k in range(8):
        bare.change(k, True, False)
    control = ["callgrind_control", "-i"]
    subprocess.run(control + ["on", str(os.getpid())], capture_output=True, check=False)
    for k in range(CHANGES):
        bare.change(k, True, False)
    subprocess.run(control + ["off", str(os.getpid())], capture_output=True, check=False)


def child(name: str) -> None:
    """Runs under callgrind: the window, warm-up, then the counted loop."""
    from engine import compute

    from .harness import Harness, app_environment

    if name == "stack":
        stack_child()
        return
    workspace = "multihead" if name.startswith("multihead_") else "scaling"
    name = name.removeprefix("multihead_")
    with app_environment():
        h = Harness(workspace)
        results = [compute(p) for p in sequence(name)]
        for r in results[:5] + results[-3:]:       # first layouts, caches
            h.render_as_qt_does(r)
        control = ["callgrind_control", "-i"]
        subprocess.run(control + ["on", str(os.getpid())], capture_output=True, check=False)
        if name == "repaint":
            for _ in results:
                h.repaint_viewports()
        else:
            for r in results:
                h.render_as_qt_does(r)
        subprocess.run(control + ["off", str(os.getpid())], capture_output=True, check=False)
        h.close()


def count(name: str) -> int:
    out = tempfile.mkdtemp(prefix="render_instructions_")
    try:
        env = dict(os.environ, **{MARKER: name}, XDG_CONFIG_HOME=out)
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={out}/callgrind.out",
             sys.executable, "-m", "benchmarks.render_instructions"],
            env=env, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
        match = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
        if proc.returncode != 0 or match is None:
            raise RuntimeError(f"callgrind run failed ({proc.returncode}): {proc.stderr[-2000:]}")
        return int(match.group(1))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> int:
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.stderr.write("valgrind is not installed (Debian: apt-get install valgrind)\n")
        return 2
    report = {"changes_per_sequence": CHANGES, "window_px": [1600, 1000],
              "qpa": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    for name in ("stack", "jumps", "steps", "multihead_jumps", "multihead_steps", "repaint"):
        report[f"{name}_million_instructions_per_change"] = round(count(name) / CHANGES / 1e6, 2)
    stack = report["stack_million_instructions_per_change"]
    report["over_stack"] = {
        name: round(report[f"{name}_million_instructions_per_change"] / stack, 2)
        for name in ("jumps", "steps", "multihead_jumps", "multihead_steps")}
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    if os.environ.get(MARKER):
        child(os.environ[MARKER])
        os._exit(0)  # skip interpreter teardown of Qt objects
    sys.exit(main())
