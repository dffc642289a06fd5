"""Random use of the whole window, in a process of its own (run by test_random_use.py).

    python tests/gui/stress_driver.py ACTIONS SEED

First a tour that shows every view once (window_tour.tour: each language, text size,
presentation, theme, view, window size and lesson step), so that the caches those fill (fonts, glyphs,
tabs built on first show) are full; then ACTIONS random actions, in two halves: ACTIONS/2
actions drawn from SEED (every control, menu action, shortcut, language, theme, text size,
presentation toggle, lesson step, Play, head-roles edit, window size down to 320×240, and
text pasted into any field: window_tour.PASTE_TEXTS), the state put
back as the tour left it, and the same actions again. Prints one JSON line: actions done,
exceptions (uncaught or caught by gui.common.guard), Qt warnings, resident memory in one
resting state after every fifth of the actions (rss_points_mb) and after each half (the
second half meets only states the first one made, so whatever it adds is kept per action,
not a cache filling), and, after the window was closed in the middle of work
(close_during_work), threads and child processes left.
"""
import json
import os
import random
import sys
import threading
import traceback
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import psutil  # noqa: E402
from PySide6.QtCore import QThread, qInstallMessageHandler  # noqa: E402
from PySide6.QtWidgets import (QAbstractSpinBox, QCheckBox, QComboBox,  # noqa: E402
                               QLineEdit, QSlider, QSpinBox)

from window_tour import (PASTE_TEXTS, SCORE_TEXTS, exceptions, menu_actions,  # noqa: E402
                         on_exception, on_qt_message, release_freed_memory, spin_value, tour,
                         warnings)

SENTENCES = ("The cat sat on the mat.", "Mary gave John a book because she liked him.",
             "猫がマットに座った。それは暖かかった。", "", "   ", "a " * 60, "1e308 ×÷ ??? 😀",
             "It's raining; don't go.")
#: Resting-RSS readings: after every 1/POINTS of the actions (rss_points_mb).
POINTS = 5
SIZES = ((800, 600), (1280, 720), (1366, 768), (1920, 1080), (3840, 2160), (1024, 700),
         (320, 240))


def paste(rng, fields) -> None:
    """Text pasted into a random field (a line edit, or a spin box's), replacing what was
    there, then Enter: what a user's Ctrl+V and Return do."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    field = rng.choice(fields)
    edit = field.lineEdit() if isinstance(field, QAbstractSpinBox) else field
    if not edit.isEnabled():
        return
    edit.selectAll()
    edit.insert(rng.choice(PASTE_TEXTS))
    QTest.keyClick(field, Qt.Key.Key_Return)


def close_during_work(win, app) -> None:
    """Close the window as a user may: a training run's process starting or training, a
    new d_k and a new sentence still computing (every study busy, the Real heads' forward
    asked for). The report's checks (nothing left running, no traceback) then hold for a
    close in the middle of work."""
    from PySide6.QtWidgets import QSpinBox

    win.training_tab.start("scaling", {"steps": 5000})
    win.controls.findChild(QSpinBox, "dkSpin").stepBy(3)
    win.head_roles_tab.sentence_edit.setText("The dog ran because it was late.")
    win.model_heads.sentence_edit.setText("The dog ran because it was late.")
    app.processEvents()
    win.close()
    app.processEvents()


def main(count: int, seed: int) -> int:
    rng = random.Random(seed)   # re-seeded for each half
    qInstallMessageHandler(on_qt_message)
    sys.excepthook = on_exception
    from gui.app import create_application
    from gui.common.guard import errors

    app = create_application([])
    errors.reported.connect(lambda m: exceptions.append(m))
    from gui.window.main_window import MainWindow

    win = MainWindow()
    win.resize(1600, 1000)
    win.show()
    win.model.wait_idle()
    controls = win.controls
    spins = [w for w in controls.findChildren(QAbstractSpinBox)]
    checks = controls.findChildren(QCheckBox)
    combos = controls.findChildren(QComboBox)
    sliders = controls.findChildren(QSlider)
    heads = win.head_roles_tab
    win.model_heads, win.training_tab   # built now: their first build is not growth
    actions = menu_actions(win)
    shortcuts = win.menus.lesson_shortcuts + [win.menus.escape_shortcut]
    process = psutil.Process()
    fields = [w for w in win.findChildren(QLineEdit) if w.parent() is not None
              and not isinstance(w.parent(), QAbstractSpinBox)
              and not isinstance(w.parent(), QComboBox)] + win.findChildren(QAbstractSpinBox)

    def resting_rss() -> int:
        """Resident memory in one resting state (1600x1000, 100 %, windowed, the Scaling
        workspace in front, no lesson playing, studies idle), so that two readings compare like
        with like: a 4K window, a 300 % layout, another workspace's views or a running
        computation hold tens of MB that are let go afterwards."""
        win.lesson.stop()
        win.area.show_workspace("scaling")
        for bar in win.area.view_tabs.values():
            bar.setCurrentIndex(0)
        if win.menus.presentation_action.isChecked():
            win.menus.presentation_action.toggle()
        win.zoom_reset()
        win.resize(1600, 1000)
        win.model.wait_idle(10000)
        heads.wait_idle(10000)
        for _ in range(3):
            app.processEvents()
        release_freed_memory()
        return process.memory_info().rss

    moves = [
        lambda: (s := rng.choice(spins)).setValue(spin_value(rng, s)),
        lambda: rng.choice(spins).stepBy(rng.choice((-3, -1, 1, 1, 3))),
        lambda: rng.choice(checks).toggle(),
        lambda: (c := rng.choice(combos)).activated.emit(rng.randrange(c.count())),
        lambda: (s := rng.choice(sliders)).setValue(rng.randint(s.minimum(), s.maximum())),
        lambda: (e := controls.findChild(QLineEdit, "scoresEdit")).setText(
            rng.choice(SCORE_TEXTS)) or e.editingFinished.emit(),
        lambda: rng.choice(actions).trigger(),
        lambda: rng.choice(shortcuts).activated.emit(),
        lambda: win.switch_language(rng.choice(("en", "ja"))),
        lambda: rng.choice((win.zoom_in, win.zoom_out, win.zoom_reset))(),
        lambda: win.menus.presentation_action.toggle(),
        lambda: win.lesson.go_to(rng.randrange(0, 12)),
        lambda: win.lesson.play_button.toggle(),
        lambda: heads.findChild(QLineEdit, "sentenceEdit").setText(rng.choice(SENTENCES)),
        lambda: (c := heads.findChild(QComboBox, "tokenModeCombo")).setCurrentIndex(
            rng.randrange(c.count())),
        lambda: heads.findChild(QCheckBox, "randomHeadsCheck").toggle(),
        lambda: heads.findChild(QSpinBox, "headsSeedSpin").setValue(rng.randint(0, 2**31 - 1)),
        lambda: win.resize(*rng.choice(SIZES)),
        lambda: win.workspace_tabs.setCurrentIndex(rng.randrange(win.workspace_tabs.count())),
        lambda: (bar := rng.choice(list(win.area.view_tabs.values()))).setCurrentIndex(
            rng.randrange(bar.count())),
        lambda: paste(rng, fields),
        lambda: paste(rng, fields),
    ]
    every = max(1, count // POINTS)
    points = []             # resting RSS (MB) after every POINTS-th of all the actions

    def random_actions(n: int) -> None:
        nonlocal done
        rng.seed(seed)
        for i in range(n):
            try:
                rng.choice(moves)()
            except Exception:
                exceptions.append(traceback.format_exc()[-800:])
            app.processEvents()
            done += 1
            if i % 40 == 39:
                win.model.wait_idle(10000)
                heads.wait_idle(10000)
            if done % every == 0:
                points.append(round(resting_rss() / 2**20, 1))

    tour(win, app, sizes=SIZES)
    start = win.state.snapshot()
    resting_rss()           # both halves start from the resting state
    done = 0
    readings = []
    for _ in range(2):      # the same actions from the same state twice
        random_actions(count // 2)
        win.state.restore(start)
        readings.append(resting_rss())
    rss_warm, rss_end = readings
    close_during_work(win, app)
    # A Qt thread that ran Python code stays in threading.enumerate() as a _DummyThread
    # after it ended: only threads the system still runs count.
    alive = {t.id for t in process.threads()}
    threads = [t.name for t in threading.enumerate() if t is not threading.main_thread()
               and (not isinstance(t, threading._DummyThread) or t.native_id in alive)]
    running_qthreads = [s.objectName() for s in win.studies if s.is_running()]
    print(json.dumps({"actions": done, "exceptions": exceptions, "qt_warnings": warnings,
                      "rss_warm_mb": rss_warm / 2**20, "rss_end_mb": rss_end / 2**20,
                      "rss_points_mb": points,
                      "python_threads": threads, "running_studies": running_qthreads,
                      "children": [p.pid for p in process.children(recursive=True)],
                      "qthread_alive": QThread.currentThread() is not None}))
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
