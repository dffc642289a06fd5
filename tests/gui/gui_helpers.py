"""Helpers shared by the GUI tests."""
import itertools
import weakref

import psutil
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEvent, QRectF, QTimer
from PySide6.QtGui import QPainter, QPicture
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (QAbstractButton, QApplication, QGraphicsSimpleTextItem,
                               QGraphicsTextItem, QLabel, QWidget)

#: Every QThread started in the session (weak references; conftest's track_threads fills
#: it): a leak check looks at those started after its mark, len(STARTED_THREADS) then.
STARTED_THREADS: "list[weakref.ref]" = []


def running_threads(since: int = 0) -> list:
    """The threads started after mark `since` (a length of the started list) still running."""
    alive = []
    for ref in STARTED_THREADS[since:]:
        thread = ref()
        try:
            if thread is not None and thread.isRunning():
                alive.append(thread)
        except RuntimeError:   # the C++ side is already gone
            pass
    return alive


def active_timers(widgets) -> list:
    timers = []
    for widget in widgets:
        try:
            timers += [t for t in widget.findChildren(QTimer) if t.isActive()]
        except RuntimeError:
            pass
    return timers


def describe_timer(timer) -> str:
    parent = timer.parent()
    owner = f"{type(parent).__name__} {parent.objectName()!r}" if parent is not None else "none"
    return (f"{timer.objectName() or 'timer'} ({timer.interval()} ms, "
            f"{'single shot' if timer.isSingleShot() else 'repeating'}) of {owner}")


def resource_tracker_pid() -> int | None:
    """multiprocessing's resource tracker: started by the first spawned child, ended when a
    window closes with no child left (gui.common.process_reaper.end_resource_tracker); its
    own lifetime, not a process a test left behind."""
    from multiprocessing import resource_tracker

    return getattr(resource_tracker._resource_tracker, "_pid", None)


def child_pids() -> set:
    return {p.pid for p in psutil.Process().children(recursive=True)}


class LeakBaseline:
    """What runs and what is open now, to compare with later (check())."""

    def __init__(self):
        self.widgets = set(QApplication.topLevelWidgets())
        self.children = child_pids()
        self.thread_mark = len(STARTED_THREADS)

    def check(self, timer_wait_ms: int = 1500, process_wait_ms: int = 2000) -> None:
        """No thread started since, no new visible top-level widget, no active timer of the
        new ones (single-shot timers of closed widgets may still fire once: waited for), no
        new child process (one that is exiting is waited for)."""
        QApplication.processEvents()
        running = running_threads(self.thread_mark)
        assert not running, f"threads left running: {[t.objectName() for t in running]}"
        new = [w for w in QApplication.topLevelWidgets() if w not in self.widgets]
        leaked = [w for w in new if w.isVisible()]
        assert not leaked, f"top-level widgets left open: {leaked}"
        deadline = QDeadlineTimer(timer_wait_ms)
        while active_timers(new) and not deadline.hasExpired():
            QTest.qWait(10)     # an event loop: deferred deletes happen too
        timers = active_timers(new)
        assert not timers, f"timers left active: {[describe_timer(t) for t in timers]}"
        deadline = QDeadlineTimer(process_wait_ms)
        while (children := self.new_children()) and not deadline.hasExpired():
            QTest.qWait(20)     # a process told to stop may take a moment to exit
        assert not children, f"child processes left running: {children}"

    def new_children(self) -> list:
        """Child processes started since, still running (an exited one not yet reaped is a
        zombie: it has ended)."""
        running = []
        tracker = resource_tracker_pid()
        for process in psutil.Process().children(recursive=True):
            try:
                if process.pid not in self.children and process.pid != tracker and \
                        process.status() != psutil.STATUS_ZOMBIE:
                    running.append(process)
            except psutil.NoSuchProcess:
                pass
        return running


def settle(win):
    """Wait until the newest request has been computed and shown, the lesson's text too
    (it follows new Results at most every TEXT_REFRESH_MIN_MS)."""
    assert win.model.wait_idle()
    QApplication.processEvents()
    assert win.model.results is not None
    assert win.model.results.params == win.model.params
    lesson = getattr(win, "lesson", None)
    if lesson is not None and lesson.text_pending:
        wait_for_signal(lesson.text_refreshed, 5000)
        assert not lesson.text_pending


def wait_for_signal(signal, timeout_ms: int) -> None:
    """Run the event loop until `signal` fires or `timeout_ms` has passed."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(timeout_ms, loop.quit)
    try:
        loop.exec()
    finally:
        signal.disconnect(loop.quit)


def settle_layout(panels, rounds: int = 3) -> None:
    """Let layouts, ViewBox transforms and deferred resizes of `panels` finish (what
    painting would do), without painting."""
    for _ in range(rounds):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for panel in panels:
            panel.scene().prepareForPaint()
            for item in panel.scene().items():   # an axis sizes itself to labels it lays out
                if isinstance(item, pg.AxisItem) and item.isVisible():
                    _tick_texts(item)
    QApplication.processEvents()


def layout_signature(panels) -> tuple:
    """Where the layouts of `panels` put things: each panel's size, its central item's
    geometry, and every visible axis's and ViewBox's geometry."""
    signature = []
    for panel in panels:
        signature.append((panel.size().toTuple(), panel.ci.geometry().getRect()))
        for item in panel.scene().items():
            if isinstance(item, (pg.AxisItem, pg.ViewBox)) and item.isVisible():
                signature.append(item.sceneBoundingRect().getRect())
    return tuple(signature)


def settle_layout_until_stable(panels, max_rounds: int = 9) -> int:
    """settle_layout's rounds until two in a row leave every layout as it was (at least
    three rounds, at most `max_rounds`); returns the rounds taken."""
    panels = list(panels)
    previous, unchanged = None, 0
    for done in range(1, max_rounds + 1):
        settle_layout(panels, rounds=1)
        signature = layout_signature(panels)
        unchanged = unchanged + 1 if signature == previous else 0
        previous = signature
        if unchanged >= 2:
            return done
    return max_rounds


def _document_rect(item: QGraphicsTextItem) -> QRectF:
    """The union of a text item's laid-out lines (no document margin, no empty width)."""
    rect = QRectF()
    block = item.document().begin()
    while block.isValid():
        layout = block.layout()
        origin = layout.position()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            if line.naturalTextWidth() > 0:
                rect = rect.united(line.naturalTextRect().translated(origin))
        block = block.next()
    return rect


def _tick_texts(axis: pg.AxisItem) -> list:
    """(text, rect in the axis's coordinates) of the tick labels the axis paints."""
    if not axis.style.get("showValues", True):
        return []
    picture = QPicture()
    painter = QPainter(picture)
    try:
        font = axis.style.get("tickFont")
        if font:
            painter.setFont(font)
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    if specs is None:
        return []
    return [(text, rect) for rect, _flags, text in specs[2] if text and text.strip()]


def _view_box(item):
    parent = item.parentItem()
    while parent is not None:
        if isinstance(parent, pg.ViewBox):
            return parent
        parent = parent.parentItem()
    return None


def text_boxes(panel) -> list:
    """Every visible text of a pyqtgraph panel: (text, rect, bounds) in viewport pixels,
    where `bounds` is the view the text must lie in (its ViewBox, or the panel's viewport).
    Titles, legends, axis labels, overlay and value labels, and the axes' tick labels."""
    to_view = panel.viewportTransform()
    viewport = QRectF(panel.viewport().rect())
    boxes = []

    def bounds_of(item):
        vb = _view_box(item)
        if vb is None:
            return viewport
        return vb.deviceTransform(to_view).mapRect(vb.boundingRect()).intersected(viewport)

    for item in panel.scene().items():
        if not item.isVisible() or item.scene() is None:
            continue
        if isinstance(item, QGraphicsTextItem):
            text, local = item.toPlainText(), _document_rect(item)
        elif isinstance(item, QGraphicsSimpleTextItem):
            text, local = item.text(), item.boundingRect()
        elif isinstance(item, pg.AxisItem):
            transform = item.deviceTransform(to_view)
            boxes += [(text, transform.mapRect(rect), viewport) for text, rect in _tick_texts(item)]
            continue
        else:
            continue
        if text.strip() and not local.isEmpty():
            boxes.append((text, item.deviceTransform(to_view).mapRect(local), bounds_of(item)))
    return boxes


def text_problems(panel, tolerance: float = 1.0) -> list[str]:
    """What is wrong with a panel's texts: pairs that overlap, texts outside their view.
    The rectangles are the fonts' line boxes (ascent to descent): `tolerance` pixels of
    overlap (about 1 per 100 % text) fall in their blank margins."""
    boxes = text_boxes(panel)
    problems = []
    for text, rect, bounds in boxes:
        if not bounds.adjusted(-tolerance, -tolerance, tolerance, tolerance).contains(rect):
            problems.append(f"outside its view: {text!r} {rect.getRect()} not in {bounds.getRect()}")
    for (a, ra, _), (b, rb, _) in itertools.combinations(boxes, 2):
        overlap = ra.intersected(rb)
        if overlap.width() > tolerance and overlap.height() > tolerance:
            problems.append(f"overlap: {a!r} {ra.getRect()} and {b!r} {rb.getRect()}")
    return problems


def forward_pids() -> set:
    """Pids of the Real heads forward processes alive now."""
    from gui.realheads.forward_process import forward_processes

    return {p.pid for p in forward_processes() if p.pid is not None}


def no_forward_in_this_process(monkeypatch):
    """The in-process path fails loudly: a result can then only come from the child."""
    import gui.realheads.study as model_heads

    def refuse(*_args):
        raise AssertionError("the forward ran in the window's process")

    monkeypatch.setattr(model_heads, "analyse_sentence", refuse)


def clipped_widgets(root: QWidget) -> list[str]:
    """The visible labels and buttons under `root` whose text does not fit them: a
    one-line text wider than the widget, a wrapped label taller than it. (Combo boxes
    elide on purpose; a label in a scroll area may be larger than the area, not than itself.)"""
    problems = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or widget.width() <= 0:
            continue
        name = widget.objectName() or getattr(widget, "text", lambda: "")()[:30]
        if isinstance(widget, QLabel) and widget.text().strip() and widget.pixmap().isNull():
            if widget.wordWrap():
                need_h = widget.heightForWidth(widget.width())
                if need_h > widget.height() + 1:
                    problems.append(f"{name!r}: needs {need_h} px height, has {widget.height()}")
            elif widget.minimumSizeHint().width() > widget.width() + 1:
                problems.append(f"{name!r}: needs {widget.minimumSizeHint().width()} px, "
                                f"has {widget.width()}")
        elif isinstance(widget, QAbstractButton) and widget.text().strip():
            if widget.sizeHint().width() > widget.width() + 1:
                problems.append(f"{name!r}: needs {widget.sizeHint().width()} px, "
                                f"has {widget.width()}")
    return problems


def view_in_front(window, view, idle: bool = False):
    """The view `view` (a gui.common.names key, or the view's widget) in front in its
    workspace, through the window's own bring_forward (a view built when first shown is built
    by then); returns the view: the plot for an always-built plot's name, else the widget.

    idle=True: then the window has caught up: events processed, the simulation's study idle
    (a hidden plot waits to be drawn until it is shown), and a view with a study of its own
    (wait_idle: the Head roles and Real heads tabs) idle too."""
    from PySide6.QtWidgets import QApplication

    name = view if isinstance(view, str) else view.objectName()
    window.bring_forward(name)
    if isinstance(view, str):
        view = window.panels[name] if name in window.panels else window.lazy_views.widget(name)
    if idle:
        QApplication.processEvents()
        assert window.model.wait_idle()
        if hasattr(view, "wait_idle"):
            assert view.wait_idle()
        QApplication.processEvents()
    return view


def page_texts(lesson) -> list[str]:
    """The plain text of each page of the lesson step's text (the strip turned through
    them, then back to the page it showed)."""
    fit = lesson.strip_fit
    shown = fit.page
    pages = []
    for page in range(fit.page_count):
        fit.show_page(page)
        pages.append(fit.page_text())
    fit.show_page(shown)
    return pages


def xvfb_or_skip() -> str:
    """xvfb-run's path; without it the test is skipped, or fails where
    ATTENTION_LAB_REQUIRE_XVFB is set (CI sets it after .ci/install_xvfb.sh)."""
    import os
    import shutil

    import pytest

    found = shutil.which("xvfb-run")
    if found is None:
        if os.environ.get("ATTENTION_LAB_REQUIRE_XVFB"):
            pytest.fail("xvfb-run is missing (.ci/install_xvfb.sh installs it)")
        pytest.skip("xvfb-run is not installed (apt-get install xvfb): the test needs a "
                    "real X screen")
    return found
