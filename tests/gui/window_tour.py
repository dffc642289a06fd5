"""What the two whole-window drivers share (stress_driver.py, long_use_driver.py): the tour
that shows every view once before the random actions, and the bookkeeping around them.

    tour(win, app, scales, sizes)   every view once (see its docstring)
    spin_value(rng, spin)           a random value for a spin box: often an end of its range
    menu_actions(win)               the window's menu actions that open no dialog and quit not
    on_qt_message, on_exception     record Qt warnings and uncaught exceptions in `warnings`
                                    and `exceptions`
    release_freed_memory()          collect cycles, hand glibc's free heap pages back

Imported by the drivers run as scripts (this folder is their sys.path[0]); imports no Qt at
its own import, so a driver sets QT_QPA_PLATFORM first.
"""
import ctypes
import ctypes.util
import gc
import traceback

IGNORED = ("This plugin does not support",)
#: Actions that open a modal dialog (a file chooser, a message box) or quit.
MODAL = ("openSessionAction", "saveSessionAction", "exportWindowAction", "export_", "quit",
         "openModelFolderAction", "about")
SCORE_TEXTS = ("10, 1, 1, 1", "1e308, 1e308", "2e307, 0", "x, y", "1,,2", "5", "nan, 1",
               "-3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", "100 91 91 91", "0.1 0.2")
#: What a paste into any field may bring: numbers, lists, huge, negative and non-finite
#: numbers, Unicode, nothing, and a page (stress_driver's "paste" move).
PASTE_TEXTS = ("10,1,1,1", "10;1;1", "1e400", "-1e400", "99999999999999999999999", "-5",
               "0", "nan", "inf", "-inf", "3.5", "0x10", "  12  ", "", "١٢", "１２", "😀",
               "猫がマットに座った。", "1,000", "1e308, 1e308", "\t\n", "word " * 5000)
#: Text sizes a tour shows each view at.
TOUR_SCALES = (3.0, 1.5, 1.0)
LESSON_STEPS = 12

warnings, exceptions = [], []


def on_qt_message(kind, _context, message):
    from PySide6.QtCore import QtMsgType

    if kind not in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg):
        if not any(message.startswith(p) for p in IGNORED):
            warnings.append(message)


def on_exception(kind, value, tb):
    exceptions.append("".join(traceback.format_exception(kind, value, tb))[-800:])


def release_freed_memory() -> None:
    """Collect cycles, then hand glibc's freed heap pages back (a no-op elsewhere)."""
    gc.collect()
    libc = ctypes.util.find_library("c")
    if libc and hasattr(ctypes.CDLL(libc), "malloc_trim"):
        ctypes.CDLL(libc).malloc_trim(0)


def spin_value(rng, spin):
    """A value for `spin`: its lowest or highest two times in five, else one near its low end."""
    from PySide6.QtWidgets import QDoubleSpinBox

    low, high = spin.minimum(), spin.maximum()
    pick = rng.random()
    if pick < 0.2:
        return low
    if pick < 0.4:
        return high
    if isinstance(spin, QDoubleSpinBox):
        return rng.uniform(low, min(high, low + 10))
    return rng.randint(low, min(high, low + 600))


def menu_actions(win) -> list:
    """The window's named actions without a submenu that open no dialog and do not quit."""
    return [a for a in win.findChildren(type(win.menus.presentation_action))
            if a.objectName() and not any(m in a.objectName() for m in MODAL) and not a.menu()]


def show_every_view(win, app) -> None:
    """Every workspace in front in turn, and in each every view of its tab bar."""
    tabs = win.workspace_tabs
    for index in range(tabs.count()):
        tabs.setCurrentIndex(index)
        app.processEvents()
        bar = win.area.view_tabs.get(win.area.workspace())
        for view in range(bar.count() if bar is not None else 0):
            bar.setCurrentIndex(view)
            app.processEvents()


def tour(win, app, scales=TOUR_SCALES, sizes=()) -> None:
    """Every view once: in both languages, at each text size of `scales`, every workspace
    and every view in it, and with presentation on, every workspace; then at each window size
    of `sizes` every workspace; both themes; every lesson step. What a first use builds,
    fills and sizes (lazily made views, Qt's font engines and glyph caches, a plot's first
    results), done before the readings, so that they compare use with use. Ends windowed at
    100 % text in English, the light theme, the lesson left, the first workspace in front."""
    tabs = win.workspace_tabs
    for lang in ("ja", "en"):
        win.switch_language(lang)
        for scale in scales:
            win.set_ui_scale(scale)
            show_every_view(win, app)
            win.set_presentation(True)
            for index in range(tabs.count()):
                tabs.setCurrentIndex(index)
                app.processEvents()
            win.set_presentation(False)
    win.set_ui_scale(1.0)
    for size in sizes:
        win.resize(*size)
        for index in range(tabs.count()):
            tabs.setCurrentIndex(index)
            app.processEvents()
    for action in (win.menus.dark_action, win.menus.light_action):
        action.trigger()
        app.processEvents()
    for step in range(LESSON_STEPS):
        win.lesson.go_to(step)
        app.processEvents()
    win.lesson.leave()
    tabs.setCurrentIndex(0)
