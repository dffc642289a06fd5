"""The Training tab at 300 % text on a 1280×720 window (issue 10): the plots' tick labels
never run into each other, and the experiment boxes show their whole text."""

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionComboBox

from gui_helpers import _tick_texts, settle_layout
from test_gui_text_overlap import show_bottom_tab


def show_training(window, experiment: str, page: int):
    panel = window.training_panel
    show_bottom_tab(window, panel)
    panel.combo.setCurrentIndex(panel.combo.findData(experiment))
    panel.right.setCurrentIndex(page)
    for _ in range(4):
        settle_layout(panel.plots, rounds=4)
        QApplication.processEvents()
    return panel


def bottom_axes(panel):
    plots = [(f"curves {m}", p) for m, p in panel.curves.plots.items()]
    if panel.chart.isVisible():
        plots += [("chart ours", panel.chart.ours), ("chart paper", panel.chart.paper)]
    return [(name, plot.getAxis("bottom")) for name, plot in plots]


def touching_ticks(axis) -> list:
    """Pairs of the axis's tick labels (as it lays them out) that are closer than half a
    digit: "0.25", "0.5", "0.75" 2 px apart read as "0.250.50.75"."""
    from PySide6.QtGui import QFontMetricsF

    gap = QFontMetricsF(axis.style["tickFont"]).horizontalAdvance("0") / 2
    boxes = sorted(((axis.mapRectToScene(rect), text) for text, rect in _tick_texts(axis)),
                   key=lambda box: box[0].left())
    return [(a, b, round(rb.left() - ra.right(), 1))
            for (ra, a), (rb, b) in zip(boxes, boxes[1:]) if rb.left() - ra.right() < gap]


def hidden_text(combo) -> str | None:
    """What a combo box cannot show of its current text: None when, word-wrapped into its
    text field, the whole text fits the field (a QComboBox elides it to one line)."""
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                         QStyle.SubControl.SC_ComboBoxEditField, combo)
    text = combo.currentText()
    metrics = combo.fontMetrics()
    needed = metrics.boundingRect(QRect(0, 0, field.width(), 100000),
                                  int(Qt.TextFlag.TextWordWrap), text)
    if needed.width() > field.width() or needed.height() > field.height() + 1:
        return f"{text!r}: needs {needed.width()}×{needed.height()} px, field {field.width()}×{field.height()}"
    return None


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_training_tab_is_readable_at_300_percent_on_720p(window, qtbot, restore_view, lang):
    window.resize(1280, 720)
    window.switch_language(lang)
    window.set_ui_scale(3.0)
    found = []
    for experiment, page in (("scaling", 0), ("roles", 0), ("heads", 0), ("heads", 1)):
        panel = show_training(window, experiment, page)
        for name, axis in bottom_axes(panel):
            if axis.isVisible():
                found += [(experiment, page, name, pair) for pair in touching_ticks(axis)]
        for combo in (panel.combo, panel.task_combo):
            if combo.isVisible() and hidden_text(combo):
                found.append((experiment, combo.objectName(), hidden_text(combo)))
        area = window.panel_scroll
        if area.widget().minimumSizeHint().width() > area.viewport().width():
            found.append((experiment, "the panels scroll sideways"))
    assert not found, found


def test_the_tick_check_sees_labels_that_run_together(window, qtbot):
    panel = show_training(window, "scaling", 0)
    axis = panel.curves.plots["loss"].getAxis("bottom")
    axis.setTicks([[(v / 20, f"{v / 20:g}") for v in range(21)]])
    settle_layout(panel.plots)
    assert touching_ticks(axis)
    panel.curves._shown.pop((axis, "ticks"), None)
    panel.curves._fit_ticks()


def test_curve_tick_labels_never_touch_at_any_width(window, qtbot, restore_view):
    """At 300 % text the curves' x labels of an empty plot (0…1) ran together as
    "0.250.50.75" on 310–340 px plots: the step was chosen from another step's labels."""
    window.set_ui_scale(3.0)
    found, widths = [], set()
    for width in range(1280, 1681, 16):
        window.resize(width, 720)
        panel = show_training(window, "scaling", 0)
        for name, axis in bottom_axes(panel):
            widths.add(round(axis.linkedView().width()))
            found += [(width, name, pair) for pair in touching_ticks(axis)]
    assert any(300 <= w <= 350 for w in widths), sorted(widths)
    assert not found, found
