"""Long use of ONE window, resident memory read at regular points (run by
test_long_use_memory.py; also a tool to find what grows).

    python tests/gui/long_use_driver.py ACTIONS SEED [--points N] [--replay K] [--diagnose]

Random actions over the whole window, as tests/gui/stress_driver.py drives it, and more:
every control of the left column and of the Head roles, Real heads (a tiny BERT opened as a
model folder) and Training tabs, every menu action that opens no dialog, the lesson's
shortcuts, both languages, text sizes 100–300 %, both themes, presentation on and off,
window sizes, every tab, and a few short training runs.

After every ACTIONS / N actions (N = --points, default 10) the window is put in one resting
state (1600×1000, 100 % text, windowed, the first tabs in front, no lesson playing, every
study idle, no training running), cycles are collected and glibc's free heap handed back;
then one JSON line is printed: the point's number, actions done, resident memory (MB) and
the seconds since the start. The last line, after the window is closed, sums up: exceptions
(uncaught or caught by gui.common.guard), Qt warnings, the threads and child processes still
there (left_after_close), and the seconds the run took.

--replay K: the actions are K random ones, repeated in the same order until ACTIONS are
done (memory that is only warm-up grows in the first round and not in the next ones).

--only NAME,NAME: only these kinds of action (LongUse._moves names them).
--clear-font-cache: empty Qt's font engine cache at each resting state (a diagnosis).

--diagnose: each point also prints what could grow: Python objects by type (the types that
grew most since the first point), tracemalloc's top growing lines, items per graphics
scene, child QObjects of the window, widgets of the application, connections of the
state's signals, and the sizes of the gui caches it knows.
"""
import argparse
import collections
import ctypes
import ctypes.util
import gc
import json
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "engine"))

from window_tour import (SCORE_TEXTS, exceptions, menu_actions, on_exception,  # noqa: E402
                         on_qt_message, release_freed_memory, spin_value, tour, warnings)

SENTENCES = ("The cat sat on the mat.", "Mary gave John a book because she liked him.",
             "猫がマットに座った。それは暖かかった。", "", "   ", "a " * 60, "1e308 ×÷ ??? 😀",
             "It's raining; don't go.", "the dog ran, and then the dog slept!",
             "a big red cat was tired because the dog ran?")
SIZES = ((800, 600), (1280, 720), (1366, 768), (1920, 1080), (3840, 2160), (1024, 700),
         (1600, 1000))
#: Every text size, 100 % to 300 % in quarters (the zoom actions' steps).
TEXT_SCALES = tuple(1.0 + 0.25 * step for step in range(9))
#: Short training runs (a second or two each).
SHORT_RUNS = (("roles", {"steps": 30, "snapshot_every": 10, "log_every": 10}),
              ("heads", {"heads": "1,2", "steps": 20, "snapshot_every": 10, "log_every": 10}),
              ("scaling", {"steps": 20, "d_ks": "16,64", "snapshot_every": 10, "log_every": 10}))


def pump(app, seconds: float) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()
    app.processEvents()


class LongUse:
    def __init__(self, app, win, rng, model_folder: str):
        from PySide6.QtWidgets import (QAbstractSpinBox, QCheckBox, QComboBox, QLineEdit,
                                       QSlider)

        import gui.common.names as names

        self.app, self.win, self.rng = app, win, rng
        self.names = names
        win.head_roles_tab, win.training_tab          # built now: their first build is not growth
        tab = win.model_heads
        tab.add_model_folder(model_folder)             # File → Open model folder…
        self.training = win.training_tab
        controls = win.controls
        self.spins = controls.findChildren(QAbstractSpinBox)
        self.checks = controls.findChildren(QCheckBox)
        self.combos = controls.findChildren(QComboBox)
        self.sliders = controls.findChildren(QSlider)
        self.scores_edit = controls.findChild(QLineEdit, "scoresEdit")
        self.actions = menu_actions(win)
        self.shortcuts = win.menus.lesson_shortcuts + [win.menus.escape_shortcut]
        self.moves = self._moves()
        self.clear_font_cache = False      # --clear-font-cache

    # -- the actions --------------------------------------------------------------------
    def _combo(self, combo):
        combo.activated.emit(self.rng.randrange(combo.count()))

    def _click_head(self, tab):
        """A click on a head of the grid (or of the compared heads), as a user's."""
        rng = self.rng
        result = tab.result
        if result is not None and result.layers and rng.random() < 0.7:
            tab.grid.head_clicked.emit(rng.randrange(result.layers), rng.randrange(result.heads))
        elif tab.trained_heads is not None or tab.hand_heads is not None:
            kind = "trained" if tab.trained_heads is not None else "hand"
            tab.compare.compare_clicked.emit(kind, 0, 0)

    def _train(self):
        """A short run (rarely: a few in a whole run), or Stop on a running one."""
        training = self.training
        if training.runner.is_running():
            training.stop_button.click()
            return
        experiment, options = self.rng.choice(SHORT_RUNS)
        training.start(experiment, options)

    def _moves(self):
        win, rng, names = self.win, self.rng, self.names
        heads, real, training = win.head_roles_tab, win.model_heads, self.training
        tabs = win.workspace_tabs
        return [
            ("spin_value", 6, lambda: (s := rng.choice(self.spins)).setValue(spin_value(rng, s))),
            ("spin_step", 4, lambda: rng.choice(self.spins).stepBy(rng.choice((-3, -1, 1, 1, 3)))),
            ("check", 3, lambda: rng.choice(self.checks).toggle()),
            ("combo", 3, lambda: self._combo(rng.choice(self.combos))),
            ("slider", 3, lambda: (s := rng.choice(self.sliders)).setValue(rng.randint(s.minimum(),
                                                                             s.maximum()))),
            ("scores_text", 2, lambda: self.scores_edit.setText(rng.choice(SCORE_TEXTS))
             or self.scores_edit.editingFinished.emit()),
            ("menu_action", 6, lambda: rng.choice(self.actions).trigger()),
            ("shortcut", 3, lambda: rng.choice(self.shortcuts).activated.emit()),
            ("language", 3, lambda: win.switch_language(rng.choice(("en", "ja")))),
            ("text_size", 4, lambda: rng.choice((win.zoom_in, win.zoom_in, win.zoom_out, win.zoom_reset))()),
            ("presentation", 2, lambda: win.menus.presentation_action.toggle()),
            ("theme", 2, lambda: rng.choice((win.menus.light_action, win.menus.dark_action)).trigger()),
            ("lesson_step", 3, lambda: win.lesson.go_to(rng.randrange(0, 12))),
            ("lesson_play", 1, lambda: win.lesson.play_button.toggle()),
            ("heads_sentence", 3, lambda: heads.sentence_edit.setText(rng.choice(SENTENCES))),
            ("heads_mode", 2, lambda: heads.mode_combo.setCurrentIndex(rng.randrange(heads.mode_combo.count()))),
            ("heads_random", 1, lambda: heads.random_check.toggle()),
            ("heads_seed", 1, lambda: heads.seed_spin.setValue(rng.randint(0, 2**31 - 1))),
            ("real_sentence", 2, lambda: real.sentence_edit.setText(rng.choice(SENTENCES))),
            ("real_model", 1, lambda: self._combo(real.model_combo)),
            ("real_click", 2, lambda: self._click_head(real)),
            ("train_experiment", 1, lambda: self._combo(training.combo)),
            ("train_task", 1, lambda: self._combo(training.task_combo)),
            ("train_run", 0.15, self._train),
            ("window_size", 3, lambda: win.resize(*rng.choice(SIZES))),
            ("workspace_tab", 4, lambda: tabs.setCurrentIndex(rng.randrange(tabs.count()))),
            ("view_tab", 3, lambda: (bar := rng.choice(list(win.area.view_tabs.values())))
             .setCurrentIndex(rng.randrange(bar.count()))),
            ("train_right_tab", 1, lambda: training.right.setCurrentIndex(rng.randrange(training.right.count()))),
        ]

    def only(self, names) -> None:
        """Keep the moves named in `names` (to find which kind of action makes memory grow)."""
        unknown = set(names) - {name for name, _, _ in self.moves}
        if unknown:
            raise SystemExit(f"unknown moves: {sorted(unknown)}")
        self.moves = [m for m in self.moves if m[0] in names]

    def pick(self):
        weights = [w for _, w, _ in self.moves]
        return self.rng.choices(range(len(self.moves)), weights)[0]

    def do(self, index: int) -> None:
        try:
            self.moves[index][2]()
        except Exception:
            exceptions.append(traceback.format_exc()[-800:])
        self.app.processEvents()

    # -- the tour before the readings -------------------------------------------------------
    def tour(self) -> None:
        """Every kind of action once, then window_tour.tour at every text size (the
        zoom actions step through them all) and every window size, and a short training run:
        what a first use builds, fills and sizes, done before the first reading, so that the
        readings compare use with use."""
        for index in range(len(self.moves)):
            self.do(index)
        tour(self.win, self.app, scales=TEXT_SCALES, sizes=SIZES)
        experiment, options = SHORT_RUNS[0]
        self.training.start(experiment, options)
        self.rest()

    # -- the resting state ----------------------------------------------------------------
    def wait_studies(self) -> None:
        for study in self.win.studies:
            if hasattr(study, "wait_idle"):
                study.wait_idle(10000)

    def rest(self) -> None:
        """One resting state, so that two readings compare like with like: a 4K window, a
        300 % layout, a running computation or training hold tens of MB let go after."""
        win = self.win
        win.lesson.stop()
        if self.training.runner.is_running():
            deadline = time.monotonic() + 20
            while self.training.runner.is_running() and time.monotonic() < deadline:
                pump(self.app, 0.05)
            if self.training.runner.is_running():
                self.training.stop()
        if win.menus.presentation_action.isChecked():
            win.menus.presentation_action.toggle()
        win.zoom_reset()
        win.resize(1600, 1000)
        win.workspace_tabs.setCurrentIndex(0)
        for bar in win.area.view_tabs.values():
            bar.setCurrentIndex(0)
        # The clipboard holds the newest copy, as large as the panel and scale it was taken
        # at (a 4K panel at 4× is over 100 MB): one image, whose size says nothing of growth.
        self.app.clipboard().clear()
        pump(self.app, 0.05)
        self.wait_studies()
        pump(self.app, 0.1)
        if self.clear_font_cache:
            clear_font_cache()
        release_freed_memory()


def clear_font_cache() -> None:
    """Empty Qt's font engine cache (--clear-font-cache, a diagnosis: how much of the growth
    is font engines and their glyphs): registering and removing an application font makes
    Qt drop every cached engine."""
    from PySide6.QtGui import QFontDatabase

    from gui.common.i18n import FONT_DIR

    font = next(iter(sorted(FONT_DIR.glob("*.ttf"))), None)
    if font is not None:
        QFontDatabase.removeApplicationFont(QFontDatabase.addApplicationFont(str(font)))


# -- after close ----------------------------------------------------------------------
def thread_ids() -> set[int]:
    """The process's threads (native ids, Python's and Qt's alike)."""
    return {int(task) for task in os.listdir("/proc/self/task")}


def thread_name(tid: int) -> str:
    try:
        with open(f"/proc/self/task/{tid}/comm") as comm:
            return comm.read().strip()
    except OSError:
        return "?"


def running(child) -> bool:
    import psutil

    try:
        return child.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def describe(child) -> str:
    import psutil

    try:
        return f"{child.pid} {' '.join(child.cmdline())[:200]}"
    except psutil.Error:
        return str(child.pid)


def left_after_close(app, process, threads_before: set[int], wait_s: float = 5.0) -> dict:
    """Threads started since before the window was made, and child processes not yet
    ended (zombies count as ended), once they had up to `wait_s` to end after the close."""
    deadline = time.monotonic() + wait_s
    while True:
        pump(app, 0.05)
        threads = thread_ids() - threads_before
        children = [c for c in process.children(recursive=True) if running(c)]
        if (not threads and not children) or time.monotonic() > deadline:
            break
    return {"threads_left": sorted(thread_name(t) for t in threads),
            "children_left": [describe(child) for child in children]}


# -- diagnostics ---------------------------------------------------------------------
def type_counts() -> collections.Counter:
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def scene_items(app) -> dict:
    from PySide6.QtWidgets import QGraphicsView

    counts = {}
    for view in app.allWidgets():
        if isinstance(view, QGraphicsView) and view.scene() is not None:
            counts[view.objectName() or type(view).__name__] = len(view.scene().items())
    return counts


def signal_connections(state) -> dict:
    events = state.events
    out = {}
    for name in ("params", "lock_d_model", "lesson_step", "view", "heads_input", "training",
                 "model_view", "cost"):
        sig = getattr(events, name, None)
        if sig is not None:
            out[name] = len(sig)
    return out


def cache_sizes() -> dict:
    from gui.common.guard import errors

    sizes = {"errors.seen": len(errors.seen)}
    return sizes


def numpy_mb() -> float:
    """MB of numpy data owned by arrays that a gc-tracked object refers to."""
    import numpy as np

    seen, total = set(), 0
    for obj in gc.get_objects():
        for ref in gc.get_referents(obj):
            while isinstance(ref, np.ndarray) and ref.base is not None:
                ref = ref.base
            if isinstance(ref, np.ndarray) and id(ref) not in seen:
                seen.add(id(ref))
                total += ref.nbytes
    return round(total / 2**20, 1)


def lru_mb() -> dict:
    """MB of numpy data in the engine's memoised functions, by function."""
    import numpy as np

    from engine import live_scores, multihead, simulation

    def size(value, seen):
        if id(value) in seen:
            return 0
        seen.add(id(value))
        if isinstance(value, np.ndarray):
            return value.nbytes if value.base is None else size(value.base, seen)
        if isinstance(value, (str, bytes, int, float, type)):
            return 0
        return sum(size(v, seen) for v in gc.get_referents(value))

    def results(fn):
        """The memoised results: CPython's lru_cache keeps them in list nodes that the
        garbage collector does not traverse (their `result` follows PyObject_HEAD, prev,
        next, hash and key)."""
        caches = [r for r in gc.get_referents(fn) if isinstance(r, dict)
                  and not any(isinstance(k, str) for k in r)]
        offset = ctypes.sizeof(ctypes.c_ssize_t) * 2 + ctypes.sizeof(ctypes.c_void_p) * 4
        return [ctypes.cast(id(node) + offset, ctypes.POINTER(ctypes.py_object))[0]
                for cache in caches for node in cache.values()]

    out = {}
    for module in (multihead, simulation, live_scores):
        for name, fn in vars(module).items():
            if hasattr(fn, "cache_info") and fn.cache_info().currsize:
                out[name] = round(size(results(fn), set()) / 2**20, 1)
    for name, memo in (("seeded_matrices", "_seeded"), ("seeded_projections", "_projections")):
        kept = getattr(getattr(multihead, memo, None), "kept", None)   # their own memos
        if kept:
            out[name] = round(size(list(kept.values()), set()) / 2**20, 1)
    return out


def clipboard_mb(app) -> float:
    """MB of the image the clipboard holds (Edit → Copy … image), 0 without one."""
    image = app.clipboard().image()
    return round(image.sizeInBytes() / 2**20, 1) if not image.isNull() else 0.0


def smaps_mb() -> dict:
    """Resident MB by kind of mapping: the main heap, other anonymous memory (thread
    arenas, mmap'd blocks, Python's object arenas, stacks), and files (libraries, fonts)."""
    kinds, files, maps = collections.Counter(), collections.Counter(), collections.Counter()
    name = None
    try:
        with open("/proc/self/smaps") as smaps:
            for line in smaps:
                head = line.split()
                if "-" in head[0] and not head[0].endswith(":"):
                    name = head[5] if len(head) > 5 else ""
                elif head[0] == "Rss:":
                    kind = ("heap" if name == "[heap]" else "anon" if not name
                            else "stack" if name.startswith("[stack") else "file")
                    kinds[kind] += int(head[1])
                    if kind == "file":
                        files[os.path.basename(name)] += int(head[1])
                        maps[os.path.basename(name)] += 1
    except OSError:
        return {}
    out = {k: round(v / 1024, 1) for k, v in kinds.items()}
    out["top_files"] = [(f, round(v / 1024, 1), maps[f]) for f, v in files.most_common(4)]
    out["tasks"] = len(os.listdir("/proc/self/task"))
    out["fonts"] = {f: (round(v / 1024, 1), maps[f]) for f, v in files.items()
                    if f.lower().endswith((".ttf", ".otf", ".ttc"))}
    return out


def malloc_mb() -> dict:
    """glibc's view: bytes in use from the heap arenas and from mmap, and free in arenas."""
    class MallInfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]

    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    if not hasattr(libc, "mallinfo2"):
        return {}
    libc.mallinfo2.restype = MallInfo2
    info = libc.mallinfo2()
    return {"heap_used": round(info.uordblks / 2**20, 1), "mmap": round(info.hblkhd / 2**20, 1),
            "heap_free": round(info.fordblks / 2**20, 1)}


def diagnose(app, win, first: dict, previous_snapshot):
    import tracemalloc

    from PySide6.QtCore import QObject

    counts = type_counts()
    grown = {k: counts[k] - first["types"].get(k, 0) for k in counts}
    top = sorted(grown.items(), key=lambda kv: -kv[1])[:15]
    snapshot = tracemalloc.take_snapshot() if tracemalloc.is_tracing() else None
    lines = []
    if previous_snapshot is not None and snapshot is not None:
        stats = snapshot.compare_to(previous_snapshot, "lineno")
        lines = [f"{s.size_diff / 1024:+.0f} kB {s.count_diff:+d} "
                 f"{s.traceback[0].filename.replace(str(ROOT), '')}:{s.traceback[0].lineno}"
                 for s in stats[:12]]
    traced = tracemalloc.get_traced_memory()[0] / 2**20 if snapshot is not None else 0.0
    report = {"types_grown": top, "traced_mb": round(traced, 1), "tracemalloc": lines,
              "scene_items": scene_items(app),
              "window_qobjects": len(win.findChildren(QObject)),
              "app_widgets": len(app.allWidgets()),
              "signals": signal_connections(win.state), "caches": cache_sizes()}
    return report, snapshot


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("actions", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--points", type=int, default=10)
    parser.add_argument("--replay", type=int, default=0)
    parser.add_argument("--diagnose", action="store_true")
    parser.add_argument("--trace", action="store_true", help="with --diagnose: tracemalloc too")
    parser.add_argument("--only", default="", help="comma-separated move names")
    parser.add_argument("--tour", action="store_true",
                        help="before the first reading, every kind of action and every view "
                             "state once (LongUse.tour)")
    parser.add_argument("--exit-at-end", action="store_true",
                        help="leave at once after the last point, the window open (a heap "
                             "profiler then lists what the resting window holds as leaked)")
    parser.add_argument("--watch-file", default="",
                        help="print each action after which this file is mapped more or "
                             "fewer times (e.g. a font file: one mapping per FreeType face)")
    parser.add_argument("--clear-font-cache", action="store_true",
                        help="at each resting state, empty Qt's font engine cache first")
    parser.add_argument("--light", action="store_true",
                        help="with each point: glibc's and numpy's shares (no tracemalloc)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    if args.trace:
        import tracemalloc

        tracemalloc.start(1)

    import psutil
    from PySide6.QtCore import QSettings, qInstallMessageHandler

    from tiny_models import write_bert

    rng = random.Random(args.seed)
    scratch = Path(tempfile.mkdtemp(prefix="long-use-"))
    os.environ["ATTENTION_LAB_CACHE"] = str(scratch / "cache")      # no MiniLM download
    model_folder = str(write_bert(scratch / "tiny-bert"))
    qInstallMessageHandler(on_qt_message)
    sys.excepthook = on_exception
    from gui.app import create_application
    from gui.common.guard import errors

    app = create_application([])
    app.setOrganizationName("AttentionLabLongUse")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(scratch))
    errors.reported.connect(lambda m: exceptions.append(m))
    from gui.window.main_window import MainWindow

    threads_before = thread_ids()
    win = MainWindow()
    win.resize(1600, 1000)
    win.show()
    win.model.wait_idle()
    use = LongUse(app, win, rng, model_folder)
    use.clear_font_cache = args.clear_font_cache
    if args.only:
        use.only(args.only.split(","))
    process = psutil.Process()
    if args.tour:
        use.tour()
    else:
        use.rest()
    first = {"types": type_counts()} if args.diagnose else None
    previous_snapshot = None
    if args.diagnose:
        _, previous_snapshot = diagnose(app, win, first, None)
    print(json.dumps({"point": 0, "actions": 0,
                      "rss_mb": round(process.memory_info().rss / 2**20, 1),
                      "seconds": round(time.monotonic() - start, 1)}), flush=True)
    script = [use.pick() for _ in range(args.replay)] if args.replay else None
    every = max(1, args.actions // args.points)
    mapped = 0
    for i in range(args.actions):
        move = script[i % len(script)] if script else use.pick()
        use.do(move)
        if args.watch_file:
            now = sum(1 for line in open("/proc/self/maps")
                      if line.rstrip().endswith("/" + args.watch_file))
            if now != mapped:
                print(json.dumps({"action": i + 1, "move": use.moves[move][0], "mapped": now,
                                  "threads": sorted(thread_name(t) for t in thread_ids())}),
                      flush=True)
                mapped = now
        if i % 40 == 39:
            win.model.wait_idle(10000)
        if (i + 1) % every == 0 or i + 1 == args.actions:
            use.rest()
            line = {"point": (i + 1) // every, "actions": i + 1,
                    "rss_mb": round(process.memory_info().rss / 2**20, 1),
                    "seconds": round(time.monotonic() - start, 1)}
            if args.light or args.diagnose:
                line.update(malloc=malloc_mb(), smaps=smaps_mb(), numpy_mb=numpy_mb(), lru_mb=lru_mb(),
                            clipboard_mb=clipboard_mb(app))
            if args.diagnose:
                report, previous_snapshot = diagnose(app, win, first, previous_snapshot)
                line.update(report)
            print(json.dumps(line, ensure_ascii=False), flush=True)
    if args.exit_at_end:
        sys.stdout.flush()
        os._exit(0)
    win.close()
    app.processEvents()
    left = left_after_close(app, process, threads_before)
    print(json.dumps({"done": args.actions, "exceptions": exceptions, "qt_warnings": warnings,
                      **left, "seconds": round(time.monotonic() - start, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
