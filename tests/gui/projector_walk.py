"""The classroom walk (issue 31): every lesson step in presentation mode, on a real X
screen (run it under Xvfb), at each text size, in one language. Run by
test_projector_walk.py:

    xvfb-run -s "-screen 0 1280x720x24" python tests/gui/projector_walk.py \
        --lang ja [--scales 1,2,3] [--steps 1-12] [--shots DIR]

QT_QPA_PLATFORM=xcb: the offscreen platform's screen is 800×800, and a window resized to
a size there is not a projector. For each step it checks what a teacher sees:

- the window fills the screen (with no window manager to honour full screen);
- the lesson text and the lesson strip need no scroll bar;
- the step's view lies wholly in the visible workspace, which does not scroll;
- its data area, the union of its visible plots' view boxes (the maps of the Real heads
  grid and the multi-head diagram are view boxes too), is at least DATA_SHARE_H of the
  visible workspace's height and DATA_SHARE_W of its width;
- no text of its plots overlaps another or leaves its view (gui_helpers.text_problems), no
  legend or statistics text lies on a plot's data, and no Qt label or button of the view
  or of the lesson strip is cut (clipped_widgets).

Prints one JSON line: {"checked": n, "problems": {case: [problem, ...]}}; exit 0.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: The step's data area takes at least these shares of the visible workspace.
DATA_SHARE_H, DATA_SHARE_W = 0.40, 0.50
#: A step whose view runs a model (Real heads) waits this long for its result, at most.
MODEL_WAIT_S = 120.0
#: … and every step this long for its layout to stand still, at most.
STILL_LIMIT_S = 3.0


def parse_steps(text: str, count: int) -> list[int]:
    """"1-12", "1,5,8" → 0-based step indices."""
    out = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += range(int(a) - 1, min(int(b), count))
        else:
            out.append(int(part) - 1)
    return out


def pump(app, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.005)


def layout_state(window, name: str) -> tuple:
    """Where the parts a step's check reads are: the lesson strip, its text, the pages, the
    workspace page, the widget in front, and the step's plots (their layouts and texts)."""
    import pyqtgraph as pg

    from gui_helpers import layout_signature

    page = window.area.panel_scroll
    widget = page.widget()
    view = step_view(window, name)
    plots = [view] if isinstance(view, pg.GraphicsView) else \
        [p for p in view.findChildren(pg.GraphicsView) if p.isVisible()]
    texts = tuple(item.toPlainText() for plot in plots for item in plot.scene().items()
                  if hasattr(item, "toPlainText") and item.isVisible())
    return (layout_signature(plots), texts,
            window.geometry().getRect(), window.lesson_scroll.geometry().getRect(),
            window.lesson.text_view.geometry().getRect(), window.lesson.page,
            page.viewport().geometry().getRect(),
            widget.size().toTuple() if widget is not None else None,
            page.verticalScrollBar().maximum(), page.horizontalScrollBar().maximum())


def settle_window(window, app, name: str) -> None:
    """The newest results drawn, every study idle, and the layout still for three turns of
    the event loop in a row (deferred fits, panels' minimum heights), at most STILL_LIMIT_S."""
    from gui.common import names

    deadline = time.monotonic() + MODEL_WAIT_S
    window.model.wait_idle()
    for key in (names.HEADS_PANEL, names.MODEL_HEADS):
        if window.lazy_views.is_built(key):
            view = window.lazy_views.widget(key)
            view.wait_idle(max(1, int((deadline - time.monotonic()) * 1000)))
    window.model.wait_idle()
    previous, still, end = None, 0, time.monotonic() + STILL_LIMIT_S
    while still < 3 and time.monotonic() < end:
        pump(app, 0.04)
        step_view(window, name).grab()   # painted, as on screen (a paint can lay text out)
        now = layout_state(window, name)
        still = still + 1 if now == previous else 0
        previous = now


def step_view(window, name: str):
    """The widget of the view a step is about (a plot, or a lazily built tab)."""
    from gui.common import names

    if name in window.panels:
        return window.panels[name]
    if name == names.HEADS_PANEL:
        return window.area.heads_holder
    return window.lazy_views.widget(name)


def data_rect(view):
    """The union of the visible view boxes of every pyqtgraph view under `view`, in the
    window's coordinates (QRect), or None."""
    import pyqtgraph as pg
    from PySide6.QtCore import QRect

    top = view.window()
    union = QRect()
    plots = [view] if isinstance(view, pg.GraphicsView) else []
    plots += [p for p in view.findChildren(pg.GraphicsView)]
    for plot in plots:
        if not plot.isVisible():
            continue
        to_view = plot.viewportTransform()
        for item in plot.scene().items():
            if isinstance(item, pg.ViewBox) and item.isVisible() and item.scene() is not None:
                rect = item.deviceTransform(to_view).mapRect(item.boundingRect()).toAlignedRect()
                rect = rect.intersected(plot.viewport().rect())
                if rect.width() > 8 and rect.height() > 8:
                    origin = plot.viewport().mapTo(top, rect.topLeft())
                    union = union.united(QRect(origin, rect.size()))
    return None if union.isEmpty() else union


def texts_on_data(plot) -> list[str]:
    """Legend entries and statistics overlays (Plot._overlays) that lie on a view box."""
    import pyqtgraph as pg
    from PySide6.QtCore import QRectF

    to_view = plot.viewportTransform()
    boxes = [item.deviceTransform(to_view).mapRect(item.boundingRect())
             for item in plot.scene().items()
             if isinstance(item, pg.ViewBox) and item.isVisible()]
    found = []
    texts = [(item, getattr(item, "toPlainText", lambda: "")())
             for item, _vb, _corner in getattr(plot, "_overlays", ()) if item.isVisible()]
    for item in plot.scene().items():
        if isinstance(item, pg.LegendItem) and item.isVisible() and item.items:
            texts.append((item, "legend: " + " / ".join(label.text for _s, label in item.items)))
    for item, text in texts:
        if not text.strip():
            continue
        rect = item.deviceTransform(to_view).mapRect(item.boundingRect())
        for box in boxes:
            overlap = QRectF(rect).intersected(box)
            if overlap.width() > 2 and overlap.height() > 2:
                found.append(f"{plot.objectName()}: {text[:60]!r} lies on the data")
                break
    return found


def check_step(window, app, name: str) -> list[str]:
    """What is wrong with the step on screen now (see the module docstring)."""
    import pyqtgraph as pg
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QPushButton

    from gui_helpers import clipped_widgets, settle_layout_until_stable, text_problems

    problems = []
    screen = window.screen().geometry()
    if window.geometry() != screen:
        problems.append(f"the window {window.geometry().getRect()} does not fill the screen "
                        f"{screen.getRect()}")
    lesson = window.lesson
    if lesson.text_view.verticalScrollBar().maximum() > 0:
        problems.append("the lesson text scrolls")
    strip = window.lesson_scroll
    for bar in (strip.verticalScrollBar(), strip.horizontalScrollBar()):
        if bar.maximum() > 0:
            problems.append("the lesson strip scrolls")
    view = step_view(window, name)
    page = window.area.panel_scroll
    if not view.isVisible():
        return problems + [f"{name} is not shown"]
    for bar in (page.verticalScrollBar(), page.horizontalScrollBar()):
        if bar.maximum() > 0:
            problems.append(f"the workspace scrolls ({bar.orientation().name}: "
                            f"{bar.maximum()} px)")
    viewport = page.viewport()
    visible = QRect(viewport.mapTo(window, viewport.rect().topLeft()), viewport.size())
    shown = QRect(view.mapTo(window, view.rect().topLeft()), view.size())
    if not visible.adjusted(-1, -1, 1, 1).contains(shown):
        problems.append(f"{name} {shown.getRect()} is not wholly in the visible workspace "
                        f"{visible.getRect()}")
    data = data_rect(view)
    if name == "modelHeadsView" and hasattr(view, "model_folder") and view.model_folder() is None:
        data = None                 # no model on this machine: what it shows is how to get one
        fetch = [b for b in view.findChildren(QPushButton) if b.isVisible() and b.isEnabled()]
        if not fetch:
            problems.append(f"{name}: no model and no button to fetch one")
    elif data is None:
        problems.append(f"{name} shows no data area")
    if data is not None:
        data = data.intersected(visible)
        if data.height() < DATA_SHARE_H * visible.height() or \
                data.width() < DATA_SHARE_W * visible.width():
            problems.append(f"{name}'s data area {data.width()}×{data.height()} is under "
                            f"{DATA_SHARE_W:.0%} × {DATA_SHARE_H:.0%} of the workspace "
                            f"{visible.width()}×{visible.height()}")
    plots = [view] if isinstance(view, pg.GraphicsView) else []
    plots += [p for p in view.findChildren(pg.GraphicsView) if p.isVisible()]
    settle_layout_until_stable(plots)
    tolerance = window.state.view.shown_scale
    for plot in plots:
        problems += [f"{plot.objectName()}: {p}" for p in text_problems(plot, tolerance)]
        problems += texts_on_data(plot)
    problems += [f"cut: {p}" for p in clipped_widgets(view) + clipped_widgets(lesson)]
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--scales", default="1,2,3")
    parser.add_argument("--steps", default="1-12")
    parser.add_argument("--shots", help="save a screenshot of every case into this folder")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from gui import app as entry
    from gui.common.guard import errors
    from gui.lessons.steps import STEPS

    window = entry.build_window(["--lang", args.lang, "--presentation", "--lesson", "1"])
    app = QApplication.instance()
    reported = []
    errors.reported.connect(reported.append)
    problems, checked = {}, 0
    for scale in (float(s) for s in args.scales.split(",")):
        window.set_ui_scale(scale)
        for index in parse_steps(args.steps, len(STEPS)):
            window.lesson.go_to(index)
            settle_window(window, app, STEPS[index].panel)
            case = f"{args.lang} {int(scale * 100)} % step {index + 1}"
            found = check_step(window, app, STEPS[index].panel)
            checked += 1
            if found:
                problems[case] = found
            if args.shots:
                shot = Path(args.shots) / f"{args.lang}_{int(scale * 100)}_{index + 1:02d}.png"
                shot.parent.mkdir(parents=True, exist_ok=True)
                QGuiApplication.primaryScreen().grabWindow(0).save(str(shot))
    if reported:
        problems["guard"] = reported
    window.close()
    print(json.dumps({"checked": checked, "problems": problems}, ensure_ascii=False))
    sys.stdout.flush()
    os._exit(0)     # the checks are done; no teardown of a window without an event loop


if __name__ == "__main__":
    sys.exit(main())
