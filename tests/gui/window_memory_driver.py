"""Open, use and close main windows one after another in one process (run by
test_window_memory.py).

    python tests/gui/window_memory_driver.py LANG,LANG,... WxH,WxH,...

Window i is shown at size i (the list repeats), switched to language i, its text set to
200 %, a lesson step taken and every view brought forward, built and painted; then it is closed as a user
closes it (close(), the reference dropped; no deleteLater) and the events that follow are
handled. After each close the script prints one JSON line: the close's number, language,
size, how many of the closed windows are still alive (weak references) before and after a
garbage collection, resident memory (MB) after it, the application's font size then, and the
seconds it took.

Then one more window, put in a reference cycle, is closed and left to a garbage collection
run on another thread (as a worker thread's allocations may start one): the last line says
on which threads its Qt side was destroyed (the GUI thread's only, never the collector's).
"""
import gc
import json
import os
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

#: Text size while a window is used (zoom_in steps of 25 % from 100 %).
ZOOM_STEPS = 4


def pump(app, seconds: float) -> None:
    """Handle events for `seconds` (deferred deletes included), as the event loop would."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()
    app.processEvents()


def use(window, app, lang: str) -> None:
    window.switch_language(lang)
    for _ in range(ZOOM_STEPS):
        window.zoom_in()
    pump(app, 0.1)
    window.lesson.next()
    pump(app, 0.1)
    from gui.window.layout import WORKSPACE_OF

    for key in WORKSPACE_OF:             # every view of every workspace, in front once
        window.area.bring_forward(key)
        pump(app, 0.05)
    for study in window.studies:
        if hasattr(study, "wait_idle"):
            study.wait_idle(5000)
    pump(app, 0.05)
    window.grab()                    # paint it all at this size, language and text size


def main(languages: list[str], sizes: list[tuple[int, int]], count: int = 8) -> int:
    import psutil
    from PySide6.QtCore import QSettings

    from gui.app import create_application

    app = create_application([])
    app.setOrganizationName("AttentionLabMemoryTest")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    from gui.window.main_window import MainWindow

    process = psutil.Process()
    closed = []
    for i in range(count):
        start = time.monotonic()
        lang, size = languages[i % len(languages)], sizes[i % len(sizes)]
        window = MainWindow()
        window.resize(*size)
        window.show()
        window.model.wait_idle()
        use(window, app, lang)
        window.close()
        closed.append(weakref.ref(window))
        del window
        pump(app, 0.1)
        alive_before_gc = sum(ref() is not None for ref in closed)
        gc.collect()
        print(json.dumps({"close": i + 1, "lang": lang, "size": list(size),
                          "rss_mb": round(process.memory_info().rss / 2**20, 1),
                          "alive_before_gc": alive_before_gc,
                          "alive": sum(ref() is not None for ref in closed),
                          "font_pt": app.font().pointSizeF(),
                          "seconds": round(time.monotonic() - start, 2)}), flush=True)
    print(json.dumps({"destroyed_on": collected_on_another_thread(app)}), flush=True)
    return 0


def collected_on_another_thread(app) -> list[str]:
    """Close a window in a reference cycle, collect it on a thread of its own; the threads its
    Qt side died on."""
    from gui.window.main_window import MainWindow

    destroyed_on = []
    window = MainWindow()
    window.show()
    window.model.wait_idle()
    window.destroyed.connect(lambda: destroyed_on.append(threading.current_thread().name))
    window.cycle = [window]          # freed by the cyclic collector only
    window.close()
    gc.disable()                     # no collection on this thread meanwhile
    try:
        del window
        collector = threading.Thread(target=gc.collect, name="collector")
        collector.start()
        collector.join()
        pump(app, 0.1)
    finally:
        gc.enable()
    return destroyed_on


if __name__ == "__main__":
    langs = sys.argv[1].split(",")
    window_sizes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[2].split(",")]
    sys.exit(main(langs, window_sizes, int(sys.argv[3]) if len(sys.argv) > 3 else 8))
