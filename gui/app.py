"""QApplication set-up and the GUI entry point: build_window(argv) and run_gui(argv)."""
from __future__ import annotations

import ctypes
import json
import os
import sys

from PySide6.QtCore import QObject, QTimer, Slot


def configure_pyqtgraph() -> None:
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True, background="w", foreground="k")


M_TOP_PAD = -2           # glibc mallopt parameters
M_ARENA_MAX = -8
HEAP_TOP_PAD = 64 << 20  # bytes


def _mallopt(parameter: int, value: int) -> bool:
    """glibc's mallopt(parameter, value); False where there is no glibc or it refused."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return mallopt(parameter, value) == 1


def keep_freed_memory() -> bool:
    """Ask glibc to keep 64 MB of freed heap instead of returning it to the system.

    By default glibc gives the top of the heap back as soon as more than 128 kB are free,
    so numpy temporaries of a few hundred kB (a histogram of 20 000 samples, a 256 × 256
    colour lookup) can fault their pages in again on every allocation. The pad is address
    space until used, so resident memory does not grow. False where there is no glibc (it
    then does nothing). The app owns its process; engine/ leaves a notebook's allocator alone."""
    return _mallopt(M_TOP_PAD, HEAP_TOP_PAD)


def one_malloc_arena() -> bool:
    """Ask glibc for one malloc arena shared by every thread (call before the studies'
    threads start).

    By default each thread that allocates under contention gets an arena of its own, and
    memory freed in a worker's arena (the engine's arrays of every width a drag passes
    through) stays there, fragmented, for the life of the process. The window's threads
    allocate little at the same time, so sharing one arena costs no waiting. False where
    there is no glibc (it then does nothing)."""
    return _mallopt(M_ARENA_MAX, 1)


def limit_blas_threads() -> None:
    """One BLAS thread for the whole process. The window's matrices are small (a few
    hundred columns): on two cores OpenBLAS's threads cost more to wake than they save,
    and while a training process or another program keeps a core busy they wait on each
    other."""
    import numpy  # noqa: F401 (threadpoolctl finds the BLAS numpy has loaded)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


#: What Qt's offscreen platform says whenever a shown window's minimum size changes (real
#: platforms apply it); headless exports and screenshots would print it once per panel.
OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints()"


def quiet_offscreen_noise(app) -> None:
    """Drop OFFSCREEN_NOISE on the offscreen platform; every other message goes on as before."""
    from PySide6.QtCore import qInstallMessageHandler

    if app.platformName() != "offscreen":
        return
    previous = None

    def handler(mode, context, message):
        if message == OFFSCREEN_NOISE:
            return
        if previous is not None:
            previous(mode, context, message)
        else:
            sys.stderr.write(message + "\n")

    previous = qInstallMessageHandler(handler)


def create_application(argv: list[str]):
    from PySide6.QtWidgets import QApplication

    keep_freed_memory()
    one_malloc_arena()
    limit_blas_threads()
    existing = QApplication.instance()
    app = existing or QApplication([sys.argv[0], *argv])
    if existing is None:
        quiet_offscreen_noise(app)
    app.setOrganizationName("AttentionLab")
    app.setApplicationName("Attention Lab")
    from gui.common.i18n import install_fonts

    install_fonts(app)
    configure_pyqtgraph()
    from gui.common.qt_lifetime import collect_on_gui_thread

    collect_on_gui_thread(app)
    return app


class ScreenSnapper(QObject):
    """Smoke-test hook: once results are on screen, save the whole screen and close.

    Grabbing screen 0 reads what the display server shows (e.g. Xvfb), not an
    offscreen copy of the widgets.
    """

    def __init__(self, window, path: str):
        super().__init__(window)
        self.window = window
        self.path = path
        window.model.results_ready.connect(self.on_results)

    @Slot(object)
    def on_results(self, _results) -> None:
        self.window.model.results_ready.disconnect(self.on_results)
        QTimer.singleShot(500, self.snap)

    @Slot()
    def snap(self) -> None:
        from PySide6.QtGui import QGuiApplication

        QGuiApplication.primaryScreen().grabWindow(0).save(self.path)
        self.window.close()


SMOKE_SCREENSHOT = "ATTENTION_LAB_SCREENSHOT"      # save the screen once results show, then quit
SMOKE_QUIT_AFTER_MS = "ATTENTION_LAB_QUIT_AFTER_MS"  # close the window after this delay
SMOKE_READY_FILE = "ATTENTION_LAB_READY_FILE"      # write this file once results show


class ReadyFile(QObject):
    """Test hook: once the window's first results are on screen, write `path` (a process
    driving the app, e.g. one that sends it SIGINT, waits for it): one JSON line with the
    window's frame geometry, its screen's geometry and available geometry ([x, y, w, h],
    logical pixels) and whether it is full screen."""

    def __init__(self, window, path: str):
        super().__init__(window)
        self.path = path
        window.model.results_ready.connect(self.on_results)

    @Slot(object)
    def on_results(self, _results) -> None:
        window = self.parent()
        window.model.results_ready.disconnect(self.on_results)
        screen = window.screen()

        def box(rect) -> list[int]:
            return [rect.x(), rect.y(), rect.width(), rect.height()]

        report = {"window": box(window.frameGeometry()), "screen": box(screen.geometry()),
                  "available": box(screen.availableGeometry()),
                  "full_screen": window.isFullScreen()}
        with open(self.path, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(report) + "\n")


def install_smoke_hooks(window, environ=os.environ) -> None:
    """Smoke-test hooks, the one place their environment variables are read: screenshot
    the screen, or close after a delay."""
    shot = environ.get(SMOKE_SCREENSHOT)
    if shot:
        ScreenSnapper(window, shot)
    ready = environ.get(SMOKE_READY_FILE)
    if ready:
        ReadyFile(window, ready)
    quit_after = environ.get(SMOKE_QUIT_AFTER_MS)
    if quit_after:
        QTimer.singleShot(int(quit_after), window.close)


def parse_window_args(argv: list[str]):
    """--lang, --session, --lesson, --presentation, and Qt's own options (left for Qt).
    Anything else raises UsageError."""
    from engine.cli_args import ArgParser, add_window_args, qt_args

    from gui.lessons.steps import STEPS

    parser = ArgParser(prog="attention-lab", add_help=False, allow_abbrev=False)
    add_window_args(parser, len(STEPS))
    args, rest = parser.parse_known_args(argv)
    return args, qt_args(rest)


class DisplayError(RuntimeError):
    """There is no screen the window can open on (gui.common.display says why)."""


def build_window(argv: list[str]):
    """Create the application (if needed) and a MainWindow with the command-line options applied.

    Raises engine.cli_args.UsageError for bad options, gui.state.SessionError for a bad
    session file (checked first; the window is closed again, its workers stopped) and
    DisplayError where there is no screen to open on (before Qt would abort the process).
    """
    from engine.cli_args import UsageError

    args, qt_args = parse_window_args(argv)
    if args.session is not None and not args.session.strip():
        raise UsageError("--session needs a file name")
    if args.session:                 # a bad file is said before anything else is tried
        from gui.state import SessionError, read_session

        try:
            read_session(args.session)
        except SessionError as exc:
            raise SessionError(f"--session {args.session}: {exc}") from None
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        from gui.common.display import display_problem

        problem = display_problem()
        if problem:
            raise DisplayError(problem)
    create_application(qt_args)
    from gui.common.i18n import set_language, system_language

    set_language(args.lang or system_language())
    from gui.window.main_window import MainWindow

    window = MainWindow()
    try:
        if args.session:
            window.load_session(args.session)
            if args.lang:          # the command line wins over the session's language
                window.switch_language(args.lang)
        if args.lesson:
            window.lesson.go_to(args.lesson - 1)
        if args.presentation:
            window.set_presentation(True)
    except Exception:
        window.close()  # stops the worker threads
        raise
    return window


def run_gui(argv: list[str]) -> int:
    """Open the window and run the event loop; bad options or session exit 2 with one line."""
    from engine.cli_args import EXIT_USAGE, UsageError
    from gui.state import SessionError

    try:
        window = build_window(argv)
    except (UsageError, SessionError, DisplayError) as exc:
        print(f"attention-lab: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from PySide6.QtWidgets import QApplication

    from gui.common.quit_signals import QuitOnSignals

    if not window.presentation:
        window.show()
    install_smoke_hooks(window)
    quitting = QuitOnSignals(window.close)     # Ctrl-C in the terminal: File → Quit
    try:
        return QApplication.instance().exec()
    finally:
        quitting.uninstall()
