"""The guard: no exception reaches Qt from an override, one failing panel leaves the others
updating and says so itself, and every Qt override in gui/ is guarded."""
import ast
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QSpinBox, QStatusBar

from engine import compute
from gui.common.guard import errors
from gui_helpers import settle
from tab_fixtures import module_window  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[3]
QT_OVERRIDES = {"showEvent", "hideEvent", "changeEvent", "resizeEvent", "paintEvent",
                "closeEvent", "keyPressEvent", "mousePressEvent", "wheelEvent", "event",
                "eventFilter", "stepBy", "validate", "fixup", "sizeHint", "minimumSizeHint",
                "boundingRect", "paint", "updateMin", "drawPicture", "setTickFont",
                "timerEvent", "moveEvent", "focusInEvent", "focusOutEvent", "updateGeometry"}


def test_every_qt_override_in_gui_is_guarded():
    unguarded = []
    for path in (ROOT / "gui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name in QT_OVERRIDES:
                    names = [ast.unparse(d) for d in item.decorator_list]
                    if not any(n.startswith("guarded") for n in names):
                        unguarded.append(f"{path.relative_to(ROOT)}:{item.lineno} {item.name}")
    assert not unguarded, unguarded


def test_an_exception_in_an_event_handler_is_reported_not_raised(module_window, monkeypatch,
                                                                  guard_reports):
    window = module_window
    reported = []
    errors.reported.connect(reported.append)
    try:
        panel = window.panels["softmaxPlot"]
        monkeypatch.setattr(type(panel), "catch_up", lambda self: 1 / 0)
        QApplication.sendEvent(panel, QEvent(QEvent.Type.Show))    # would have killed PySide
        assert any("ZeroDivisionError" in m for m in reported)
        assert "ZeroDivisionError" in window.statusBar().currentMessage()
        assert all("ZeroDivisionError" in m for m in guard_reports.expect(1))
    finally:
        errors.reported.disconnect(reported.append)
        errors.seen.clear()


def test_one_failing_panel_leaves_the_others_updating(module_window, monkeypatch,
                                                       guard_reports):
    window = module_window
    softmax = window.panels["softmaxPlot"]

    def broken(results):
        raise ValueError("no bars today")

    monkeypatch.setattr(softmax, "show_results", broken)
    try:
        window.findChild(QSpinBox, "dkSpin").setValue(256)
        settle(window)
        assert "no bars today" in softmax.error_text
        assert softmax.findChild(type(window.compute_label), "panelError").isVisible()
        assert "d_k = 256" in window.panels["variancePlot"].stats_raw.toPlainText()
        assert "no bars today" in window.findChild(QStatusBar).currentMessage()
        monkeypatch.undo()
        window.findChild(QSpinBox, "dkSpin").setValue(128)
        settle(window)
        assert softmax.error_text == ""
        np.testing.assert_allclose(softmax.bars_scaled.opts["height"],
                                   compute(window.model.params).softmax.probs_scaled)
        assert all("no bars today" in m for m in guard_reports.expect(1))
    finally:
        errors.seen.clear()


def test_the_reporter_remembers_a_bounded_number_of_messages():
    """A message holding a value that differs on every call is reported each time, and the
    reporter keeps only the newest SEEN_KEPT of them; one forgotten is reported again."""
    from gui.common.guard import SEEN_KEPT, ErrorReporter

    reporter = ErrorReporter()
    shown = []
    reporter.reported.connect(shown.append)
    for i in range(SEEN_KEPT * 3):
        reporter.report("panel", ValueError(f"value {i}"))
    assert len(shown) == SEEN_KEPT * 3
    assert len(reporter.seen) == SEEN_KEPT
    assert reporter.seen[-1] == f"panel: ValueError: value {SEEN_KEPT * 3 - 1}"
    reporter.report("panel", ValueError(f"value {SEEN_KEPT * 3 - 1}"))   # remembered: once
    assert len(shown) == SEEN_KEPT * 3
    reporter.report("panel", ValueError("value 0"))                      # forgotten: again
    assert len(shown) == SEEN_KEPT * 3 + 1


def test_a_panel_that_fails_while_redrawn_says_so_and_raises_nothing(qtbot, monkeypatch,
                                                                     guard_reports):
    """A resize, a theme or a language shows the Results again (redraw): a failure there is
    the panel's message, as in update_results, not an exception escaping into Qt's event
    handlers (which PySide 6.10 turns into a crash)."""
    from engine import Params, compute
    from gui.panels.softmax_plot import SoftmaxPlot

    plot = SoftmaxPlot()
    qtbot.addWidget(plot)
    plot.update_results(compute(Params()))

    def broken(results):
        raise ValueError("no bars on resize")

    monkeypatch.setattr(plot, "show_results", broken)
    try:
        plot.redraw()
        assert "no bars on resize" in plot.error_text
        monkeypatch.undo()           # the panel works again before it is closed
        assert all("no bars on resize" in m for m in guard_reports.expect(1))
    finally:
        errors.seen.clear()


def test_a_caught_exception_is_what_fails_a_test(guard_reports):
    """Issue 32: the guard's reports used to pass unseen. tests/gui/conftest.py's autouse
    guard_reports_fail fails a test with unexpected() caught exceptions; expect() is how a
    test that provokes one on purpose takes it."""
    assert guard_reports.unexpected() == []
    errors.report("SomePanel.resizeEvent", ValueError("broken on purpose"))
    assert guard_reports.unexpected() == ["SomePanel.resizeEvent: ValueError: broken on purpose"]
    assert guard_reports.expect(1) == ["SomePanel.resizeEvent: ValueError: broken on purpose"]
    assert guard_reports.unexpected() == []
    errors.seen.clear()
